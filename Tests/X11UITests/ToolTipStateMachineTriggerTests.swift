import Testing

@testable import X11UI

// Keyboard, click, one-at-a-time and lifecycle rules of `ToolTipStateMachine` (spec section 5).

private typealias Machine = ToolTipStateMachine
private typealias Source = ToolTipStateMachine.Source

private func at(_ ms: Int64) -> MonotonicInstant {
    MonotonicInstant(nanoseconds: 7_000_000_000_000 + ms * 1_000_000)
}

private let regionA = Rect(x: 10, y: 10, width: 100, height: 30)
private let regionB = Rect(x: 10, y: 50, width: 100, height: 30)

private func source(
    _ id: UInt64, _ anchor: Machine.Anchor = .pointer, region: Rect = regionA, timings: ToolTipTimings = .standard
) -> Source {
    Source(interaction: id, region: region, anchor: anchor, timings: timings)
}

private let hoverA = source(1)
private let hoverB = source(2, region: regionB)
private let clickC = source(3, .click)
private let clickD = source(4, .click, region: regionB)
private let focusF = source(5, .focus)
private let focusG = source(6, .focus, region: regionB)

private func showingHover(_ s: Source = hoverA) -> Machine {
    var m = Machine()
    #expect(m.run(.pointer(.source(s)), now: at(0)) == [.setTimer(at(500))])
    #expect(m.run(.timer, now: at(500)) == [.ask(s), .setTimer(nil), .show(s)])
    return m
}

private func showingClick(_ s: Source = clickC) -> Machine {
    var m = Machine()
    #expect(m.run(.buttonPress(.source(s)), now: at(0)) == [])
    #expect(m.run(.buttonRelease(.source(s)), now: at(0)) == [.ask(s), .show(s)])
    return m
}

private func showingFocus(_ s: Source = focusF) -> Machine {
    var m = Machine()
    #expect(m.run(.focus(s), now: at(0)) == [.setTimer(at(500))])
    #expect(m.run(.timer, now: at(500)) == [.ask(s), .setTimer(nil), .show(s)])
    return m
}

@Suite struct ToolTipStateMachineKeyboardTests {
    @Test func keyboardFocusShowsAfterTheDelay() {
        var m = Machine()
        #expect(m.run(.focus(focusF), now: at(0)) == [.setTimer(at(500))])
        #expect(m.run(.timer, now: at(499)) == [])
        #expect(m.run(.timer, now: at(500)) == [.ask(focusF), .setTimer(nil), .show(focusF)])
    }

    @Test func focusLeavingBeforeTheDelayCancels() {
        var m = Machine()
        _ = m.run(.focus(focusF), now: at(0))
        #expect(m.run(.focus(nil), now: at(200)) == [.setTimer(nil)])
        #expect(m.run(.timer, now: at(500)) == [])
        #expect(m.shown == nil)
    }

    @Test func movingFocusAwayHidesTheFocusToolTip() {
        var m = showingFocus()
        #expect(m.run(.focus(nil), now: at(1000)) == [.hide])
        #expect(m.shown == nil)
    }

    @Test func movingFocusToAnotherViewHidesAndShowsItsToolTip() {
        var m = showingFocus()
        #expect(m.run(.focus(focusG), now: at(1000)) == [.hide, .setTimer(at(1060))])
        #expect(m.run(.timer, now: at(1060)) == [.ask(focusG), .setTimer(nil), .show(focusG)])
    }

    @Test func escapeHidesTheFocusToolTip() {
        var m = showingFocus()
        #expect(m.run(.escape, now: at(1000)) == [.hide])
        #expect(m.run(.timer, now: at(5000)) == [])
        #expect(m.shown == nil)
    }

    @Test func pointerMotionDoesNotHideAFocusToolTip() {
        var m = showingFocus()
        #expect(m.run(.pointer(.nothing), now: at(1000)) == [])
        #expect(m.run(.pointer(.toolTip), now: at(1100)) == [])
        #expect(m.run(.pointer(.nothing), now: at(1200)) == [])
        #expect(m.run(.timer, now: at(60_000)) == [])
        #expect(m.shown == focusF)
    }

    @Test func focusFromTheMouseShowsNothing() {
        var m = Machine()
        #expect(m.run(.focus(nil), now: at(0)) == [])
        #expect(m.run(.timer, now: at(1000)) == [])
        #expect(m.shown == nil)
    }
}

@Suite struct ToolTipStateMachineClickTests {
    @Test func clickTogglesTheToolTipOnRelease() {
        var m = Machine()
        #expect(m.run(.buttonPress(.source(clickC)), now: at(0)) == [])
        #expect(m.shown == nil)
        #expect(m.run(.buttonRelease(.source(clickC)), now: at(80)) == [.ask(clickC), .show(clickC)])
        #expect(m.shown == clickC)
        #expect(m.run(.buttonPress(.source(clickC)), now: at(1000)) == [])
        #expect(m.shown == clickC)
        #expect(m.run(.buttonRelease(.source(clickC)), now: at(1080)) == [.hide])
        #expect(m.shown == nil)
    }

    @Test func hoveringAClickSourceShowsNothing() {
        var m = Machine()
        #expect(m.run(.pointer(.source(clickC)), now: at(0)) == [])
        #expect(m.run(.timer, now: at(5000)) == [])
        #expect(m.shown == nil)
    }

    @Test(arguments: [
        (ToolTipStateMachine.Target.nothing, ToolTipStateMachine.Target.source(clickC)),
        (.source(clickC), .nothing),
        (.source(clickC), .source(clickD)),
        (.source(clickD), .source(clickC)),
        (.toolTip, .source(clickC)),
    ])
    func releaseTogglesOnlyWhenThePressWasOnTheSameSource(
        press: ToolTipStateMachine.Target, release: ToolTipStateMachine.Target
    ) {
        var m = Machine()
        _ = m.run(.buttonPress(press), now: at(0))
        #expect(m.run(.buttonRelease(release), now: at(50)) == [])
        #expect(m.shown == nil)
    }

    @Test func aReleaseWithoutAnyPressDoesNothing() {
        var m = Machine()
        #expect(m.run(.buttonRelease(.source(clickC)), now: at(0)) == [])
        #expect(m.shown == nil)
    }

    @Test func aPressOutsideTheClickToolTipHidesIt() {
        var m = showingClick()
        #expect(m.run(.buttonPress(.nothing), now: at(1000)) == [.hide])
        #expect(m.run(.buttonRelease(.nothing), now: at(1050)) == [])
        #expect(m.shown == nil)
    }

    @Test func aPressOnAHoverSourceHidesTheClickToolTip() {
        var m = showingClick()
        #expect(m.run(.buttonPress(.source(hoverA)), now: at(1000)) == [.hide])
        #expect(m.shown == nil)
    }

    @Test func aClickOnTheClickToolTipItselfKeepsIt() {
        var m = showingClick()
        #expect(m.run(.buttonPress(.toolTip), now: at(1000)) == [])
        #expect(m.run(.buttonRelease(.toolTip), now: at(1050)) == [])
        #expect(m.shown == clickC)
    }

    @Test func aClickToolTipStaysWhenThePointerLeaves() {
        var m = showingClick()
        #expect(m.run(.pointer(.nothing), now: at(1000)) == [])
        #expect(m.run(.timer, now: at(3_600_000)) == [])
        #expect(m.shown == clickC)
    }

    @Test func clickingAnotherClickSourceSwitchesToIt() {
        var m = showingClick()
        #expect(m.run(.buttonPress(.source(clickD)), now: at(1000)) == [.hide])
        #expect(m.run(.buttonRelease(.source(clickD)), now: at(1050)) == [.ask(clickD), .show(clickD)])
        #expect(m.shown == clickD)
    }

    @Test func escapeHidesAClickToolTipAndAClickShowsItAgain() {
        var m = showingClick()
        #expect(m.run(.escape, now: at(1000)) == [.hide])
        _ = m.run(.buttonPress(.source(clickC)), now: at(2000))
        #expect(m.run(.buttonRelease(.source(clickC)), now: at(2050)) == [.ask(clickC), .show(clickC)])
    }
}

@Suite struct ToolTipStateMachineOneAtATimeTests {
    @Test func aHoverToolTipReplacesAClickToolTip() {
        var m = showingClick()
        #expect(m.run(.pointer(.source(hoverA)), now: at(1000)) == [.setTimer(at(1500))])
        let effects = m.run(.timer, now: at(1500))
        #expect(effects.contains(.show(hoverA)))
        #expect(m.shown == hoverA)
    }

    @Test func aClickToolTipReplacesAHoverToolTip() {
        var m = showingHover()
        #expect(m.run(.buttonPress(.source(clickC)), now: at(1000)) == [.hide])
        #expect(m.run(.buttonRelease(.source(clickC)), now: at(1050)) == [.ask(clickC), .show(clickC)])
        #expect(m.shown == clickC)
    }

    @Test func aFocusToolTipReplacesAHoverToolTip() {
        var m = showingHover()
        #expect(m.run(.focus(focusF), now: at(1000)) == [.setTimer(at(1500))])
        #expect(m.run(.timer, now: at(1500)).contains(.show(focusF)))
        #expect(m.shown == focusF)
    }

    /// Spec 5: a hover tooltip shows after the pointer *rests in* its source for the delay. Here
    /// the pointer crossed a hover source and came to rest on the shown click tooltip's window.
    @Test func aPendingHoverToolTipIsCancelledWhenThePointerRestsOnAnotherToolTip() {
        var m = showingClick()
        _ = m.run(.pointer(.source(hoverA)), now: at(1000))
        _ = m.run(.pointer(.toolTip), now: at(1100))
        #expect(m.run(.timer, now: at(1500)) == [])
        #expect(m.shown == clickC)
    }
}

@Suite struct ToolTipStateMachineLifecycleTests {
    @Test func sourceGoneHidesItsToolTip() {
        var m = showingHover()
        #expect(m.run(.sourceGone(hoverA.interaction), now: at(1000)) == [.hide])
        #expect(m.shown == nil)
        #expect(m.pointer == .nothing)
    }

    @Test func sourceGoneCancelsItsPendingToolTip() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        #expect(m.run(.sourceGone(hoverA.interaction), now: at(100)) == [.setTimer(nil)])
        #expect(m.run(.timer, now: at(500)) == [])
        #expect(m.shown == nil)
    }

    @Test func sourceGoneOfAnotherInteractionChangesNothing() {
        var m = showingHover()
        let before = m
        #expect(m.run(.sourceGone(hoverB.interaction), now: at(1000)) == [])
        #expect(m == before)
    }

    @Test func dismissAllHidesAndCancelsEverything() {
        var m = showingHover()
        #expect(m.run(.dismissAll, now: at(1000)) == [.hide])
        #expect(m.shown == nil)

        var n = Machine()
        _ = n.run(.focus(focusF), now: at(0))
        #expect(n.run(.dismissAll, now: at(100)) == [.setTimer(nil)])
        #expect(n.run(.timer, now: at(500)) == [])
    }

    @Test func invalidateUpdatesOnlyTheShownToolTipInPlace() {
        var m = showingHover()
        #expect(m.run(.invalidate(hoverA.interaction), now: at(1000)) == [.reask(hoverA), .update(hoverA)])
        #expect(m.run(.invalidate(hoverB.interaction), now: at(1000)) == [])
        #expect(m.shown == hoverA)

        var pending = Machine()
        _ = pending.run(.pointer(.source(hoverA)), now: at(0))
        #expect(pending.run(.invalidate(hoverA.interaction), now: at(100)) == [])
        #expect(pending.timer == at(500))
    }

    @Test func invalidateRestartsNoTimer() {
        var m = Machine()
        let s = source(9, timings: ToolTipTimings.standard.withAutoHide(.seconds(2)))
        _ = m.run(.pointer(.source(s)), now: at(0))
        _ = m.run(.timer, now: at(500))
        _ = m.run(.pointer(.nothing), now: at(700))  // grace until 850
        #expect(m.run(.invalidate(s.interaction), now: at(800)) == [.reask(s), .update(s)])
        #expect(m.timer == at(850))
        #expect(m.run(.timer, now: at(850)) == [.hide, .setTimer(nil)])
    }

    @Test func anEmptyAnswerToAnUpdateHides() {
        var m = showingHover()
        #expect(m.reduce(.invalidate(hoverA.interaction), now: at(600)) == [.reask(hoverA)])
        #expect(m.reduce(.answer(.none), now: at(600)) == [.hide])
        #expect(m.shown == nil && m.lastHidden == at(600))
    }

    @Test func anAnswerWithAnotherRegionMovesTheShownRegion() {
        var m = Machine()
        _ = m.reduce(.pointer(.source(hoverA)), now: at(0))
        #expect(m.reduce(.timer, now: at(500)) == [.ask(hoverA), .setTimer(nil)])
        #expect(m.reduce(.answer(.content(region: regionB)), now: at(500)) == [.show(hoverA.moved(to: regionB))])
        let moved = hoverA.moved(to: regionB)
        #expect(m.shown == moved)
        #expect(m.pointer == .source(moved))
        // Motion inside the new region is motion inside the shown source: no hide, no grace.
        #expect(m.reduce(.pointer(.source(moved)), now: at(600)) == [])
        #expect(m.shown == moved && m.graceDeadline == nil && m.pending == nil)
    }

    @Test func aKeyboardToolTipStaysAtItsViewWhateverRegionIsAnswered() {
        var m = Machine()
        _ = m.reduce(.focus(focusF), now: at(0))
        _ = m.reduce(.timer, now: at(500))
        #expect(m.reduce(.answer(.content(region: regionB)), now: at(500)) == [.show(focusF)])
    }

    @Test func anAnswerWithNoQuestionOpenChangesNothing() {
        var m = Machine()
        _ = m.reduce(.pointer(.source(hoverA)), now: at(0))
        let before = m
        #expect(m.reduce(.answer(.content(region: regionB)), now: at(100)) == [])
        #expect(m.reduce(.answer(.none), now: at(100)) == [])
        #expect(m == before)
    }
}

extension ToolTipStateMachine.Source {
    fileprivate func moved(to region: Rect) -> Self {
        var copy = self
        copy.region = region
        return copy
    }
}

extension ToolTipTimings {
    fileprivate func withAutoHide(_ duration: Duration) -> ToolTipTimings {
        var copy = self
        copy.autoHide = duration
        return copy
    }
}
