import Testing
import X11TestSupport

@testable import X11UI

/// A tooltip shown again with the text and outline its window was painted with is not
/// painted again: its back buffer is the window's background, so the show is a configure and a
/// map (the server paints the window from the buffer, and the Expose the map brings needs no
/// copy), and the screen shows the same pixels; new text is painted.
@Suite(.serialized)
@MainActor
final class ToolTipRepaintTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    /// Presents the tooltip; returns the requests the show made, through the map and the loop's
    /// handling of the Expose the map brings (the server has processed the map and the
    /// application has handled every event it sent until then), and a sample of the tooltip's
    /// pixels once it is mapped.
    func show(_ interaction: ToolTipInteraction) throws -> (requests: Int, pixels: [UInt32]) {
        let connection = display.app.connection
        let before = connection.nextRequestSerial
        interaction.present()
        #expect(display.run(until: { !self.probe.mappedPopups().isEmpty }))
        // The map has been processed (the probe saw it), so the Expose it brought is on the
        // application's connection before the reply to its sync (one request, not counted).
        probe.sync()
        display.app.sync()
        display.app.processPending()
        let requests = Int(connection.nextRequestSerial - before) - 1
        let tip = try #require(probe.mappedPopups().first)
        var pixels: [UInt32] = []
        for y in stride(from: 0, to: tip.frame.height, by: 2) {
            for x in stride(from: 0, to: tip.frame.width, by: 2) {
                pixels.append(probe.pixel(tip.frame.x + x, tip.frame.y + y))
            }
        }
        return (requests, pixels)
    }

    func hide(_ interaction: ToolTipInteraction) {
        interaction.dismiss()
        #expect(display.run(until: { self.probe.mappedPopups().isEmpty }))
        // The source's window copies back what the tooltip uncovered (one request, its Expose):
        // that belongs to the hide, not to the next show.
        display.settle()
    }

    @Test func theSameTextIsNotPaintedAgainAndNewTextIs() throws {
        let source = View()
        source.preferredSize = Size(width: 160, height: 40)
        source.backgroundColor = Color(rgb: 0x34c759)
        let interaction = ToolTipInteraction(defaultToolTip: "Painted once, shown twice")
        source.addInteraction(interaction)
        let window = Window(
            title: "Repaint", size: Size(width: 300, height: 200), content: VStack(padding: 30) { source },
            application: display.app)
        display.show(window)

        let first = try show(interaction)
        hide(interaction)
        let again = try show(interaction)
        hide(interaction)
        #expect(again.pixels == first.pixels, "the tooltip shown again looks the same")
        #expect(again.requests == 2, "configure, map: \(again.requests) requests")
        #expect(first.requests > again.requests + 2)

        interaction.defaultToolTip = "Different words, same place"
        let changed = try show(interaction)
        #expect(changed.pixels != first.pixels, "new text is painted")
        #expect(changed.requests > again.requests + 2)
    }
}
