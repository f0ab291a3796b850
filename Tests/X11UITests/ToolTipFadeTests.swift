import Testing

@testable import X11UI

/// The fade as a pure value: its opacity over injected instants, its frames, a fade-out that
/// takes over from a fade-in, and when fades happen at all.
@Suite struct ToolTipFadeTests {
    let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)
    let frame = ToolTipFade.frameInterval

    @Test func aFadeInMapsAtTheFirstFramesOpacityAndReachesFullAt120ms() {
        let fade = ToolTipFade.appearing(at: t0)
        let first = fade.opacity(at: t0)
        #expect(abs(first - frame / ToolTipFade.standardDuration) < 1e-9, "one frame in, not 0 and not 1")
        #expect(first > 0.1 && first < 0.2)
        #expect(fade.end == t0 - frame + .milliseconds(120))
        #expect(fade.opacity(at: fade.end - .nanoseconds(1)) < 1)
        #expect(fade.opacity(at: fade.end) == 1 && fade.isFinished(at: fade.end))
        #expect(fade.opacity(at: t0 + .seconds(5)) == 1)
    }

    @Test func theOpacityRisesAtEveryFrameAndNeverFalls() {
        let fade = ToolTipFade.appearing(at: t0)
        var now = t0
        var opacities = [fade.opacity(at: now)]
        while let next = fade.nextFrame(after: now) {
            #expect(next > now)
            #expect(next - now <= frame)
            now = next
            opacities.append(fade.opacity(at: now))
        }
        #expect(now == fade.end)
        #expect(opacities.last == 1)
        #expect(zip(opacities, opacities.dropFirst()).allSatisfy { $0 < $1 })
        // About 120 ms at 60 Hz: seven frames after the map, the last one at the end.
        #expect(opacities.count == 8, "\(opacities)")
        #expect(fade.nextFrame(after: now) == nil, "no timer once finished")
    }

    @Test func aFadeOutGoesFromFullToNothingIn120ms() {
        let fade = ToolTipFade.disappearing(at: t0, after: nil)
        #expect(fade.opacity(at: t0) == 1)
        #expect(abs(fade.opacity(at: t0 + .milliseconds(60)) - 0.5) < 1e-9)
        #expect(fade.end == t0 + .milliseconds(120))
        #expect(fade.opacity(at: fade.end) == 0)
        #expect(fade.nextFrame(after: t0) == t0 + frame)
    }

    /// A hide while the tooltip fades in fades it out from where it got to, in that part of
    /// the time: no jump to full first.
    @Test func aFadeOutDuringAFadeInStartsFromTheOpacityReached() {
        let appearing = ToolTipFade.appearing(at: t0)
        let hidAt = t0 + .milliseconds(40)
        let reached = appearing.opacity(at: hidAt)
        let fade = ToolTipFade.disappearing(at: hidAt, after: appearing)
        #expect(fade.opacity(at: hidAt) == reached)
        #expect(fade.end == hidAt + .milliseconds(120) * reached)
        #expect(fade.opacity(at: hidAt + .milliseconds(1)) < reached)
        // A fade-out that is itself cut short (a show) leaves nothing behind to step.
        #expect(fade.nextFrame(after: fade.end) == nil)
    }

    @Test func theFrameTimesAreCountedFromTheStartNotFromTheLastWake() {
        let fade = ToolTipFade.disappearing(at: t0, after: nil)
        // A wake 5 ms late still aims at the next frame of the rhythm.
        #expect(fade.nextFrame(after: t0 + frame + .milliseconds(5)) == t0 + frame * 2)
    }

    @Test func theOpacityAsTheWindowPropertyHasIt() {
        #expect(ToolTipFade.cardinal(0) == 0)
        #expect(ToolTipFade.cardinal(1) == 0xffff_ffff)
        #expect(ToolTipFade.cardinal(0.5) == 0x8000_0000)
        #expect(ToolTipFade.cardinal(7) == 0xffff_ffff && ToolTipFade.cardinal(-1) == 0)
    }

    /// Only under a compositor, with animations on (or unsaid), where a fading tooltip's input
    /// region can be emptied.
    @Test(
        arguments: [
            (true, nil, true, true), (true, true, true, true), (true, false, true, false), (false, nil, true, false),
            (false, true, true, false), (true, nil, false, false),
        ] as [(Bool, Bool?, Bool, Bool)])
    func fadesHappenOnlyWhereTheyShow(composited: Bool, animations: Bool?, inputShapes: Bool, wanted: Bool) {
        #expect(
            ToolTipFade.isWanted(composited: composited, animations: animations, inputShapes: inputShapes) == wanted)
    }

    /// A zero duration is no fade: full (or nothing) at once, no frame.
    @Test func aZeroDurationIsAtOnce() {
        let fade = ToolTipFade.appearing(at: t0, duration: .zero)
        #expect(fade.opacity(at: t0) == 1 && fade.nextFrame(after: t0) == nil)
    }
}

/// Which shows fade: the first one does; one browsed to (shown within the browse timeout of
/// the last hide, counting the browse delay it waited) shows at once.
@Suite struct ToolTipBrowseEntranceTests {
    private func at(_ ms: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 7_000_000_000_000 + ms * 1_000_000)
    }
    private let a = ToolTipStateMachine.Source(
        interaction: 1, region: Rect(x: 0, y: 0, width: 50, height: 20), anchor: .pointer, timings: .standard)
    private let b = ToolTipStateMachine.Source(
        interaction: 2, region: Rect(x: 0, y: 40, width: 50, height: 20), anchor: .pointer, timings: .standard)

    @Test func theFirstTooltipFadesAndTheNextOneBrowsedToDoesNot() {
        var m = ToolTipStateMachine()
        _ = m.run(.pointer(.source(a)), now: at(0))
        #expect(m.run(.timer, now: at(500)).contains(.show(a)))
        #expect(!m.browses(a, now: at(500)), "nothing hid before: the first tooltip fades in")
        #expect(m.run(.pointer(.source(b)), now: at(900)).contains(.hide))
        #expect(m.run(.timer, now: at(960)).contains(.show(b)))
        #expect(m.browses(b, now: at(960)))
        // A pointer that reached a source just inside the timeout waits the browse delay and
        // still shows at once; a show after a long pause fades again.
        #expect(m.browses(b, now: at(900 + 500 + 60)))
        #expect(!m.browses(b, now: at(900 + 500 + 61)))
    }
}
