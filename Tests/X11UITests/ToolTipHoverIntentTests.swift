import Testing

@testable import X11UI

// Hover intent (issue 12.2): the safe region between where the pointer left and the tooltip,
// and the state machine's rules built on it, with an injected clock.

private typealias Machine = ToolTipStateMachine
private typealias Source = ToolTipStateMachine.Source

private func at(_ ms: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 9_000_000_000_000 + ms * 1_000_000)
}

/// A 100×30 button; its tooltip 4 px below it, 160×30, centred.
private let button = Rect(x: 100, y: 100, width: 100, height: 30)
private let toolTipFrame = Rect(x: 70, y: 134, width: 160, height: 30)
private let hover = Source(interaction: 1, region: button, anchor: .pointer, timings: .standard)
/// Another hover source just below the button, partly under the tooltip.
private let neighbour = Source(
    interaction: 2, region: Rect(x: 100, y: 142, width: 100, height: 30), anchor: .pointer, timings: .standard)

/// A machine showing `hover`'s tooltip at `toolTipFrame`, the pointer resting at (150, 120).
private func showing() -> Machine {
    var m = Machine()
    _ = m.run(.pointer(.source(hover), at: Point(x: 150, y: 120)), now: at(0))
    #expect(m.run(.timer, now: at(500)) == [.ask(hover), .setTimer(nil), .show(hover)])
    #expect(m.reduce(.placed(toolTipFrame), now: at(500)) == [])
    #expect(m.showing?.frame == toolTipFrame)
    return m
}

@Suite struct ToolTipHoverIntentGeometryTests {
    @Test func theExitSideIsTheNearestSide() {
        #expect(ToolTipHoverIntent.exitSide(Point(x: 150, y: 131), of: button) == .bottom)
        #expect(ToolTipHoverIntent.exitSide(Point(x: 150, y: 99), of: button) == .top)
        #expect(ToolTipHoverIntent.exitSide(Point(x: 99, y: 115), of: button) == .leading)
        #expect(ToolTipHoverIntent.exitSide(Point(x: 201, y: 115), of: button) == .trailing)
    }

    @Test func theRegionReachesFromTheExitToTheToolTip() throws {
        let region = try #require(
            ToolTipHoverIntent.safeRegion(exit: Point(x: 150, y: 131), from: button, to: toolTipFrame))
        // The exit, the gap below it, the tooltip's corners: in.
        for p in [Point(x: 150, y: 131), Point(x: 150, y: 133), Point(x: 70, y: 164), Point(x: 230, y: 134)] {
            #expect(ToolTipHoverIntent.contains(region, p), "\(p)")
        }
        // Beside the exit, sideways in the gap far from the tooltip, above the button: out.
        for p in [Point(x: 150, y: 90), Point(x: 10, y: 132), Point(x: 300, y: 132), Point(x: 150, y: 170)] {
            #expect(!ToolTipHoverIntent.contains(region, p), "\(p)")
        }
    }

    @Test func leavingAwayFromTheToolTipIsOutsideTheRegionAtOnce() throws {
        // Up, or sideways when the tooltip below is no wider than the button.
        let narrow = Rect(x: 120, y: 134, width: 60, height: 30)
        for exit in [Point(x: 150, y: 99), Point(x: 99, y: 110), Point(x: 201, y: 105)] {
            let region = try #require(ToolTipHoverIntent.safeRegion(exit: exit, from: button, to: narrow))
            #expect(!ToolTipHoverIntent.contains(region, exit), "\(exit)")
        }
    }

    /// Like Radix's grace area: leaving sideways toward a tooltip that reaches past that side
    /// may be the way to it.
    @Test func leavingSidewaysTowardAWiderToolTipIsInside() throws {
        for exit in [Point(x: 99, y: 120), Point(x: 201, y: 125)] {
            let region = try #require(ToolTipHoverIntent.safeRegion(exit: exit, from: button, to: toolTipFrame))
            #expect(ToolTipHoverIntent.contains(region, exit), "\(exit)")
        }
    }

    @Test func theHullIsConvexAndCounterClockwise() {
        let square = [Point(x: 0, y: 0), Point(x: 2, y: 2), Point(x: 2, y: 0), Point(x: 1, y: 1), Point(x: 0, y: 2)]
        let hull = ToolTipHoverIntent.convexHull(square)
        #expect(hull.count == 4)
        #expect(!hull.contains(Point(x: 1, y: 1)))
        #expect(ToolTipHoverIntent.contains(hull, Point(x: 1, y: 1)))
        #expect(ToolTipHoverIntent.contains(hull, Point(x: 2, y: 1)))  // the border counts
        #expect(!ToolTipHoverIntent.contains(hull, Point(x: 2.1, y: 1)))
    }

    @Test func brokenGeometryHasNoRegion() {
        #expect(ToolTipHoverIntent.safeRegion(exit: Point(x: .nan, y: 0), from: button, to: toolTipFrame) == nil)
        #expect(
            ToolTipHoverIntent.safeRegion(
                exit: Point(x: 0, y: 0), from: Rect(x: .infinity, y: 0, width: 1, height: 1), to: toolTipFrame)
                == nil)
        #expect(!ToolTipHoverIntent.contains([], Point(x: 0, y: 0)))
    }
}

@Suite struct ToolTipHoverIntentStateMachineTests {
    @Test func leavingAwayFromTheToolTipHidesAtOnce() {
        for exit in [Point(x: 150, y: 99), Point(x: 95, y: 102), Point(x: 205, y: 102), Point(x: 150, y: 60)] {
            var m = showing()
            #expect(m.reduce(.pointer(.nothing, at: exit), now: at(1000)) == [.hide], "\(exit)")
            #expect(m.shown == nil && m.timer == nil)
        }
    }

    @Test func crossingTowardTheToolTipKeepsItUntilItArrives() {
        var m = showing()
        #expect(m.reduce(.pointer(.nothing, at: Point(x: 150, y: 131)), now: at(1000)) == [.setTimer(at(1150))])
        // Each motion inside the region counts the timeout from there.
        #expect(m.reduce(.pointer(.nothing, at: Point(x: 140, y: 133)), now: at(1100)) == [.setTimer(at(1250))])
        #expect(m.reduce(.pointer(.toolTip, at: Point(x: 130, y: 140)), now: at(1200)) == [.setTimer(nil)])
        #expect(m.reduce(.timer, now: at(5000)) == [])
        #expect(m.shown == hover)
    }

    @Test func stoppingShortInTheGapHidesAfterTheTimeout() {
        var m = showing()
        _ = m.reduce(.pointer(.nothing, at: Point(x: 150, y: 132)), now: at(1000))
        #expect(m.reduce(.timer, now: at(1149)) == [])
        #expect(m.reduce(.timer, now: at(1150)) == [.hide, .setTimer(nil)])
    }

    @Test func turningAwayInTheGapHidesAtOnce() {
        var m = showing()
        _ = m.reduce(.pointer(.nothing, at: Point(x: 150, y: 132)), now: at(1000))
        #expect(m.reduce(.pointer(.nothing, at: Point(x: 400, y: 132)), now: at(1010)) == [.hide, .setTimer(nil)])
    }

    @Test func leavingTheToolTipBackTowardTheSourceKeepsIt() {
        var m = showing()
        _ = m.reduce(.pointer(.toolTip, at: Point(x: 150, y: 150)), now: at(1000))
        #expect(m.reduce(.pointer(.nothing, at: Point(x: 150, y: 133)), now: at(1100)) == [.setTimer(at(1250))])
        #expect(m.reduce(.pointer(.source(hover), at: Point(x: 150, y: 129)), now: at(1120)) == [.setTimer(nil)])
        #expect(m.shown == hover)
    }

    @Test func leavingTheToolTipAwayHidesAtOnce() {
        var m = showing()
        _ = m.reduce(.pointer(.toolTip, at: Point(x: 150, y: 150)), now: at(1000))
        #expect(m.reduce(.pointer(.nothing, at: Point(x: 150, y: 165)), now: at(1100)) == [.hide])
    }

    /// A leave into a window that is not X11UI's brings no more motion: the leave point and the
    /// timeout decide.
    @Test func overAForeignWindowTheLeavePointAndTheTimeoutDecide() {
        var away = showing()
        #expect(away.reduce(.pointer(.nothing, at: Point(x: 50, y: 115)), now: at(1000)) == [.hide])
        var toward = showing()
        _ = toward.reduce(.pointer(.nothing, at: Point(x: 150, y: 131)), now: at(1000))
        #expect(toward.reduce(.timer, now: at(1150)) == [.hide, .setTimer(nil)])
    }

    @Test func crossingAnotherSourceOnTheWayKeepsTheToolTipThenBrowsesIfItStops() {
        var m = showing()
        _ = m.reduce(.pointer(.nothing, at: Point(x: 150, y: 131)), now: at(1000))
        // The neighbour lies under the way to the tooltip: no hide, no delay started for it.
        #expect(
            m.reduce(.pointer(.source(neighbour), at: Point(x: 150, y: 143)), now: at(1020)) == [.setTimer(at(1170))])
        #expect(m.shown == hover && m.pending == nil)
        // Stopped there: the tooltip hides and the neighbour's shows after the browse delay.
        #expect(m.reduce(.timer, now: at(1170)) == [.hide, .setTimer(at(1230))])
        #expect(m.run(.timer, now: at(1230)) == [.ask(neighbour), .setTimer(nil), .show(neighbour)])
    }

    @Test func movingOntoAnotherSourceAwayFromTheToolTipBrowsesAtOnce() {
        var m = showing()
        let above = Source(
            interaction: 3, region: Rect(x: 100, y: 60, width: 100, height: 30), anchor: .pointer, timings: .standard)
        #expect(
            m.reduce(.pointer(.source(above), at: Point(x: 150, y: 89)), now: at(1000)) == [.hide, .setTimer(at(1060))])
    }

    @Test func withoutTheToolTipsFrameOnlyTheTimeoutDecides() {
        var m = Machine()
        _ = m.run(.pointer(.source(hover), at: Point(x: 150, y: 120)), now: at(0))
        _ = m.run(.timer, now: at(500))
        #expect(m.reduce(.pointer(.nothing, at: Point(x: 150, y: 60)), now: at(1000)) == [.setTimer(at(1150))])
        #expect(m.showing?.leaving?.region == nil)
    }
}
