import Testing

@testable import X11UI

private typealias Machine = ToolTipStateMachine
private typealias Source = ToolTipStateMachine.Source

/// The instant `ms` milliseconds after an arbitrary origin (far from zero, so nothing is special about it).
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

private func timings(autoHide: Duration? = nil, initialDelay: Duration = .milliseconds(500)) -> ToolTipTimings {
    ToolTipTimings(
        initialDelay: initialDelay, browseDelay: .milliseconds(60), browseTimeout: .milliseconds(500),
        hoverGrace: .milliseconds(150), autoHide: autoHide)
}

/// Hover sources of two interactions, and a second region of the first one.
private let hoverA = source(1)
private let hoverB = source(2, region: regionB)
private let hoverA2 = source(1, region: regionB)
/// A keyboard-focus source.
private let focusF = source(5, .focus)

/// A machine whose pointer rested on `s` from 0 ms, so that its hover tooltip showed at 500 ms.
private func showingHover(_ s: Source = hoverA) -> Machine {
    var m = Machine()
    #expect(m.run(.pointer(.source(s)), now: at(0)) == [.setTimer(at(500))])
    #expect(m.run(.timer, now: at(500)) == [.ask(s), .setTimer(nil), .show(s)])
    return m
}

@Suite struct ToolTipStateMachineHoverTests {
    @Test func hoverShowsOnlyAfterTheInitialDelayOf500ms() {
        var m = Machine()
        #expect(m.run(.pointer(.source(hoverA)), now: at(0)) == [.setTimer(at(500))])
        #expect(m.run(.timer, now: at(499)) == [])
        #expect(m.shown == nil)
        #expect(m.run(.timer, now: at(500)) == [.ask(hoverA), .setTimer(nil), .show(hoverA)])
        #expect(m.shown == hoverA)
    }

    @Test func leavingBeforeTheDelayCancelsTheToolTip() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        #expect(m.run(.pointer(.nothing), now: at(300)) == [.setTimer(nil)])
        #expect(m.run(.timer, now: at(500)) == [])
        #expect(m.shown == nil && m.pending == nil)
    }

    @Test func motionInsideTheSameRegionDoesNotRestartTheDelay() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        #expect(m.run(.pointer(.source(hoverA)), now: at(200)) == [])
        #expect(m.run(.pointer(.source(hoverA)), now: at(499)) == [])
        #expect(m.run(.timer, now: at(500)) == [.ask(hoverA), .setTimer(nil), .show(hoverA)])
    }

    @Test(arguments: [hoverB, hoverA2])
    func movingToAnotherRegionRestartsTheDelay(other: ToolTipStateMachine.Source) {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        #expect(m.run(.pointer(.source(other)), now: at(300)) == [.setTimer(at(800))])
        #expect(m.run(.timer, now: at(500)) == [])
        #expect(m.run(.timer, now: at(800)) == [.ask(other), .setTimer(nil), .show(other)])
    }

    @Test func browseModeShowsTheNextToolTipAfter60ms() {
        var m = showingHover()
        #expect(m.run(.pointer(.nothing), now: at(600)) == [.setTimer(at(750))])
        #expect(m.run(.timer, now: at(750)) == [.hide, .setTimer(nil)])
        #expect(m.run(.pointer(.source(hoverB)), now: at(900)) == [.setTimer(at(960))])
        #expect(m.run(.timer, now: at(960)) == [.ask(hoverB), .setTimer(nil), .show(hoverB)])
    }

    /// Browse mode lasts 500 ms after a hide (inclusive); later the full delay applies again.
    @Test(arguments: [(0, 60), (250, 60), (500, 60), (501, 500), (5000, 500)] as [(Int64, Int64)])
    func browseModeLastsFor500msAfterAHide(sinceHide: Int64, expectedDelay: Int64) {
        var m = showingHover()
        _ = m.run(.escape, now: at(1000))  // hides at 1000
        _ = m.run(.pointer(.nothing), now: at(1000))
        let now = 1000 + sinceHide
        #expect(m.run(.pointer(.source(hoverB)), now: at(now)) == [.setTimer(at(now + expectedDelay))])
    }

    @Test func movingStraightOntoAnotherSourceHidesAndBrowses() {
        var m = showingHover()
        #expect(m.run(.pointer(.source(hoverB)), now: at(700)) == [.hide, .setTimer(at(760))])
        #expect(m.run(.timer, now: at(760)) == [.ask(hoverB), .setTimer(nil), .show(hoverB)])
    }

    @Test func perInteractionTimingsAreUsed() {
        var m = Machine()
        let slow = source(9, timings: timings(initialDelay: .seconds(2)))
        #expect(m.run(.pointer(.source(slow)), now: at(0)) == [.setTimer(at(2000))])
    }

    @Test func timingsAreClampedToSaneValues() {
        let t = ToolTipTimings(
            initialDelay: .milliseconds(-5), browseDelay: .seconds(1_000_000), browseTimeout: .zero,
            hoverGrace: .milliseconds(150), autoHide: .seconds(-1))
        #expect(t.initialDelay == .zero)
        #expect(t.browseDelay == .seconds(3600))
        #expect(t.autoHide == .zero)
        #expect(ToolTipTimings.standard.autoHide == nil)
        #expect(ToolTipTimings.standard.initialDelay == .milliseconds(500))
    }
}

@Suite struct ToolTipStateMachineHoverableTests {
    @Test func leavingTheSourceHidesAfterTheGrace() {
        var m = showingHover()
        #expect(m.run(.pointer(.nothing), now: at(1000)) == [.setTimer(at(1150))])
        #expect(m.run(.timer, now: at(1149)) == [])
        #expect(m.shown == hoverA)
        #expect(m.run(.timer, now: at(1150)) == [.hide, .setTimer(nil)])
        #expect(m.shown == nil)
    }

    @Test func reachingTheToolTipWithinTheGraceKeepsIt() {
        var m = showingHover()
        _ = m.run(.pointer(.nothing), now: at(1000))
        #expect(m.run(.pointer(.toolTip), now: at(1140)) == [.setTimer(nil)])
        #expect(m.run(.timer, now: at(1150)) == [])
        #expect(m.run(.timer, now: at(3_600_000)) == [])
        #expect(m.shown == hoverA)
    }

    @Test func leavingBothSourceAndToolTipHides() {
        var m = showingHover()
        _ = m.run(.pointer(.toolTip), now: at(1000))
        #expect(m.run(.pointer(.nothing), now: at(1300)) == [.setTimer(at(1450))])
        #expect(m.run(.timer, now: at(1450)) == [.hide, .setTimer(nil)])
    }

    @Test func returningToTheSourceCancelsTheGrace() {
        var m = showingHover()
        _ = m.run(.pointer(.nothing), now: at(1000))
        #expect(m.run(.pointer(.source(hoverA)), now: at(1100)) == [.setTimer(nil)])
        #expect(m.run(.timer, now: at(1150)) == [])
        #expect(m.shown == hoverA)
    }

    @Test func motionOutsideDoesNotExtendTheGrace() {
        var m = showingHover()
        _ = m.run(.pointer(.nothing), now: at(1000))
        #expect(m.run(.pointer(.nothing), now: at(1100)) == [])
        #expect(m.run(.timer, now: at(1150)) == [.hide, .setTimer(nil)])
    }

    @Test func noAutoExpiryByDefault() {
        var m = showingHover()
        #expect(m.timer == nil)
        #expect(m.run(.timer, now: at(3_600_000)) == [])
        #expect(m.run(.pointer(.source(hoverA)), now: at(3_600_001)) == [])
        #expect(m.shown == hoverA)
    }

    @Test func autoHideHidesAfterTheConfiguredDuration() {
        var m = Machine()
        let s = source(9, timings: timings(autoHide: .seconds(2)))
        _ = m.run(.pointer(.source(s)), now: at(0))
        #expect(m.run(.timer, now: at(500)) == [.ask(s), .setTimer(nil), .show(s), .setTimer(at(2500))])
        #expect(m.run(.timer, now: at(2499)) == [])
        #expect(m.run(.timer, now: at(2500)) == [.hide, .setTimer(nil)])
    }

    @Test func theTimerIsTheEarliestOfGraceAndAutoHide() {
        var m = Machine()
        let short = source(9, timings: timings(autoHide: .milliseconds(300)))
        _ = m.run(.pointer(.source(short)), now: at(0))
        #expect(m.run(.timer, now: at(500)) == [.ask(short), .setTimer(nil), .show(short), .setTimer(at(800))])
        // The grace (850) ends after the auto-hide (800): the timer stays.
        #expect(m.run(.pointer(.nothing), now: at(700)) == [])
        #expect(m.run(.timer, now: at(800)) == [.hide, .setTimer(nil)])

        var n = Machine()
        let long = source(9, timings: timings(autoHide: .seconds(2)))
        _ = n.run(.pointer(.source(long)), now: at(0))
        _ = n.run(.timer, now: at(500))
        #expect(n.run(.pointer(.nothing), now: at(700)) == [.setTimer(at(850))])
        #expect(n.run(.pointer(.toolTip), now: at(800)) == [.setTimer(at(2500))])
    }
}

@Suite struct ToolTipStateMachineDismissTests {
    @Test func escapeHidesWithoutMovingThePointer() {
        var m = showingHover()
        #expect(m.run(.escape, now: at(1000)) == [.hide])
        #expect(m.shown == nil)
    }

    @Test func escapeSuppressesUntilThePointerLeavesTheRegion() {
        var m = showingHover()
        _ = m.run(.escape, now: at(1000))
        #expect(m.run(.pointer(.source(hoverA)), now: at(1100)) == [])
        #expect(m.run(.pointer(.source(hoverA)), now: at(1900)) == [])
        #expect(m.run(.timer, now: at(2000)) == [])
        #expect(m.run(.pointer(.nothing), now: at(2100)) == [])
        #expect(m.run(.pointer(.source(hoverA)), now: at(2200)) == [.setTimer(at(2700))])
        #expect(m.run(.timer, now: at(2700)) == [.ask(hoverA), .setTimer(nil), .show(hoverA)])
    }

    @Test func escapeCancelsAPendingToolTipAndSuppressesIt() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        #expect(m.run(.escape, now: at(200)) == [.setTimer(nil)])
        #expect(m.run(.pointer(.source(hoverA)), now: at(300)) == [])
        #expect(m.run(.timer, now: at(500)) == [])
        #expect(m.shown == nil)
    }

    @Test func escapeWithNothingShownChangesNothing() {
        var m = Machine()
        #expect(m.run(.escape, now: at(0)) == [])
        #expect(m == Machine())
    }

    /// Spec 5: Escape dismisses "without moving the pointer"; the dismissed tooltip must not come
    /// back while the pointer stays in its region, even if another (focus) tooltip was pending.
    @Test func escapeSuppressionSurvivesAPendingFocusToolTip() {
        var m = showingHover()
        #expect(m.run(.focus(focusF), now: at(600)) == [.setTimer(at(1100))])
        #expect(m.run(.escape, now: at(700)) == [.hide, .setTimer(nil)])
        // A small motion inside the dismissed region.
        #expect(m.run(.pointer(.source(hoverA)), now: at(800)) == [])
        #expect(m.pending == nil)
    }

    @Test func aPressInTheSourceHidesAndSuppressesUntilTheNextMotion() {
        var m = showingHover()
        #expect(m.run(.buttonPress(.source(hoverA)), now: at(1000)) == [.hide])
        #expect(m.run(.buttonRelease(.source(hoverA)), now: at(1100)) == [])
        #expect(m.run(.timer, now: at(2000)) == [])
        #expect(m.shown == nil && m.pending == nil)
        // The next motion, even inside the same region, lifts the suppression.
        #expect(m.run(.pointer(.source(hoverA)), now: at(2100)) == [.setTimer(at(2600))])
        #expect(m.run(.timer, now: at(2600)) == [.ask(hoverA), .setTimer(nil), .show(hoverA)])
    }

    @Test func aPressWhilePendingCancelsTheToolTip() {
        var m = Machine()
        _ = m.run(.pointer(.source(hoverA)), now: at(0))
        #expect(m.run(.buttonPress(.source(hoverA)), now: at(200)) == [.setTimer(nil)])
        #expect(m.run(.timer, now: at(500)) == [])
        #expect(m.run(.pointer(.source(hoverA)), now: at(600)) == [.setTimer(at(1100))])
    }

    /// No swallowed clicks: a press on a hover tooltip hides it (the press goes on to the view
    /// beneath), and the release that follows shows nothing again.
    @Test func aPressOnTheHoverToolTipItselfHidesIt() {
        var m = showingHover()
        #expect(m.run(.pointer(.toolTip), now: at(600)) == [])
        #expect(m.run(.buttonPress(.toolTip), now: at(700)) == [.hide])
        #expect(m.run(.buttonRelease(.toolTip), now: at(750)) == [])
        #expect(m.shown == nil)
    }
}
