import Testing

@testable import X11UI
@testable import X11UICore

// Issue 29: a hover tooltip that follows the pointer (coalesced to a frame, on an injected
// clock, with exact effect lists), and where an expansion tooltip goes (over the cut text,
// kept on the monitor).

private typealias Machine = ToolTipStateMachine
private typealias Source = ToolTipStateMachine.Source

private func at(_ ms: Double) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 7_000_000_000_000 + Int64(ms * 1_000_000))
}

private let bar = Rect(x: 100, y: 100, width: 400, height: 40)
private let follower = Source(interaction: 1, region: bar, anchor: .pointer, timings: .standard, follows: true)
private let still = Source(interaction: 2, region: bar, anchor: .pointer, timings: .standard)
private let frame = ToolTipTimings.frame

/// A machine showing `source`, shown at 500 ms with the pointer at (150, 120).
private func showing(_ source: Source) -> Machine {
    var m = Machine()
    _ = m.run(.pointer(.source(source), at: Point(x: 150, y: 120)), now: at(0))
    _ = m.run(.timer, now: at(500))
    _ = m.reduce(.placed(Rect(x: 120, y: 144, width: 60, height: 30)), now: at(500))
    return m
}

@Suite struct ToolTipFollowTests {
    @Test func aToolTipThatFollowsMovesAtOnceWhenAFrameHasPassed() {
        var m = showing(follower)
        #expect(m.showing?.follow == Machine.Follow(placedAt: Point(x: 150, y: 120), lastMove: at(500)))
        let p = Point(x: 160, y: 120)
        #expect(m.reduce(.pointer(.source(follower), at: p), now: at(520)) == [.follow(p)])
        #expect(m.showing?.follow == Machine.Follow(placedAt: p, lastMove: at(520)))
    }

    /// Motion within a frame of the last move waits for the frame's end, then moves once, to
    /// where the pointer went last; the timer is a deadline, set once.
    @Test func motionWithinAFrameIsCoalescedIntoOneMoveAtItsEnd() {
        var m = showing(follower)
        let p1 = Point(x: 160, y: 120)
        #expect(m.reduce(.pointer(.source(follower), at: p1), now: at(520)) == [.follow(p1)])
        let due = at(520) + frame
        #expect(m.reduce(.pointer(.source(follower), at: Point(x: 161, y: 120)), now: at(524)) == [.setTimer(due)])
        #expect(m.reduce(.pointer(.source(follower), at: Point(x: 163, y: 121)), now: at(528)) == [])
        let p4 = Point(x: 170, y: 122)
        #expect(m.reduce(.pointer(.source(follower), at: p4), now: at(532)) == [])
        #expect(m.followDeadline == due)
        #expect(m.reduce(.timer, now: due) == [.follow(p4), .setTimer(nil)])
        #expect(m.followDeadline == nil)
        // A frame later, the next motion moves it at once again.
        let p5 = Point(x: 180, y: 122)
        #expect(m.reduce(.pointer(.source(follower), at: p5), now: due + frame) == [.follow(p5)])
    }

    @Test func aPointerThatDidNotMoveMovesNothing() {
        var m = showing(follower)
        let p = Point(x: 150, y: 120)
        #expect(m.reduce(.pointer(.source(follower), at: p), now: at(600)) == [])
        #expect(m.reduce(.pointer(.source(follower), at: nil), now: at(700)) == [])
        // Away and back within the frame: the waiting move is dropped, no timer stays.
        let q = Point(x: 190, y: 120)
        #expect(m.reduce(.pointer(.source(follower), at: q), now: at(800)) == [.follow(q)])
        #expect(
            m.reduce(.pointer(.source(follower), at: Point(x: 191, y: 120)), now: at(805)) == [
                .setTimer(at(800) + frame)
            ])
        #expect(m.reduce(.pointer(.source(follower), at: q), now: at(810)) == [.setTimer(nil)])
    }

    @Test func aToolTipThatDoesNotFollowNeverMoves() {
        var m = showing(still)
        #expect(m.showing?.follow == nil)
        for (i, x) in stride(from: 150.0, to: 400, by: 25).enumerated() {
            #expect(m.reduce(.pointer(.source(still), at: Point(x: x, y: 120)), now: at(600 + Double(i) * 30)) == [])
        }
    }

    /// Leaving the source hides it as any hover tooltip; a waiting move goes with it.
    @Test func leavingTheSourceDropsTheWaitingMove() {
        var m = showing(follower)
        _ = m.reduce(.pointer(.source(follower), at: Point(x: 160, y: 120)), now: at(520))
        _ = m.reduce(.pointer(.source(follower), at: Point(x: 161, y: 120)), now: at(525))
        let effects = m.reduce(.pointer(.nothing, at: Point(x: 161, y: 90)), now: at(530))
        #expect(effects == [.hide, .setTimer(nil)])
        #expect(m.followDeadline == nil)
    }

    /// The frame is a timing like the others: per interaction and clamped.
    @Test func theFollowIntervalIsATiming() {
        var timings = ToolTipTimings.standard
        #expect(timings.followInterval == .microseconds(16_667))
        timings.followInterval = .milliseconds(-5)
        #expect(timings.followInterval == .zero)
        let slow = Source(
            interaction: 3, region: bar, anchor: .pointer,
            timings: {
                var t = ToolTipTimings.standard
                t.followInterval = .milliseconds(100)
                return t
            }(), follows: true)
        var m = showing(slow)
        let p = Point(x: 200, y: 120)
        #expect(m.reduce(.pointer(.source(slow), at: p), now: at(550)) == [.setTimer(at(600))])
        #expect(m.reduce(.timer, now: at(600)) == [.follow(p), .setTimer(nil)])
    }
}

@Suite struct ToolTipFollowPlacementTests {
    private func request(pointer: Point, keeps: ToolTipPlacement.Edge? = nil) -> ToolTipLayout.Request {
        ToolTipLayout.Request(
            body: Size(width: 80, height: 30), arrow: Size(width: 12, height: 6), cornerRadius: 6,
            source: Rect(x: 0, y: 0, width: 600, height: 400), placement: .bottom, gap: 4,
            monitors: [Rect(x: 0, y: 0, width: 600, height: 400)], pointer: pointer, followsPointer: true,
            edgeMargin: 4, keepsEdge: keeps)
    }

    /// Near the monitor's bottom the tooltip flips above the pointer; moving back up a little,
    /// it stays above while that side fits (it does not flip back and forth).
    @Test func aFlippedToolTipThatFollowsStaysFlippedWhileItFits() {
        let low = ToolTipLayout.place(request(pointer: Point(x: 300, y: 380)))
        #expect(low.edge == .top)
        let back = Point(x: 300, y: 330)
        #expect(ToolTipLayout.place(request(pointer: back)).edge == .bottom, "without the kept edge: below")
        let kept = ToolTipLayout.place(request(pointer: back, keeps: .top))
        #expect(kept.edge == .top)
        #expect(!kept.visualFrame.contains(back))
        // Where the kept side no longer fits, the best side wins again.
        #expect(ToolTipLayout.place(request(pointer: Point(x: 300, y: 20), keeps: .top)).edge == .bottom)
    }

    @Test func theToolTipStaysOnTheMonitorAndOffThePointerAlongTheWay() {
        for x in stride(from: 0.0, through: 600, by: 7) {
            for y in [20.0, 200, 390] {
                let pointer = Point(x: x, y: y)
                let g = ToolTipLayout.place(request(pointer: pointer))
                #expect(!g.visualFrame.contains(pointer), "over the pointer at \(pointer)")
                #expect(g.windowFrame.minX >= 0 && g.windowFrame.maxX <= 600, "off the monitor at \(pointer)")
            }
        }
    }
}

@Suite struct ExpansionPlacementTests {
    private let monitor = Rect(x: 0, y: 0, width: 1280, height: 800)
    private let padding = EdgeInsets(all: 8)

    private func place(
        body: Size, text: Point, content: Point = Point(x: 0, y: 13.6), margins: EdgeInsets = .zero,
        monitors: [Rect]? = nil
    ) -> ToolTipGeometry {
        ToolTipLayout.placeExpansion(
            ToolTipLayout.ExpansionRequest(
                body: body, padding: padding, margins: margins, textAnchor: text, contentAnchor: content,
                source: Rect(x: text.x, y: text.y - 14, width: 200, height: 17), monitors: monitors ?? [monitor],
                edgeMargin: 4))
    }

    /// The full text's start and baseline land on the cut text's: the body starts the padding
    /// before and above them (the ascent's fraction is the same on both sides).
    @Test func theFullTextContinuesTheCutText() {
        let g = place(body: Size(width: 384, height: 33), text: Point(x: 417, y: 346.6))
        #expect(g.windowFrame == Rect(x: 409, y: 325, width: 384, height: 33))
        #expect(g.body == Rect(x: 0, y: 0, width: 384, height: 33))
        #expect(g.arrow == nil)
        // The content's anchor, in the window, is the text's anchor on the screen.
        let content = Point(x: g.windowFrame.minX + g.body.minX + 8 + 0, y: g.windowFrame.minY + g.body.minY + 8 + 13.6)
        #expect(abs(content.x - 417) < 1e-9 && abs(content.y - 346.6) < 1e-9)
    }

    /// Ink reaching left of the first letter moves the body left by as much.
    @Test func inkBeforeTheTextMovesTheBubble() {
        let g = place(body: Size(width: 100, height: 33), text: Point(x: 417, y: 346.6), content: Point(x: 2, y: 14.6))
        #expect(g.windowFrame.origin == Point(x: 407, y: 324))
    }

    @Test func aShadowsMarginIsOutsideTheBody() {
        let margins = EdgeInsets(top: 6, left: 8, bottom: 14, right: 8)
        let g = place(body: Size(width: 200, height: 33), text: Point(x: 417, y: 346.6), margins: margins)
        #expect(g.windowFrame == Rect(x: 401, y: 319, width: 216, height: 53))
        #expect(g.body == Rect(x: 8, y: 6, width: 200, height: 33))
    }

    /// Past the monitor's right edge the bubble shifts left to stay 4 px inside; past the
    /// bottom, up.
    @Test func theBubbleIsShiftedOntoTheMonitor() {
        let right = place(body: Size(width: 300, height: 33), text: Point(x: 1100, y: 346.6))
        #expect(right.windowFrame.maxX == 1276)
        #expect(right.windowFrame.minY == 325)
        let bottom = place(body: Size(width: 300, height: 120), text: Point(x: 100, y: 780))
        #expect(bottom.windowFrame.maxY == 796)
        let left = place(body: Size(width: 300, height: 33), text: Point(x: 2, y: 346.6))
        #expect(left.windowFrame.minX == 4)
    }

    /// A body as wide as the monitor (text wrapped at its width) keeps its left side on it.
    @Test func aBodyWiderThanTheMonitorKeepsItsStartOnIt() {
        let g = place(body: Size(width: 1400, height: 60), text: Point(x: 300, y: 346.6))
        #expect(g.windowFrame.minX == 4)
    }

    /// On the monitor the label is on, not the first one.
    @Test func theLabelsMonitorIsUsed() {
        let second = Rect(x: 1280, y: 0, width: 1024, height: 768)
        let g = place(body: Size(width: 300, height: 33), text: Point(x: 2250, y: 346.6), monitors: [monitor, second])
        #expect(g.monitor == second)
        #expect(g.windowFrame.maxX == second.maxX - 4)
    }

    @Test func notANumberIsNoCrash() {
        let g = place(body: Size(width: 100, height: 30), text: Point(x: .nan, y: 5))
        #expect(g.windowFrame.isFinite)
        #expect(monitor.contains(g.windowFrame.origin))
    }
}
