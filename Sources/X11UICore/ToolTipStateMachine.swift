/// The tooltip logic as a pure function: `(state, input, now) -> (state, effects)`.
///
/// It knows nothing of X, views or delegates. A driver (`ToolTipController`) turns events into
/// inputs, and effects into popups, delegate questions and timers. Every rule of the behaviour
/// contract lives here and is tested with an injected clock.
///
/// A tooltip never shows before its content is known: the machine asks (`.ask`), the driver
/// asks the delegate and answers (`.answer`), and only a non-empty answer shows it. Any other
/// input that arrives before the answer withdraws the question, so a delegate that closes its
/// window or removes its view while answering never gets a tooltip.
package struct ToolTipStateMachine: Hashable {
    // MARK: - State (the types are in ToolTipStateMachine+Types.swift)

    package internal(set) var phase: Phase = .idle
    /// A tooltip waiting for its delay.
    package internal(set) var pending: Pending?
    /// What the pointer was last over.
    package internal(set) var pointer: Target = .nothing
    /// Where it was last seen (root coordinates).
    package internal(set) var pointerLocation: Point?
    /// When a tooltip last hid, for browse mode.
    package private(set) var lastHidden: MonotonicInstant?
    package internal(set) var suppressed: Suppression?
    /// The finger on the screen, when a touch is down (ToolTipStateMachine+Touch.swift).
    package internal(set) var touch: Touch?
    /// Where the current button press went down.
    package private(set) var pressTarget: Target?
    /// The timer deadline last asked for.
    package private(set) var timer: MonotonicInstant?

    /// A machine at rest (the memberwise initializer is at most internal): no tooltip, nothing pending.
    package init() {}

    /// The tooltip on the screen.
    package var showing: Showing? {
        switch phase {
        case .idle: return nil
        case .asking(let q): return q.current
        case .showing(let s): return s
        }
    }

    /// The shown tooltip's source.
    package var shown: Source? { showing?.source }
    /// When the deadline of a pointer crossing toward the tooltip (or back) passes.
    package var graceDeadline: MonotonicInstant? { showing?.leaving?.deadline }
    /// The open question to the delegate.
    package var question: Question? {
        if case .asking(let q) = phase { return q }
        return nil
    }

    /// Whether Escape has something to dismiss (the driver then keeps the key from the view).
    package var escapeDismisses: Bool { shown != nil }

    /// Applies one input at `now` and returns the effects, in order.
    package mutating func reduce(_ input: Input, now: MonotonicInstant) -> [Effect] {
        var effects: [Effect] = []
        if case .asking(let q) = phase {
            switch input {
            case .answer(let answer):
                answered(answer, to: q, now: now, &effects)
                syncTimer(now: now, &effects)
                return effects
            case .invalidate(let id):
                if id == q.source.interaction, !q.isRetry {
                    var q = q
                    q.updateRequested = true
                    phase = .asking(q)
                }
                return effects
            case .placed:
                return effects
            case .touchMove(let location):
                // A finger resting on its source while the delegate answers keeps the question.
                touchMoved(to: location)
                return effects
            case .touchPointer(let target, let location):
                touchPointerMoved(to: target, at: location)
                return effects
            default:
                // Anything else withdraws the question: its answer, when it comes, is stale.
                phase = q.current.map { .showing($0) } ?? .idle
            }
        }
        switch input {
        case .pointer(let target, let location): pointerMoved(to: target, at: location, now: now, &effects)
        case .buttonPress(let target): buttonPressed(on: target, now: now, &effects)
        case .buttonRelease(let target): buttonReleased(on: target, now: now, &effects)
        case .escape: escapePressed(now: now, &effects)
        case .focus(let source, let byKeyboard): focusMoved(to: byKeyboard ? source : nil, now: now, &effects)
        case .activate(let source):
            pending = nil
            suppressed = nil
            if source.isSamePlace(as: shown) {
                hide(now: now, &effects)
            } else {
                ask(source, &effects)
            }
        case .present(let source):
            pending = nil
            suppressed = nil
            if !source.isSamePlace(as: shown) { ask(source, &effects) }
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
            if case .showing(let s) = phase, s.source.interaction == id {
                phase = .asking(Question(source: s.source, isUpdate: true, current: s))
                effects.append(.reask(s.source))
            }
        case .placed(let frame):
            if case .showing(var s) = phase {
                s.frame = frame
                phase = .showing(s)
            }
        case .answer:
            break  // a withdrawn question
        case .touchBegin(let target, let location): touchBegan(on: target, at: location, now: now, &effects)
        case .touchMove(let location): touchMoved(to: location)
        case .touchEnd, .touchCancel: touchEnded()
        case .touchPointer(let target, let location): touchPointerMoved(to: target, at: location)
        }
        syncTimer(now: now, &effects)
        return effects
    }

    // MARK: - Asking

    private mutating func ask(_ source: Source, _ effects: inout [Effect]) {
        if pending?.source.isSamePlace(as: source) ?? false { pending = nil }
        phase = .asking(Question(source: source, isUpdate: false, current: showing))
        effects.append(.ask(source))
    }

    private mutating func answered(_ answer: Answer, to q: Question, now: MonotonicInstant, _ effects: inout [Effect]) {
        guard case .content(let region, let unchanged) = answer else {
            // No tooltip: whatever showed goes, but a tooltip that never appeared starts no
            // browse mode.
            phase = q.current.map { .showing($0) } ?? .idle
            hide(now: now, &effects)
            return
        }
        var source = q.source
        // A keyboard tooltip is placed at its view, whatever region the delegate names.
        if source.anchor != .focus { source.region = region }
        if case .source(var s) = pointer, s.isSamePlace(as: q.source) {
            s.region = source.region
            pointer = .source(s)
        }
        let showing: Showing
        if q.isUpdate, var current = q.current {
            let moved = current.source.region != source.region
            current.source = source
            if moved { current.frame = nil }
            showing = current
            if !unchanged || moved { effects.append(.update(source)) }
        } else {
            var new = Showing(source: source, since: now)
            if source.follows, source.anchor == .pointer {
                new.follow = Follow(placedAt: pointerLocation, lastMove: now)
            }
            new.byTouch = q.byTouch
            showing = new
            effects.append(.show(source))
        }
        phase = .showing(showing)
        if q.updateRequested {
            phase = .asking(Question(source: source, isUpdate: true, current: showing, isRetry: true))
            effects.append(.reask(source))
        }
    }

    // MARK: - Rules

    /// Whether a tooltip of `source` showing `now` is browsed to: it comes within the browse
    /// timeout of the last hide, plus the browse delay it may have waited. Such a tooltip shows
    /// at once, without a fade.
    package func browses(_ source: Source, now: MonotonicInstant) -> Bool {
        guard let lastHidden else { return false }
        return now - lastHidden <= source.timings.browseTimeout + source.timings.browseDelay
    }

    private func delay(for source: Source, now: MonotonicInstant) -> Duration {
        if let lastHidden, now - lastHidden <= source.timings.browseTimeout { return source.timings.browseDelay }
        return source.timings.initialDelay
    }

    mutating func hide(now: MonotonicInstant, _ effects: inout [Effect]) {
        guard showing != nil else { return }
        phase = .idle
        lastHidden = now
        effects.append(.hide)
    }

    private mutating func pointerMoved(
        to rawTarget: Target, at location: Point?, now: MonotonicInstant, _ effects: inout [Effect]
    ) {
        // Click tooltips do not show on hover: for hovering, their views are empty space.
        let target: Target = rawTarget.source?.anchor == .click ? .nothing : rawTarget
        let previous = pointer
        pointer = target
        if let location, location.isFinite { pointerLocation = location }
        if let s = suppressed {
            // Leaving the dismissed region lifts an Escape; any motion at all lifts a press.
            let inside = target.source?.isSamePlace(as: s.source) ?? false
            if !inside || s.liftsOnMotion { suppressed = nil }
        }
        if case .showing(var current) = phase, current.source.anchor == .pointer, !current.byTouch {
            switch target {
            case .toolTip:
                current.leaving = nil
                phase = .showing(current)
            case .source(let s) where s.isSamePlace(as: current.source):
                current.leaving = nil
                follow(&current, to: location, now: now, &effects)
                phase = .showing(current)
            case .source(let s) where s.anchor == .pointer:
                // Another source: kept only while that is on the way to the tooltip.
                keepIfHeadingOver(&current, from: previous, at: location, onAnotherSource: true, now: now, &effects)
            case .nothing, .source:
                keepIfHeadingOver(&current, from: previous, at: location, onAnotherSource: false, now: now, &effects)
            }
        }
        if let s = target.source {
            let isShown = s.isSamePlace(as: shown)
            let isSuppressed = s.isSamePlace(as: suppressed?.source)
            if isShown || isSuppressed || showing?.leaving != nil {
                // On the shown one, a dismissed one, or crossing it toward the tooltip.
                if pending?.source.anchor == .pointer { pending = nil }
            } else if !(s.isSamePlace(as: pending?.source)) {
                // Motion inside the same region never restarts the delay; a new region does.
                pending = Pending(source: s, deadline: now + delay(for: s, now: now))
            }
        } else if pending?.source.anchor == .pointer {
            // Resting on nothing, or on a tooltip, is not resting on the pending source.
            pending = nil
        }
    }

    /// Hover intent: the pointer is off both the source and the tooltip. It stays while the
    /// pointer is in the safe region between where it left and the other one; leaving away
    /// hides it at once. Over another source, only a known safe region keeps it (without one,
    /// the pointer browses to that source).
    private mutating func keepIfHeadingOver(
        _ current: inout Showing, from previous: Target, at location: Point?, onAnotherSource: Bool,
        now: MonotonicInstant, _ effects: inout [Effect]
    ) {
        let timeout = current.source.timings.hoverGrace
        if var leaving = current.leaving {
            if onAnotherSource, leaving.region == nil || location == nil { return hide(now: now, &effects) }
            if let region = leaving.region, let location {
                guard ToolTipHoverIntent.contains(region, location) else { return hide(now: now, &effects) }
                // Still crossing: the timeout counts from the last motion.
                leaving.deadline = now + timeout
            }
            current.leaving = leaving
            phase = .showing(current)
            return
        }
        let cameFromToolTip = previous == .toolTip
        let cameFromSource = previous.source?.isSamePlace(as: current.source) ?? false
        guard cameFromToolTip || cameFromSource else {
            // Neither on the source nor on the tooltip before (a tooltip just shown under a
            // pointer that moved on): nothing to head for.
            return hide(now: now, &effects)
        }
        var region: [Point]?
        if let location, let frame = current.frame {
            region =
                cameFromToolTip
                ? ToolTipHoverIntent.safeRegion(exit: location, from: frame, to: current.source.region)
                : ToolTipHoverIntent.safeRegion(exit: location, from: current.source.region, to: frame)
            if let region, !ToolTipHoverIntent.contains(region, location) { return hide(now: now, &effects) }
        }
        if onAnotherSource, region == nil { return hide(now: now, &effects) }
        current.leaving = Leaving(region: region, deadline: now + timeout)
        phase = .showing(current)
    }

    private mutating func buttonPressed(on target: Target, now: MonotonicInstant, _ effects: inout [Effect]) {
        pressTarget = target
        // While a finger is down, a press is the one emulated from it: the touch decided.
        if touch != nil { return }
        if let current = shown {
            let onOwnSource = target.source?.isSamePlace(as: current) ?? false
            switch current.anchor {
            case .click:
                // Presses on the tooltip or its own source are left to the release (toggle).
                if target != .toolTip && !onOwnSource { hide(now: now, &effects) }
            case .pointer, .focus:
                // A press anywhere hides a hover or focus tooltip, a press on the tooltip too:
                // nothing on it takes a click, and the press goes on to what lies beneath.
                hide(now: now, &effects)
                if onOwnSource { suppressed = Suppression(source: current, liftsOnMotion: true) }
            }
        }
        if let p = pending, p.source.anchor != .click {
            pending = nil
            if target.source?.isSamePlace(as: p.source) ?? false {
                suppressed = Suppression(source: p.source, liftsOnMotion: true)
            }
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
            ask(s, &effects)
        }
    }

    private mutating func escapePressed(now: MonotonicInstant, _ effects: inout [Effect]) {
        // The shown tooltip is the one dismissed; a pending one is only cancelled, unless
        // nothing is shown, in which case Escape means "not that one either".
        let pendingSource = pending?.source
        pending = nil
        if let current = shown {
            hide(now: now, &effects)
            suppressed = Suppression(source: current, liftsOnMotion: false)
        } else if let pendingSource {
            suppressed = Suppression(source: pendingSource, liftsOnMotion: false)
        }
    }

    private mutating func focusMoved(to source: Source?, now: MonotonicInstant, _ effects: inout [Effect]) {
        if shown?.anchor == .focus { hide(now: now, &effects) }
        if pending?.source.anchor == .focus { pending = nil }
        if suppressed?.source.anchor == .focus { suppressed = nil }
        if let source {
            pending = Pending(source: source, deadline: now + delay(for: source, now: now))
        }
    }

    private mutating func timerFired(now: MonotonicInstant, _ effects: inout [Effect]) {
        if let deadline = graceDeadline, deadline <= now {
            hide(now: now, &effects)
            // It stopped over another source on its way: that one is browsed to.
            if let s = pointer.source, s.anchor == .pointer, !s.isSamePlace(as: suppressed?.source),
                pending == nil
            {
                pending = Pending(source: s, deadline: now + delay(for: s, now: now))
            }
        }
        if let showing, let autoHide = showing.source.timings.autoHide, now - showing.since >= autoHide {
            hide(now: now, &effects)
        }
        if case .showing(var current) = phase, let deadline = followDeadline, deadline <= now {
            follow(&current, to: current.follow?.waiting, now: now, &effects)
            phase = .showing(current)
        }
        if let p = pending, p.deadline <= now {
            ask(p.source, &effects)
        }
        touchTimerFired(now: now, &effects)
    }

    /// Asks for a timer at the earliest deadline that matters, when it changed.
    private mutating func syncTimer(now: MonotonicInstant, _ effects: inout [Effect]) {
        var deadline: MonotonicInstant? = pending?.deadline
        if let grace = graceDeadline { deadline = min(deadline ?? grace, grace) }
        if let move = followDeadline { deadline = min(deadline ?? move, move) }
        if let hold = touch?.holdDeadline { deadline = min(deadline ?? hold, hold) }
        if let showing, let autoHide = showing.source.timings.autoHide {
            let expiry = showing.since + autoHide
            deadline = min(deadline ?? expiry, expiry)
        }
        if deadline != timer {
            timer = deadline
            effects.append(.setTimer(deadline))
        }
    }
}
