import Foundation
import Testing
import X11TestSupport
@_spi(Testing) import X11UI

/// The tooltip driver on a virtual clock: its delays pass when the clock is advanced, to the
/// nanosecond, and its timers stay off the run loop.
@Suite(.serialized)
@MainActor
final class VirtualTimeTests {
    let harness: Harness
    let first = block(120, 60, toolTip: "First")
    let second = block(120, 60, toolTip: "Second")

    init() throws {
        harness = try Harness()
        harness.show(
            HStack(spacing: 40, padding: 40) {
                first; second
            })
    }

    @Test func aTooltipShowsAtTheInitialDelayAndNotANanosecondBefore() {
        harness.app.toolTips.timings = .standard
        harness.move(to: harness.center(of: first))
        #expect(harness.clock.pendingTimerCount == 1)
        #expect(harness.app.pendingTimerCount == 0, "the tooltip timer is on the tooltip clock")
        harness.clock.advance(by: .milliseconds(500) - .nanoseconds(1))
        #expect(!harness.app.toolTips.isShowing)
        harness.clock.advance(by: .nanoseconds(1))
        #expect(harness.app.toolTips.shownText == "First")
        #expect(harness.clock.pendingTimerCount == 0)
    }

    @Test func browsingUsesTheBrowseDelayWithinTheBrowseTimeout() {
        harness.app.toolTips.timings = .standard
        harness.move(to: harness.center(of: first))
        harness.wait(500)
        #expect(harness.app.toolTips.shownText == "First")
        // Straight to the next view: the first hides, the second waits only the browse delay.
        harness.move(to: harness.center(of: second))
        #expect(!harness.app.toolTips.isShowing)
        harness.clock.advance(by: .milliseconds(60) - .nanoseconds(1))
        #expect(!harness.app.toolTips.isShowing)
        harness.clock.advance(by: .nanoseconds(1))
        #expect(harness.app.toolTips.shownText == "Second")
        // Away for longer than the browse timeout: the full delay again.
        harness.move(to: Point(x: 2, y: 2))
        harness.wait(501)
        harness.move(to: harness.center(of: first))
        harness.wait(499)
        #expect(!harness.app.toolTips.isShowing)
        harness.wait(1)
        #expect(harness.app.toolTips.shownText == "First")
    }

    /// Escape dismisses the tooltip of the view under the pointer until the pointer leaves it;
    /// hiding the window takes the pointer off its views, so after the window is shown again,
    /// resting on the view shows its tooltip (the fuzz test's seed 15044843473666576437 found
    /// it waiting forever: the server sent no leave for the unmapped window).
    @Test func afterEscapeHidingAndShowingTheWindowLetsTheViewsTooltipShowAgain() throws {
        harness.app.toolTips.timings = .standard
        let window = try #require(harness.window)
        let center = harness.center(of: first)
        harness.move(to: center)
        harness.key(0xff1b)  // Escape before the delay: this view's tooltip is off until the pointer leaves
        harness.wait(600)
        #expect(!harness.app.toolTips.isShowing)
        window.hide()
        harness.settle()
        window.show()
        #expect(harness.run(until: { window.isVisible && window.screenOrigin != nil }))
        harness.move(to: Point(x: center.x + 3, y: center.y + 2))
        #expect(harness.clock.pendingTimerCount == 1, "resting on the view sets the delay again")
        harness.wait(500)
        #expect(harness.app.toolTips.shownText == "First")
    }

    @Test func aTimerAlreadySetKeepsTheTimeItHadLeftOnTheNewClock() {
        harness.app.toolTips.timings = .standard
        harness.move(to: harness.center(of: first))
        harness.clock.advance(by: .milliseconds(200))
        let next = VirtualClock(start: harness.clock.now + .seconds(1000))
        harness.app.toolTips.drive(on: next)
        #expect(next.pendingTimerCount == 1)
        #expect(harness.clock.pendingTimerCount == 0, "the old clock's timer is cancelled")
        #expect(next.nextDeadline == next.now + .milliseconds(300))
        next.advance(by: .milliseconds(300))
        harness.app.processPending()
        #expect(harness.app.toolTips.shownText == "First")
    }
}
