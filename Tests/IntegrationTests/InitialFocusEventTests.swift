import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// The focus a window gives as it opens, on a real server: no ring and no focus tooltip until
/// a key is pressed; the first Tab then moves on, ringing the next view and showing its tooltip.
@Suite(.serialized)
@MainActor
final class InitialFocusEventTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
        display.app.toolTips.timings.initialDelay = .milliseconds(100)
    }

    @Test func theInitialFocusShowsNoTooltipAndTheFirstTabMovesOn() throws {
        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        buy.toolTip = "Click to buy this item."
        let cart = Button(title: "Add to Cart")
        cart.toolTip = "Keep it for later."
        let window = Window(
            title: "Shop", size: Size(width: 420, height: 300),
            content: VStack(spacing: 12, padding: 16) {
                buy; cart
            }, application: display.app)
        display.show(window)
        #expect(window.focusedView === buy)
        #expect(!window.isFocusVisible && !buy.showsFocusRing)
        // Three times the initial delay after the map: a keyboard focus would have shown it.
        #expect(!display.run(until: { self.display.app.toolTips.isShowing }, timeout: .milliseconds(300)))
        probe.movePointer(to: 410, 290)  // keys go to the window under the pointer
        display.settle()
        probe.key(0xff09)
        #expect(display.run(until: { self.display.app.toolTips.shownText == "Keep it for later." }))
        #expect(window.focusedView === cart && cart.showsFocusRing && !buy.showsFocusRing)
    }
}
