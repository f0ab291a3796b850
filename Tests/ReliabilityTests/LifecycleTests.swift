import Foundation
import Testing
import X11TestSupport
@_spi(Testing) import X11UI

/// A tooltip never outlives its view: views and windows removed, hidden or closed while their tooltip shows or
/// while its timer runs: the tooltip hides, the timer is cancelled, nothing retains a dead view.
@Suite(.serialized)
@MainActor
final class LifecycleTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    func showing(_ view: View) -> Bool {
        harness.app.toolTips.isShowing && harness.app.toolTips.shownSource === view
    }

    @Test func removingTheSourceWhileShownHidesIt() {
        let source = block(100, 40, toolTip: "Remove me")
        harness.show(VStack(padding: 40) { source })
        harness.move(to: harness.center(of: source))
        #expect(harness.run(until: { self.showing(source) }))
        source.removeFromSuperview()
        harness.wait(10)
        #expect(!harness.app.toolTips.isShowing)
        #expect(harness.toolTipFrame == nil)
        #expect(harness.pendingTimerCount == 0)
    }

    @Test func hidingTheSourceWhileItsTimerRunsCancelsTheTimer() {
        let source = block(100, 40, toolTip: "Hide me")
        harness.show(VStack(padding: 40) { source })
        harness.move(to: harness.center(of: source))
        #expect(harness.pendingTimerCount == 1)
        source.isHidden = true
        #expect(harness.pendingTimerCount == 0)
        harness.wait(100)
        #expect(!harness.app.toolTips.isShowing)
    }

    @Test func hidingAnAncestorHidesTheTooltip() {
        let source = block(100, 40, toolTip: "Inside")
        let container = VStack(padding: 10) { source }
        harness.show(VStack(padding: 30) { container })
        harness.move(to: harness.center(of: source))
        #expect(harness.run(until: { self.showing(source) }))
        container.isHidden = true
        #expect(!harness.app.toolTips.isShowing)
    }

    @Test func disablingTheInteractionHidesTheTooltip() throws {
        let source = block(100, 40, toolTip: "Disable me")
        harness.show(VStack(padding: 40) { source })
        harness.move(to: harness.center(of: source))
        #expect(harness.run(until: { self.showing(source) }))
        let interaction = try #require(source.interactions.first as? ToolTipInteraction)
        interaction.isEnabled = false
        #expect(!harness.app.toolTips.isShowing)
        // And it does not come back while disabled.
        harness.move(to: Point(x: 1, y: 1))
        harness.move(to: harness.center(of: source))
        harness.wait(100)
        #expect(!harness.app.toolTips.isShowing)
    }

    @Test func closingOrUnmappingTheWindowHidesTheTooltip() {
        let source = block(100, 40, toolTip: "Close me")
        let window = harness.show(VStack(padding: 40) { source })
        harness.move(to: harness.center(of: source))
        #expect(harness.run(until: { self.showing(source) }))
        window.hide()
        #expect(!harness.app.toolTips.isShowing)
        window.show()
        harness.wait(20)
        harness.move(to: harness.center(of: source))
        #expect(harness.run(until: { self.showing(source) }))
        window.close()
        #expect(!harness.app.toolTips.isShowing)
        #expect(harness.pendingTimerCount == 0)
    }

    @Test func nothingRetainsARemovedView() {
        weak var weakView: View?
        weak var weakInteraction: ToolTipInteraction?
        let container = VStack(padding: 40)
        harness.show(container)
        do {
            let source = block(100, 40, toolTip: "Transient")
            container.addSubview(source)
            harness.wait(10)
            weakView = source
            weakInteraction = source.interactions.first as? ToolTipInteraction
            harness.move(to: harness.center(of: source))
            #expect(harness.run(until: { self.showing(source) }))
            source.removeFromSuperview()
        }
        harness.move(to: Point(x: 2, y: 2))
        harness.wait(30)
        #expect(weakView == nil, "the removed view is freed")
        #expect(weakInteraction == nil, "and its interaction")
    }
}
