/// A tooltip's fade in or out: its opacity over time, as a pure value on instants given to it
/// (the driver is ToolTipPresenter+Fade.swift; tests give it a virtual clock).
///
/// The opacity moves linearly at one whole fade (0 to 1) per ``duration``. A fade-out that
/// starts while a fade-in is under way starts from the opacity reached, and takes that part
/// of the duration: it never jumps.
struct ToolTipFade: Hashable, Sendable {
    /// Which way the opacity goes.
    enum Direction: Hashable, Sendable {
        /// To 1: the tooltip appears.
        case appearing
        /// To 0: the tooltip goes (it is hidden already for everything but the eye).
        case disappearing
    }

    var direction: Direction
    /// When the opacity was `from`.
    var start: MonotonicInstant
    var from: Double
    /// How long a whole fade takes.
    var duration: Duration

    /// About 120 ms, as macOS, GTK and Windows fade tooltips.
    static let standardDuration: Duration = .milliseconds(120)
    /// One frame at 60 Hz: the opacity changes at most this often.
    static let frameInterval: Duration = .nanoseconds(16_666_667)

    /// Whether tooltips fade at all: under a compositor (without one the opacity means
    /// nothing), with the desktop's animations on (`Net/EnableAnimations`; on when it did not
    /// say), and where the window's input region can be emptied (the Shape extension), so
    /// that a tooltip fading out takes no clicks; not where the compositor fades tooltip
    /// windows itself (``CompositorFades``), which would make two fades of one.
    static func isWanted(composited: Bool, animations: Bool?, inputShapes: Bool, compositorFades: Bool = false) -> Bool
    {
        composited && (animations ?? true) && inputShapes && !compositorFades
    }

    /// A fade-in for a tooltip mapped `now`. It began one frame earlier: the window maps at
    /// the first frame's opacity (what the eye sees first is already a little of the tooltip,
    /// never the whole of it then less).
    static func appearing(at now: MonotonicInstant, duration: Duration = standardDuration) -> ToolTipFade {
        ToolTipFade(
            direction: .appearing, start: now - min(frameInterval, duration), from: 0, duration: duration)
    }

    /// A fade-out from the opacity the tooltip has `now`: `current`'s when a fade is under way,
    /// else full.
    static func disappearing(
        at now: MonotonicInstant, after current: ToolTipFade?, duration: Duration = standardDuration
    ) -> ToolTipFade {
        ToolTipFade(
            direction: .disappearing, start: now, from: current?.opacity(at: now) ?? 1, duration: duration)
    }

    /// The opacity the fade ends at.
    var target: Double { direction == .appearing ? 1 : 0 }

    /// When the opacity reaches `target`.
    var end: MonotonicInstant { start + duration * abs(target - from) }

    /// The opacity at `now`, from 0 to 1.
    func opacity(at now: MonotonicInstant) -> Double {
        guard duration > .zero, now < end else { return target }
        let elapsed = max(0, (now - start) / duration)
        let moved = direction == .appearing ? from + elapsed : from - elapsed
        return min(1, max(0, moved))
    }

    /// Whether the opacity reached `target` by `now`.
    func isFinished(at now: MonotonicInstant) -> Bool { now >= end }

    /// When the opacity changes next after `now`: the next frame (counted from the start), the
    /// end at the latest; nil once finished.
    func nextFrame(after now: MonotonicInstant) -> MonotonicInstant? {
        guard now < end else { return nil }
        let frames = max(0, ((now - start) / Self.frameInterval).rounded(.down)) + 1
        return min(start + Self.frameInterval * frames, end)
    }

    /// The opacity as `_NET_WM_WINDOW_OPACITY` has it: 0 to 0xFFFFFFFF.
    static func cardinal(_ opacity: Double) -> Int {
        Int((min(1, max(0, opacity)) * Double(UInt32.max)).rounded())
    }
}
