import Foundation
import Testing
import X11TestSupport
import X11UI

/// Keyboard toggletips and keyboard tooltips clear of the pointer (issue 12.4 and 12.5), in
/// process on a private Xvfb, with real keys and pointer motion from XTest; the checks read the
/// server (the tooltip window mapped, its frame).
@Suite(.serialized)
@MainActor
final class ToggletipTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
        display.app.toolTips.timings = ToolTipTimings(
            initialDelay: .milliseconds(60), browseDelay: .milliseconds(20), browseTimeout: .milliseconds(60),
            hoverGrace: .milliseconds(40))
    }

    /// The tooltip window's frame on the server, when it is mapped.
    var mappedToolTip: Frame? {
        guard let id = display.app.toolTips.windowID, let info = probe.info(id), info.isMapped else { return nil }
        return info.rect
    }

    @Test func spaceAndReturnToggleAFocusedButtonsClickToolTipAndEscapeClosesIt() throws {
        var presses = 0
        let info = Button(title: "Info") { presses += 1 }
        info.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "More about this"))
        let window = Window(
            title: "Toggletip", size: Size(width: 300, height: 160), content: VStack(padding: 60) { info },
            application: display.app)
        display.show(window)
        probe.movePointer(to: 5, 5)  // keys go to the window under the pointer
        display.settle()
        probe.key(0xff09)  // Tab
        #expect(display.run(until: { window.focusedView === info }))
        probe.key(0x20)  // Space: shows at once, at the view
        #expect(display.run(until: { self.mappedToolTip != nil }, timeout: .seconds(1)))
        #expect(display.app.toolTips.shownText == "More about this")
        let button = try #require(info.frameOnScreen)
        let tip = try #require(mappedToolTip)
        #expect(Double(tip.maxY) <= button.minY, "above the button, the click default")
        #expect(window.focusedView === info, "focus stays on the view")
        #expect(presses == 1, "the button still acts on the key")
        probe.key(0x20)  // Space again: hides
        #expect(display.run(until: { self.mappedToolTip == nil }))
        probe.key(0xff0d)  // Return: shows
        #expect(display.run(until: { self.mappedToolTip != nil }))
        probe.key(0xff1b)  // Escape: closes it, focus stays
        #expect(display.run(until: { self.mappedToolTip == nil }))
        #expect(window.focusedView === info)
        #expect(presses == 3)
    }

    /// A focus tooltip, like a hover one, never maps under the pointer: with the pointer resting
    /// where it would go, it goes elsewhere.
    @Test func aFocusToolTipNeverMapsUnderThePointer() throws {
        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        buy.toolTip = "Click to buy this item."
        let window = Window(
            title: "Focus", size: Size(width: 400, height: 300), content: VStack(padding: 100) { buy },
            application: display.app)
        display.show(window)
        let frame = try #require(buy.frameOnScreen)
        // Where the tooltip would go: below the button, centred.
        let pointer = (Int(frame.midX), Int(frame.maxY) + 16)
        probe.movePointer(to: pointer.0, pointer.1)
        #expect(display.run(until: { self.display.app.toolTips.isShowing == false }))
        display.settle()  // the pointer's place has reached the application
        probe.key(0xff09)  // Tab → the button
        #expect(display.run(until: { self.mappedToolTip != nil }))
        let tip = try #require(mappedToolTip)
        #expect(!tip.contains(pointer.0, pointer.1), "\(tip) covers the pointer at \(pointer)")
    }
}
