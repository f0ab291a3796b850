import Testing
import X11TestSupport

@testable import X11UI

/// A tooltip shown again with the text and outline its window was painted with is not
/// painted again: the show is a configure, a map and a copy, and the screen shows the same
/// pixels; new text is painted.
@Suite(.serialized)
@MainActor
final class ToolTipRepaintTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    /// Presents the tooltip; returns the requests the show itself made (counted when `present()`
    /// returns: what the loop does later, such as answering the Expose the map brings, depends on
    /// when events arrive and varied from 0 to 2 requests under load) and a sample of the
    /// tooltip's pixels once it is mapped.
    func show(_ interaction: ToolTipInteraction) throws -> (requests: Int, pixels: [UInt32]) {
        let connection = display.app.connection
        let before = connection.nextRequestSerial
        interaction.present()
        let requests = Int(connection.nextRequestSerial - before)
        #expect(display.run(until: { !self.probe.mappedPopups().isEmpty }))
        display.run(for: .milliseconds(30))
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
        #expect(again.requests <= 3, "configure, map, copy: \(again.requests) requests")
        #expect(first.requests > again.requests + 2)

        interaction.defaultToolTip = "Different words, same place"
        let changed = try show(interaction)
        #expect(changed.pixels != first.pixels, "new text is painted")
        #expect(changed.requests > again.requests + 2)
    }
}
