import Testing

@testable import X11UI
@testable import X11UICore

// The rules issue 12.8 moved into the state machine: the delegate asked before a show, a phase
// that says what is on the screen, re-entrant updates, the keyboard toggletip, and the
// controller's old special cases (click sources on hover, Escape, mouse focus).

private typealias Machine = ToolTipStateMachine
private typealias Source = ToolTipStateMachine.Source

private func at(_ ms: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 5_000_000_000_000 + ms * 1_000_000)
}

private let regionA = Rect(x: 10, y: 10, width: 100, height: 30)
private let regionB = Rect(x: 10, y: 50, width: 100, height: 30)
private let hoverA = Source(interaction: 1, region: regionA, anchor: .pointer, timings: .standard)
private let hoverB = Source(interaction: 2, region: regionB, anchor: .pointer, timings: .standard)
private let clickC = Source(interaction: 3, region: regionA, anchor: .click, timings: .standard)
private let clickD = Source(interaction: 4, region: regionB, anchor: .click, timings: .standard)
private let focusF = Source(interaction: 5, region: regionA, anchor: .focus, timings: .standard)

@Suite struct ToolTipStateMachineAskingTests {
    @Test func theDelegateIsAskedBeforeAnythingShows() {
        var m = Machine()
        _ = m.reduce(.pointer(.source(hoverA)), now: at(0))
        #expect(m.reduce(.timer, now: at(500)) == [.ask(hoverA), .setTimer(nil)])
        #expect(m.shown == nil)
        #expect(m.phase == .asking(Machine.Question(source: hoverA, isUpdate: false, current: nil)))
        #expect(m.reduce(.answer(.content(region: regionA)), now: at(500)) == [.show(hoverA)])
        #expect(m.phase == .showing(Machine.Showing(source: hoverA, since: at(500))))
    }

    /// A nil answer is no tooltip: nothing hides, and browse mode does not start.
    @Test func aNilAnswerNeverEntersBrowseMode() {
        var m = Machine()
        _ = m.reduce(.pointer(.source(hoverA)), now: at(0))
        _ = m.reduce(.timer, now: at(500))
        #expect(m.reduce(.answer(.none), now: at(500)) == [])
        #expect(m.lastHidden == nil && m.phase == .idle)
        // The next source waits the full delay, not the browse delay.
        #expect(m.reduce(.pointer(.source(hoverB)), now: at(600)) == [.setTimer(at(1100))])
    }

    @Test func aNilAnswerForAReplacementHidesTheOldToolTip() {
        var m = Machine()
        _ = m.run(.buttonPress(.source(clickC)), now: at(0))
        _ = m.run(.buttonRelease(.source(clickC)), now: at(0))
        _ = m.reduce(.focus(focusF), now: at(100))
        #expect(m.reduce(.timer, now: at(600)) == [.ask(focusF), .setTimer(nil)])
        #expect(m.shown == clickC)  // still on the screen while the delegate answers
        #expect(m.reduce(.answer(.none), now: at(600)) == [.hide])
        #expect(m.shown == nil && m.lastHidden == at(600))
    }

    /// Issue 13.8: a delegate that closes its window, the application, or removes its view while
    /// answering gets no tooltip: what it caused arrives before its answer and withdraws the
    /// question.
    @Test(arguments: [ToolTipStateMachine.Input.dismissAll, .sourceGone(1), .dismiss(1), .escape, .focus(nil)])
    func whatTheDelegateDoesWhileAnsweringWithdrawsTheQuestion(_ input: ToolTipStateMachine.Input) {
        var m = Machine()
        _ = m.reduce(.pointer(.source(hoverA)), now: at(0))
        _ = m.reduce(.timer, now: at(500))
        _ = m.reduce(input, now: at(500))
        #expect(m.question == nil)
        #expect(m.reduce(.answer(.content(region: regionA)), now: at(500)) == [])
        #expect(m.shown == nil && m.lastHidden == nil)
    }

    /// Issue 13.1: `setNeedsUpdate()` inside the delegate's answer is served once, after.
    @Test func anUpdateAskedForWhileAnsweringIsServedOnceAfter() {
        var m = Machine()
        _ = m.reduce(.pointer(.source(hoverA)), now: at(0))
        _ = m.reduce(.timer, now: at(500))
        #expect(m.reduce(.invalidate(hoverA.interaction), now: at(500)) == [])
        #expect(m.reduce(.answer(.content(region: regionA)), now: at(500)) == [.show(hoverA), .reask(hoverA)])
        // The delegate asks again while answering that: dropped, so it cannot loop.
        #expect(m.reduce(.invalidate(hoverA.interaction), now: at(500)) == [])
        #expect(m.reduce(.answer(.content(region: regionA)), now: at(500)) == [.update(hoverA)])
        #expect(m.phase == .showing(Machine.Showing(source: hoverA, since: at(500))))
        // A later, separate request is served again.
        #expect(m.reduce(.invalidate(hoverA.interaction), now: at(900)) == [.reask(hoverA)])
    }

    @Test func anUnchangedAnswerToAnUpdateRepaintsNothing() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        _ = m.run(.timer, now: at(500))
        _ = m.reduce(.invalidate(hoverA.interaction), now: at(600))
        #expect(m.reduce(.answer(.content(region: regionA, unchanged: true)), now: at(600)) == [])
        // The same content for a new region still moves it.
        _ = m.reduce(.invalidate(hoverA.interaction), now: at(700))
        var moved = hoverA
        moved.region = regionB
        #expect(m.reduce(.answer(.content(region: regionB, unchanged: true)), now: at(700)) == [.update(moved)])
    }

    @Test func theShowingPhaseRemembersWhenAndWhere() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        _ = m.run(.timer, now: at(500))
        _ = m.reduce(.placed(Rect(x: 0, y: 44, width: 80, height: 30)), now: at(501))
        var expected = Machine.Showing(source: hoverA, since: at(500))
        expected.frame = Rect(x: 0, y: 44, width: 80, height: 30)
        #expect(m.showing == expected)
        // Two machines that differ only in when the tooltip showed are not equal.
        var n = Machine()
        _ = n.run(.pointer(.source(hoverA)), now: at(0))
        _ = n.run(.timer, now: at(501))
        _ = n.reduce(.placed(Rect(x: 0, y: 44, width: 80, height: 30)), now: at(501))
        #expect(m != n)
    }

    @Test func suppressionsThatLiftDifferentlyAreDifferentStates() {
        var escaped = Machine()
        _ = escaped.run(.pointer(.source(hoverA)), now: at(0))
        _ = escaped.run(.timer, now: at(500))
        var pressed = escaped
        _ = escaped.reduce(.escape, now: at(600))
        _ = pressed.reduce(.buttonPress(.source(hoverA)), now: at(600))
        _ = pressed.reduce(.buttonRelease(.source(hoverA)), now: at(600))
        #expect(escaped.suppressed?.source == pressed.suppressed?.source)
        #expect(escaped != pressed)
    }
}

@Suite struct ToolTipStateMachineControllerRulesTests {
    @Test func escapeDismissesOnlyWhenSomethingIsShown() {
        var m = Machine()
        #expect(!m.escapeDismisses)
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        #expect(!m.escapeDismisses)  // pending: Escape cancels it, but the key is not used up
        _ = m.run(.timer, now: at(500))
        #expect(m.escapeDismisses)
    }

    @Test func focusFromTheMouseIsIgnored() {
        var m = Machine()
        #expect(m.reduce(.focus(focusF, byKeyboard: false), now: at(0)) == [])
        #expect(m.pending == nil)
        #expect(m.reduce(.focus(focusF, byKeyboard: true), now: at(0)) == [.setTimer(at(500))])
    }

    @Test func hoveringAClickSourceIsHoveringNothing() {
        var m = Machine()
        #expect(m.reduce(.pointer(.source(clickC)), now: at(0)) == [])
        #expect(m.pointer == .nothing)
    }
}

@Suite struct ToolTipStateMachineToggletipTests {
    @Test func spaceOrReturnTogglesAClickToolTipAtOnce() {
        var m = Machine()
        #expect(m.run(.activate(clickC), now: at(0)) == [.ask(clickC), .show(clickC)])
        #expect(m.shown == clickC)
        #expect(m.run(.activate(clickC), now: at(100)) == [.hide])
        #expect(m.shown == nil)
    }

    @Test func escapeClosesAToggletip() {
        var m = Machine()
        _ = m.run(.activate(clickC), now: at(0))
        #expect(m.escapeDismisses)
        #expect(m.run(.escape, now: at(100)) == [.hide])
        #expect(m.run(.activate(clickC), now: at(200)) == [.ask(clickC), .show(clickC)])
    }

    @Test func activatingAnotherToggletipReplacesTheShownOne() {
        var m = Machine()
        _ = m.run(.activate(clickC), now: at(0))
        #expect(m.run(.activate(clickD), now: at(100)) == [.ask(clickD), .show(clickD)])
        #expect(m.shown == clickD)
    }

    @Test func aToggletipReplacesAHoverToolTipAndCancelsAPendingOne() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        _ = m.run(.timer, now: at(500))
        _ = m.run(.pointer(.source(hoverB)), now: at(600))  // hides, browses to B
        #expect(m.run(.activate(clickC), now: at(610)) == [.ask(clickC), .setTimer(nil), .show(clickC)])
        #expect(m.pending == nil)
    }
}
