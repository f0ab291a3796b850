/// Touch: a finger has no hover, so a press held still on a source (a long press, as in GTK
/// and Android) shows its hover tooltip, which stays until a touch elsewhere. A tap shows no
/// hover tooltip (a click tooltip still toggles on the emulated press and release), and the
/// pointer motion emulated from a touch never starts one.
extension ToolTipStateMachine {
    /// How long a finger rests before its source's hover tooltip shows (GTK's and Android's
    /// long press).
    package static let touchHold: Duration = .milliseconds(500)
    /// How far (pixels, either axis) a finger may drift and still be held (GTK's drag threshold
    /// and Android's touch slop): farther is a drag or a scroll, never a long press.
    package static let touchSlop: Double = 8

    /// A finger on the screen.
    package struct Touch: Hashable, Sendable {
        /// The hover source it went down on (nil: none, or its tooltip already shows).
        package var source: Source?
        /// Where it went down (root coordinates).
        package var start: Point
        /// When a finger held still shows the tooltip (nil: it moved away, or it showed).
        package var holdDeadline: MonotonicInstant?
    }

    mutating func touchBegan(on target: Target, at location: Point, now: MonotonicInstant, _ effects: inout [Effect]) {
        if pending?.source.anchor == .pointer { pending = nil }
        suppressed = nil
        if let current = shown {
            let onOwnSource = target.source?.isSamePlace(as: current) ?? false
            let onClickToolTip = target == .toolTip && current.anchor == .click
            // A touch elsewhere hides what shows; a click tooltip's own toggle is left to the
            // emulated press and release.
            if !onOwnSource && !onClickToolTip { hide(now: now, &effects) }
        }
        var source: Source?
        if let s = target.source, s.anchor == .pointer, !s.isSamePlace(as: shown) { source = s }
        touch = Touch(
            source: source, start: location,
            holdDeadline: source == nil || !location.isFinite ? nil : now + Self.touchHold)
    }

    mutating func touchMoved(to location: Point) {
        guard var t = touch else { return }
        let drift = max(abs(location.x - t.start.x), abs(location.y - t.start.y))
        if !location.isFinite || drift > Self.touchSlop { t.holdDeadline = nil }
        touch = t
    }

    /// The finger lifted (a tap when it lifted before the hold): nothing pending from it stays.
    mutating func touchEnded() {
        touch = nil
        if pending?.source.anchor == .pointer { pending = nil }
    }

    /// Emulated pointer motion: the pointer's place is kept for later mouse motion, but no
    /// delay starts and a shown tooltip stays.
    mutating func touchPointerMoved(to target: Target, at location: Point?) {
        pointer = target.source?.anchor == .click ? .nothing : target
        if let location, location.isFinite { pointerLocation = location }
        if pending?.source.anchor == .pointer { pending = nil }
    }

    mutating func touchTimerFired(now: MonotonicInstant, _ effects: inout [Effect]) {
        guard var t = touch, let deadline = t.holdDeadline, deadline <= now, let source = t.source else { return }
        t.holdDeadline = nil
        touch = t
        if case .asking = phase { return }  // something else fired at the same instant
        phase = .asking(Question(source: source, isUpdate: false, current: showing, byTouch: true))
        effects.append(.ask(source))
    }
}
