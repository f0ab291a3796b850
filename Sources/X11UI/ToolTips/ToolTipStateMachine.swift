/// The tooltip logic as a pure function: `(state, input, now) -> (state, effects)`.
///
/// It knows nothing of X, views or delegates. A driver (`ToolTipController`) turns events into
/// inputs, and effects into popups and timers. Every rule of the behaviour contract lives here
/// and is tested with an injected clock.
struct ToolTipStateMachine: Equatable {
    /// What shows a tooltip: hovering it, clicking it, or focusing it from the keyboard.
    enum Anchor: Hashable, Sendable {
        case pointer, click, focus
    }

    /// A place that has a tooltip: one interaction, one region of it (root coordinates).
    struct Source: Hashable, Sendable {
        var interaction: UInt64
        var region: Rect
        var anchor: Anchor
        var timings: ToolTipTimings

        /// Whether two sources are the same place (timings aside).
        func isSamePlace(as other: Source?) -> Bool {
            guard let other else { return false }
            return interaction == other.interaction && region == other.region && anchor == other.anchor
        }
    }

    /// What the pointer is over.
    enum Target: Hashable, Sendable {
        case nothing
        /// The tooltip window itself.
        case toolTip
        /// A region with a tooltip (hover or click).
        case source(Source)

        var source: Source? {
            if case .source(let s) = self { return s }
            return nil
        }
    }

    enum Input: Hashable, Sendable {
        /// The pointer moved; what is under it now.
        case pointer(Target)
        /// A button went down (scroll included) over `target`.
        case buttonPress(Target)
        /// A button went up over `target`.
        case buttonRelease(Target)
        /// Escape was pressed.
        case escape
        /// Keyboard focus moved: to a source when by keyboard onto a view with a tooltip, nil
        /// otherwise (focus left, or moved by mouse).
        case focus(Source?)
        /// The program asked for this tooltip now (`ToolTipInteraction.present()`).
        case present(Source)
        /// The program asked this interaction's tooltip to go (`ToolTipInteraction.dismiss()`).
        case dismiss(UInt64)
        /// The timer set by the last `.setTimer` fired.
        case timer
        /// The interaction's view went away, hid, or the interaction was disabled.
        case sourceGone(UInt64)
        /// The window lost focus or was unmapped: hide everything.
        case dismissAll
        /// The source's content changed (`setNeedsUpdate()`).
        case invalidate(UInt64)
        /// At show or update time the delegate answered nil.
        case contentUnavailable
        /// At show or update time the delegate answered another region.
        case regionChanged(Rect)
    }

    enum Effect: Hashable, Sendable {
        /// Show the tooltip of `source`, replacing any shown one.
        case show(Source)
        /// Re-render the shown tooltip in place (same window, no hide).
        case update(Source)
        /// Hide the shown tooltip.
        case hide
        /// Wake the machine with `.timer` at this instant (nil: no timer).
        case setTimer(MonotonicInstant?)
    }

    /// The shown tooltip.
    private(set) var shown: Source?
    /// When it showed (for auto-hide).
    private(set) var shownAt: MonotonicInstant?
    /// A tooltip waiting for its delay.
    private(set) var pending: (source: Source, deadline: MonotonicInstant)?
    /// Set when the pointer left a shown hover tooltip's source for the gap.
    private(set) var graceDeadline: MonotonicInstant?
    /// What the pointer was last over.
    private(set) var pointer: Target = .nothing
    /// When a tooltip last hid, for browse mode.
    private(set) var lastHidden: MonotonicInstant?
    /// A source dismissed by Escape (until the pointer leaves it) or by a press (until the
    /// pointer moves again).
    private(set) var suppressed: (source: Source, liftsOnMotion: Bool)?
    /// Where the current button press went down.
    private(set) var pressTarget: Target?
    /// The timer deadline last asked for.
    private(set) var timer: MonotonicInstant?

    static func == (a: ToolTipStateMachine, b: ToolTipStateMachine) -> Bool {
        a.shown == b.shown && a.pending?.source == b.pending?.source && a.pending?.deadline == b.pending?.deadline
            && a.graceDeadline == b.graceDeadline && a.pointer == b.pointer && a.lastHidden == b.lastHidden
            && a.suppressed?.source == b.suppressed?.source && a.pressTarget == b.pressTarget && a.timer == b.timer
    }

    /// Applies one input at `now` and returns the effects, in order.
    mutating func reduce(_ input: Input, now: MonotonicInstant) -> [Effect] {
        var effects: [Effect] = []
        switch input {
        case .pointer(let target): pointerMoved(to: target, now: now, &effects)
        case .buttonPress(let target): buttonPressed(on: target, now: now, &effects)
        case .buttonRelease(let target): buttonReleased(on: target, now: now, &effects)
        case .escape: escapePressed(now: now, &effects)
        case .focus(let source): focusMoved(to: source, now: now, &effects)
        case .present(let source):
            pending = nil
            suppressed = nil
            if !source.isSamePlace(as: shown) { show(source, now: now, &effects) }
        case .dismiss(let id):
            if shown?.interaction == id { hide(now: now, &effects) }
            if pending?.source.interaction == id { pending = nil }
        case .timer: timerFired(now: now, &effects)
        case .sourceGone(let id):
            if shown?.interaction == id { hide(now: now, &effects) }
            if pending?.source.interaction == id { pending = nil }
            if suppressed?.source.interaction == id { suppressed = nil }
            if pointer.source?.interaction == id { pointer = .nothing }
        case .dismissAll:
            hide(now: now, &effects)
            pending = nil
        case .invalidate(let id):
            if let shown, shown.interaction == id { effects.append(.update(shown)) }
        case .contentUnavailable:
            hide(now: now, &effects)
        case .regionChanged(let region):
            shown?.region = region
            if case .source(var s) = pointer, s.interaction == shown?.interaction {
                s.region = region
                pointer = .source(s)
            }
        }
        syncTimer(now: now, &effects)
        return effects
    }

    // MARK: - Rules

    private func delay(for source: Source, now: MonotonicInstant) -> Duration {
        if let lastHidden, now - lastHidden <= source.timings.browseTimeout { return source.timings.browseDelay }
        return source.timings.initialDelay
    }

    private mutating func hide(now: MonotonicInstant, _ effects: inout [Effect]) {
        graceDeadline = nil
        guard shown != nil else { return }
        shown = nil
        shownAt = nil
        lastHidden = now
        effects.append(.hide)
    }

    private mutating func show(_ source: Source, now: MonotonicInstant, _ effects: inout [Effect]) {
        shown = source
        shownAt = now
        graceDeadline = nil
        pending = nil
        effects.append(.show(source))
    }

    private mutating func pointerMoved(to target: Target, now: MonotonicInstant, _ effects: inout [Effect]) {
        pointer = target
        if let s = suppressed {
            // Leaving the dismissed region lifts an Escape; any motion at all lifts a press.
            let inside = target.source?.isSamePlace(as: s.source) ?? false
            if !inside || s.liftsOnMotion { suppressed = nil }
        }
        if let current = shown, current.anchor == .pointer {
            switch target {
            case .toolTip:
                graceDeadline = nil
            case .source(let s) where s.isSamePlace(as: current):
                graceDeadline = nil
            case .source(let s) where s.anchor == .pointer:
                hide(now: now, &effects)  // straight onto another source: browse to it
            case .nothing, .source:
                if graceDeadline == nil { graceDeadline = now + current.timings.hoverGrace }
            }
        }
        if let s = target.source, s.anchor == .pointer {
            let isShown = s.isSamePlace(as: shown)
            let isSuppressed = s.isSamePlace(as: suppressed?.source)
            if isShown || isSuppressed {
                if pending?.source.anchor == .pointer { pending = nil }
            } else if !(s.isSamePlace(as: pending?.source)) {
                // Motion inside the same region never restarts the delay; a new region does.
                pending = (s, now + delay(for: s, now: now))
            }
        } else if pending?.source.anchor == .pointer {
            // Resting on nothing, or on a tooltip, is not resting on the pending source.
            pending = nil
        }
    }

    private mutating func buttonPressed(on target: Target, now: MonotonicInstant, _ effects: inout [Effect]) {
        pressTarget = target
        if let current = shown {
            let onOwnSource = target.source?.isSamePlace(as: current) ?? false
            switch current.anchor {
            case .click:
                // Presses on the tooltip or its own source are left to the release (toggle).
                if target != .toolTip && !onOwnSource { hide(now: now, &effects) }
            case .pointer, .focus:
                if target != .toolTip {
                    hide(now: now, &effects)
                    if onOwnSource { suppressed = (current, true) }
                }
            }
        }
        if let p = pending, p.source.anchor != .click {
            pending = nil
            if target.source?.isSamePlace(as: p.source) ?? false { suppressed = (p.source, true) }
        }
    }

    private mutating func buttonReleased(on target: Target, now: MonotonicInstant, _ effects: inout [Effect]) {
        defer { pressTarget = nil }
        guard let s = target.source, s.anchor == .click, pressTarget?.source?.isSamePlace(as: s) ?? false else {
            return
        }
        if s.isSamePlace(as: shown) {
            hide(now: now, &effects)
        } else {
            show(s, now: now, &effects)
        }
    }

    private mutating func escapePressed(now: MonotonicInstant, _ effects: inout [Effect]) {
        // The shown tooltip is the one dismissed; a pending one is only cancelled, unless
        // nothing is shown, in which case Escape means "not that one either".
        let pendingSource = pending?.source
        pending = nil
        if let current = shown {
            hide(now: now, &effects)
            suppressed = (current, false)
        } else if let pendingSource {
            suppressed = (pendingSource, false)
        }
    }

    private mutating func focusMoved(to source: Source?, now: MonotonicInstant, _ effects: inout [Effect]) {
        if shown?.anchor == .focus { hide(now: now, &effects) }
        if pending?.source.anchor == .focus { pending = nil }
        if suppressed?.source.anchor == .focus { suppressed = nil }
        if let source {
            pending = (source, now + delay(for: source, now: now))
        }
    }

    private mutating func timerFired(now: MonotonicInstant, _ effects: inout [Effect]) {
        if let deadline = graceDeadline, deadline <= now {
            hide(now: now, &effects)
        }
        if let shown, let shownAt, let autoHide = shown.timings.autoHide, now - shownAt >= autoHide {
            hide(now: now, &effects)
        }
        if let p = pending, p.deadline <= now {
            show(p.source, now: now, &effects)
        }
    }

    /// Asks for a timer at the earliest deadline that matters, when it changed.
    private mutating func syncTimer(now: MonotonicInstant, _ effects: inout [Effect]) {
        var deadline: MonotonicInstant? = pending?.deadline
        if let grace = graceDeadline { deadline = min(deadline ?? grace, grace) }
        if let shown, let shownAt, let autoHide = shown.timings.autoHide {
            let expiry = shownAt + autoHide
            deadline = min(deadline ?? expiry, expiry)
        }
        if deadline != timer {
            timer = deadline
            effects.append(.setTimer(deadline))
        }
    }
}
