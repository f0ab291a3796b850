import Foundation
import Testing
import X11TestSupport

/// Hover intent and pointer-anchored hover tooltips (issue 12), on the demo's sample scene
/// driven with XTest; every check reads the X server.
@Suite(.serialized)
final class HoverIntentTests {
    let session: ProgramSession
    var probe: ServerProbe { session.probe }

    init() throws {
        session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
    }

    /// Rests on a view's middle until its tooltip shows.
    func hover(_ id: String) throws -> (view: Frame, tip: Frame) {
        session.park()
        session.waitForNoToolTip()
        let view = try session.frame(id)
        probe.movePointer(to: view.midX, view.midY)
        let tip = try #require(session.waitForToolTip(), "\(id) shows a tooltip")
        return (view, tip.rect)
    }

    /// The time until no tooltip is mapped, or nil when one still is after `timeout`.
    func timeUntilHidden(timeout: TimeInterval = 2) -> TimeInterval? {
        let start = Date()
        return session.waitForNoToolTip(timeout: timeout) ? Date().timeIntervalSince(start) : nil
    }

    /// Leaving away from the tooltip hides it at once, not after the 150 ms timeout.
    @Test func leavingAwayFromTheToolTipHidesItAtOnce() throws {
        let (view, tip) = try hover("default-view")
        #expect(tip.y >= view.maxY)
        probe.movePointer(to: view.midX, view.y - 3)  // up, out of the top edge
        let hidden = try #require(timeUntilHidden())
        #expect(hidden < 0.14, "hidden after \(Int(hidden * 1000)) ms")
    }

    /// Leaving toward the tooltip and stopping short of it: it stays for the timeout, then hides.
    @Test func stoppingShortInTheGapHidesAfterTheTimeout() throws {
        let (view, tip) = try hover("default-view")
        let start = Date()
        probe.movePointer(to: view.midX, view.maxY + 1)
        #expect(session.waitForNoToolTip(timeout: 2))
        let hidden = Date().timeIntervalSince(start)
        #expect(hidden >= 0.12, "kept while crossing toward it: hidden after \(Int(hidden * 1000)) ms")
        _ = tip
    }

    /// Crossing the gap in steps and resting on the tooltip keeps it: every step stays in the
    /// safe region.
    @Test func crossingTowardTheToolTipKeepsIt() throws {
        let (view, tip) = try hover("buy-button")
        var y = view.maxY - 2
        while y < tip.y + 6 {
            y += 2
            probe.movePointer(to: view.midX, y)
            probe.sync()
        }
        #expect(holds(for: 0.4) { probe.mappedPopups().count == 1 }, "kept all the way onto the tooltip")
        // Leaving the tooltip away from the button (down, out of its bottom): hidden at once.
        probe.movePointer(to: tip.midX, tip.maxY + 40)
        let hidden = try #require(timeUntilHidden())
        #expect(hidden < 0.14, "hidden after \(Int(hidden * 1000)) ms")
    }

    /// Over a window that is not the program's (the root window here) no motion arrives: the
    /// point where the pointer left the program's window and the timeout decide.
    @Test func beyondTheProgramsWindowTheLeavePointAndTheTimeoutDecide() throws {
        let window = try #require(session.program.windows.compactMap { probe.info($0) }.first).rect
        let view = try session.frame("default-view")
        // Rest near the view's right end: the tooltip, centred at the pointer, reaches past the
        // window's right edge.
        func showTip() throws -> Frame {
            session.park()
            session.waitForNoToolTip()
            probe.movePointer(to: view.maxX - 4, view.midY)
            return try #require(session.waitForToolTip()).rect
        }
        let tip = try showTip()
        try #require(tip.maxX > window.maxX + 4, "the tooltip \(tip) reaches past the window \(window)")
        // Toward it, out of the window into the gap: kept until the timeout.
        let start = Date()
        probe.movePointer(to: window.maxX + 3, view.maxY + 1)
        #expect(session.waitForNoToolTip(timeout: 2))
        let kept = Date().timeIntervalSince(start)
        #expect(kept >= 0.12, "hidden after \(Int(kept * 1000)) ms")
        // Away from it, out of the window above: hidden at once.
        _ = try showTip()
        probe.movePointer(to: window.maxX + 60, view.y - 20)
        let hidden = try #require(timeUntilHidden())
        #expect(hidden < 0.14, "hidden after \(Int(hidden * 1000)) ms")
    }

    /// Along its edge, a hover tooltip shows at the pointer: resting at the left end of the
    /// wide label puts its tooltip there, with the arrow's tip at the pointer.
    @Test func aHoverToolTipShowsAtThePointerAlongItsEdge() throws {
        session.park()
        session.waitForNoToolTip()
        let label = try session.frame("label")
        let x = label.x + 12
        probe.movePointer(to: x, label.midY)
        let tip = try #require(session.waitForToolTip(named: "The label's tooltip.")).rect
        #expect(tip.y >= label.maxY)
        #expect(tip.x <= x && tip.maxX >= x, "the tooltip spans the pointer")
        #expect(tip.midX < label.midX - 40, "not centred on the label (\(tip) for \(label))")
        // The arrow: bubble-coloured pixels at the pointer's x just below the label.
        #expect(probe.pixel(x, tip.y + 2) == 0x2c2c2e, "the arrow is at the pointer")
    }
}
