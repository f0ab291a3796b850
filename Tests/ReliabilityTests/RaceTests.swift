import CX11
import Foundation
import Testing
import X11TestSupport
import X11UI

/// Protocol races are survived: another client destroys the source window or the tooltip window;
/// errors such as BadWindow are swallowed and counted, never fatal.
@Suite(.serialized)
@MainActor
final class RaceTests {
    let harness: Harness

    init() throws {
        harness = try Harness()
    }

    @Test func theSourceWindowDestroyedByAnotherClientHidesItsTooltip() throws {
        let source = block(100, 40, toolTip: "Doomed window")
        let window = harness.show(VStack(padding: 40) { source })
        harness.move(to: harness.center(of: source))
        #expect(harness.run(until: { self.harness.app.toolTips.isShowing }))
        let doomed = try #require(window.windowID).rawValue
        harness.probe.destroy(doomed)
        #expect(harness.run(until: { !self.harness.app.toolTips.isShowing }))
        #expect(!window.isVisible)
        // Requests X11UI still had in flight for the vanished window are errors it survives.
        source.backgroundColor = .red
        harness.wait(50)
        #expect(!harness.app.isConnectionLost)
        // The application goes on: a new window works.
        let next = block(100, 40, toolTip: "Still here")
        harness.show(VStack(padding: 40) { next })
        harness.move(to: harness.center(of: next))
        #expect(harness.run(until: { self.harness.app.toolTips.shownText == "Still here" }))
    }

    @Test func theTooltipWindowDestroyedByAnotherClientIsRecreatedOnTheNextShow() throws {
        let first = block(100, 40, toolTip: "First")
        let second = block(100, 40, toolTip: "Second")
        harness.show(
            HStack(spacing: 40, padding: 40) {
                first; second
            })
        harness.move(to: harness.center(of: first))
        #expect(harness.run(until: { self.harness.app.toolTips.shownText == "First" }))
        let old = try #require(harness.app.toolTips.windowID).rawValue
        harness.probe.destroy(old)
        #expect(harness.run(until: { !self.harness.app.toolTips.isShowing }))
        harness.move(to: Point(x: 2, y: 2))
        harness.wait(60)
        harness.move(to: harness.center(of: second))
        #expect(harness.run(until: { self.harness.app.toolTips.shownText == "Second" }))
        let new = harness.app.toolTips.windowID?.rawValue
        #expect(new != nil && new != old)
        #expect(harness.toolTipFrame != nil, "the new window is mapped")
    }

    @Test func badWindowErrorsAreCountedAndSurvived() throws {
        let source = block(100, 40, toolTip: "Errors")
        let window = harness.show(VStack(padding: 40) { source })
        let before = harness.app.protocolErrorCount
        // Destroy the window behind X11UI's back, then make X11UI draw into it.
        XDestroyWindow(harness.probe.display, try #require(window.windowID).rawValue)
        XSync(harness.probe.display, 0)
        window.resize(to: Size(width: 300, height: 200))
        harness.wait(50)
        #expect(harness.app.protocolErrorCount > before)
        #expect(!harness.app.isConnectionLost)
    }
}
