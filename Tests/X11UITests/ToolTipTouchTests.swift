import Testing

@testable import X11UI
@testable import X11UICore

// Touch: a long press shows a source's hover tooltip, which stays until a touch elsewhere; a
// tap shows none; pointer motion emulated from a touch starts nothing.

private typealias Machine = ToolTipStateMachine
private typealias Source = ToolTipStateMachine.Source

private func at(_ ms: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 7_000_000_000_000 + ms * 1_000_000)
}

private let regionA = Rect(x: 10, y: 10, width: 100, height: 30)
private let regionB = Rect(x: 10, y: 50, width: 100, height: 30)
private let hoverA = Source(interaction: 1, region: regionA, anchor: .pointer, timings: .standard)
private let hoverB = Source(interaction: 2, region: regionB, anchor: .pointer, timings: .standard)
private let clickC = Source(interaction: 3, region: regionA, anchor: .click, timings: .standard)
private let inA = Point(x: 40, y: 20)
private let inB = Point(x: 40, y: 60)

/// A machine showing hoverA after a long press at `inA` that lifted at 700 ms.
private func heldOnA() -> Machine {
    var m = Machine()
    _ = m.run(.touchBegin(.source(hoverA), at: inA), now: at(0))
    _ = m.run(.buttonPress(.source(hoverA)), now: at(0))
    _ = m.run(.timer, now: at(500))
    _ = m.run(.touchEnd, now: at(700))
    _ = m.run(.buttonRelease(.source(hoverA)), now: at(700))
    return m
}

@Suite struct ToolTipTouchTests {
    @Test func aLongPressShowsTheHoverToolTip() {
        var m = Machine()
        #expect(m.run(.touchBegin(.source(hoverA), at: inA), now: at(0)) == [.setTimer(at(500))])
        // The press emulated from the finger does not dismiss what the finger waits for.
        _ = m.run(.buttonPress(.source(hoverA)), now: at(0))
        #expect(m.run(.touchMove(Point(x: 45, y: 24)), now: at(200)).isEmpty)
        #expect(m.run(.timer, now: at(499)).isEmpty)
        #expect(m.run(.timer, now: at(500)).contains(.show(hoverA)))
        #expect(m.showing?.byTouch == true)
    }

    @Test func itStaysAfterTheFingerLiftsAndAfterEmulatedMotion() {
        var m = heldOnA()
        #expect(m.shown == hoverA)
        #expect(m.run(.touchPointer(.nothing, at: Point(x: 500, y: 500)), now: at(800)).isEmpty)
        #expect(m.run(.timer, now: at(10_000)).isEmpty)
        #expect(m.shown == hoverA)
    }

    @Test func aTouchOnTheSameSourceKeepsItAndATouchElsewhereHidesIt() {
        var m = heldOnA()
        _ = m.run(.touchBegin(.source(hoverA), at: inA), now: at(1000))
        _ = m.run(.buttonPress(.source(hoverA)), now: at(1000))
        #expect(m.shown == hoverA)
        _ = m.run(.touchEnd, now: at(1100))
        #expect(m.run(.touchBegin(.nothing, at: Point(x: 300, y: 300)), now: at(2000)).contains(.hide))
        #expect(m.shown == nil)
    }

    @Test func aTapShowsNoHoverToolTip() {
        var m = Machine()
        _ = m.run(.touchBegin(.source(hoverA), at: inA), now: at(0))
        _ = m.run(.buttonPress(.source(hoverA)), now: at(0))
        _ = m.run(.touchEnd, now: at(120))
        _ = m.run(.buttonRelease(.source(hoverA)), now: at(120))
        #expect(m.timer == nil)
        #expect(m.run(.timer, now: at(2000)).isEmpty)
        #expect(m.shown == nil)
    }

    @Test func movingBeyondTheSlopIsNoLongPress() {
        var m = Machine()
        _ = m.run(.touchBegin(.source(hoverA), at: inA), now: at(0))
        _ = m.run(.touchMove(Point(x: inA.x + Machine.touchSlop + 1, y: inA.y)), now: at(100))
        _ = m.run(.touchMove(inA), now: at(200))
        #expect(m.run(.timer, now: at(500)).isEmpty)
        #expect(m.shown == nil)
    }

    @Test func aCancelledTouchShowsNothing() {
        var m = Machine()
        _ = m.run(.touchBegin(.source(hoverA), at: inA), now: at(0))
        _ = m.run(.touchCancel, now: at(100))
        #expect(m.run(.timer, now: at(500)).isEmpty)
        #expect(m.shown == nil)
    }

    @Test func emulatedMotionStartsNoHoverDelay() {
        var m = Machine()
        #expect(m.run(.touchPointer(.source(hoverB), at: inB), now: at(0)).isEmpty)
        #expect(m.pending == nil)
        #expect(m.run(.timer, now: at(2000)).isEmpty)
        #expect(m.shown == nil)
    }

    /// A touch never leaves a hover tooltip behind: one shown by the mouse goes at a touch
    /// elsewhere, and a delay the mouse started is cancelled.
    @Test func aTouchEndsMouseHover() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverB), at: inB), now: at(0))
        _ = m.run(.timer, now: at(500))
        #expect(m.shown == hoverB)
        #expect(m.run(.touchBegin(.nothing, at: Point(x: 300, y: 300)), now: at(600)).contains(.hide))
        var n = Machine()
        _ = n.run(.pointer(.source(hoverB), at: inB), now: at(0))
        _ = n.run(.touchBegin(.nothing, at: Point(x: 300, y: 300)), now: at(100))
        #expect(n.pending == nil)
    }

    @Test func aTapStillTogglesAClickToolTip() {
        var m = Machine()
        for (ms, expected) in [(0, true), (1000, false)] {
            _ = m.run(.touchBegin(.source(clickC), at: inA), now: at(Int64(ms)))
            _ = m.run(.buttonPress(.source(clickC)), now: at(Int64(ms)))
            _ = m.run(.touchEnd, now: at(Int64(ms) + 100))
            _ = m.run(.buttonRelease(.source(clickC)), now: at(Int64(ms) + 100))
            #expect((m.shown == clickC) == expected)
        }
    }

    @Test func aLongPressOnAnotherSourceReplacesTheTouchToolTip() {
        var m = heldOnA()
        _ = m.run(.touchBegin(.source(hoverB), at: inB), now: at(1000))
        #expect(m.shown == nil)
        _ = m.run(.timer, now: at(1500))
        #expect(m.shown == hoverB)
    }

    @Test func mouseMotionLeavesTheTouchToolTip() {
        var m = heldOnA()
        _ = m.run(.pointer(.nothing, at: Point(x: 400, y: 400)), now: at(800))
        #expect(m.shown == hoverA)
    }
}
