/// The one tooltip controller of an application's display: it drives the tooltip state
/// machine and owns the global defaults. At most one tooltip shows at a time, across all the
/// application's windows.
///
/// Widgets never call it. Events reach it through the interaction channel: the
/// ``ToolTipInteraction``s of the views forward what they hear to its event router
/// (`ToolTipEventRouter`), the application's window-wide interaction, which hears every
/// window's pointer, button, key, focus and deactivation events after them and decides once per
/// event (the one place that knows which tooltip is shown, like GTK's per-display tooltip). The
/// controller turns what the router hands over into inputs of the pure `ToolTipStateMachine`,
/// and its effects into questions to delegates, the one timer (`ToolTipTimer`) and shows and
/// hides through the presenter (`ToolTipPresenter`, which owns the tooltip's window).
@MainActor
public final class ToolTipController {
    unowned let application: Application
    /// The style of tooltips whose interaction sets none.
    public var style: ToolTipStyle = .standard
    /// The delays of tooltips whose interaction sets none.
    public var timings: ToolTipTimings = .standard

    private(set) var machine = ToolTipStateMachine()
    /// The one timer the machine asks for (`.setTimer`), on the scheduler's clock.
    private(set) lazy var timer = ToolTipTimer(
        scheduler: RunLoopToolTipScheduler(application: application),
        fired: { [unowned self] in feed(.timer) },
        wokeEarly: { [unowned self] deadline in prepareShow(due: deadline) })
    /// The tooltips' stage of the interaction channel: events in, the machine's inputs out.
    private(set) lazy var router = ToolTipEventRouter(controller: self)
    private(set) lazy var presenter = ToolTipPresenter(application: application)
    /// How many times a tooltip moved with the pointer (for tests and the benchmark).
    var follows = 0
    /// The time the machine was last given: it never goes back.
    private var lastInputTime: MonotonicInstant?
    /// Interactions the machine knows by id (weakly).
    var known: [UInt64: WeakInteraction] = [:]
    /// The delegate's answer when the pointer entered the region under it: a hover tooltip
    /// shows it rather than asking again, unless a click, a key or `setNeedsUpdate()` came
    /// between.
    var resolvedAnswer: Answered?
    /// The answer to the last question, for the show or update that follows.
    var answered: Answered?
    /// The shown tooltip.
    var shown: Shown?
    /// Set when the shown tooltip must be laid out again whatever its delegate answers.
    var relayoutPending = false
    /// Set once the application closes: nothing shows any more.
    private(set) var isTornDown = false
    /// Inputs that arrived while effects were being performed (a delegate that removes its
    /// view or asks for an update while answering, say); they are applied, in order, once the
    /// current ones are done.
    private var queuedInputs: [ToolTipStateMachine.Input] = []
    private var isFeeding = false

    /// The clock and timer queue of the tooltip rules: the run loop's, or a test's virtual one.
    var scheduler: any ToolTipScheduler { timer.scheduler }

    init(application: Application) {
        self.application = application
    }

    // MARK: - Driving the machine: its inputs in order, its effects performed

    /// Gives the machine `input`, at `instant` when it happened a moment ago (a pointer event
    /// that arrived before its hit test), else now.
    func feed(_ input: ToolTipStateMachine.Input, at instant: MonotonicInstant? = nil) {
        guard !isFeeding else {
            queuedInputs.append(input)
            return
        }
        isFeeding = true
        defer { isFeeding = false }
        // The input itself goes straight to the machine (nothing is queued when nothing is
        // being fed); what its effects cause waits its turn.
        apply(input, at: instant)
        while !queuedInputs.isEmpty { apply(queuedInputs.removeFirst()) }
    }

    private func apply(_ input: ToolTipStateMachine.Input, at instant: MonotonicInstant? = nil) {
        let now = scheduler.now
        // Never later than now, never before a time the machine was already given.
        var time = instant.map { min($0, now) } ?? now
        if let last = lastInputTime, time < last { time = last }
        lastInputTime = time
        for effect in machine.reduce(input, now: time) { perform(effect) }
    }

    private func perform(_ effect: ToolTipStateMachine.Effect) {
        switch effect {
        case .setTimer(let deadline):
            timer.set(deadline)
        case .hide:
            guard presenter.isShown else { return }
            let source = shown?.interaction.value?.view
            let text = presenter.text
            presenter.hide()
            shown = nil
            application.inspector?.toolTip(shown: false, source: source?.identifier, text: text, frame: nil)
            application.accessibility?.toolTipDidChange(source: source)
        case .ask(let source):
            ask(source, again: false)
        case .reask(let source):
            ask(source, again: true)
        case .show(let source):
            present(source, inPlace: false)
        case .update(let source):
            present(source, inPlace: true)
        case .follow(let point):
            follow(to: point)
        }
    }

    // MARK: - What is shown (for programs, tests and tools)

    /// Whether a tooltip is on the screen.
    public var isShowing: Bool { presenter.isShown }
    /// The plain text of the shown tooltip (its labels' text for rich content).
    public var shownText: String? { presenter.isShown ? presenter.text : nil }
    /// The shown tooltip window's frame on the screen.
    public var shownFrame: Rect? { presenter.isShown ? presenter.geometry?.windowFrame : nil }
    /// The side of the source the shown tooltip is on.
    @_spi(Testing)
    public var shownEdge: ToolTipPlacement.Edge? { presenter.isShown ? presenter.geometry?.edge : nil }
    /// The view whose tooltip is shown.
    @_spi(Testing)
    public var shownSource: View? { shown?.interaction.value?.view }
    /// The shown tooltip as assistive technologies are told of it: nil when none shows, and
    /// when an expansion tooltip shows alone (its text is the view's accessible name already,
    /// which a screen reader would read twice); the view's own tooltip when an expansion
    /// tooltip shows it below the full text.
    var accessibleText: String? {
        guard let text = shownText else { return nil }
        guard let expansion = shown?.configuration.expansion else { return text }
        return expansion.own.map { ToolTipConfiguration(content: $0).plainText }
    }

    /// The X window of the tooltip (nil before the first show).
    public var windowID: X11WindowID? { presenter.windowID }

    // MARK: - The tooltip window's own events (see ToolTipHostWindow)

    /// The pointer is over the tooltip window itself, at `root` (root coordinates).
    func pointerOnToolTip(at root: Point? = nil) {
        router.forgetResolvedTarget()
        feed(.pointer(.toolTip, at: root))
    }

    /// The pointer left the tooltip window at `root` (root coordinates).
    func pointerLeftToolTip(at root: Point? = nil) {
        feed(.pointer(.nothing, at: root))
    }

    /// Another client destroyed the tooltip window: the tooltip is gone; the next one gets a
    /// new window.
    func toolTipWindowWasDestroyed() {
        presenter.windowWasDestroyed()
        feed(.dismissAll)
    }

    func buttonPressedOnToolTip() { feed(.buttonPress(.toolTip)) }
    func buttonReleasedOnToolTip() { feed(.buttonRelease(.toolTip)) }

    /// Whether the shown tooltip's views take pointer and keyboard events: a click tooltip's
    /// do; hover and focus tooltips are not interactive, and a press on one goes through it.
    var shownIsInteractive: Bool { presenter.isShown && shown?.interaction.value?.trigger == .click }

    /// A press on a tooltip that is not interactive: the state machine hides it, before the
    /// press is handed to what lies beneath it.
    func buttonPressedThroughToolTip() { feed(.buttonPress(.toolTip)) }

    func interactionDidBecomeUnavailable(_ interaction: ToolTipInteraction) {
        feed(.sourceGone(interaction.id))
    }

    /// The fonts or the scale changed (the desktop's settings): a shown tooltip is laid out
    /// again in place, at its source's new place, even though its content is the same.
    func fontsDidChange() {
        presenter.fontsDidChange()
        guard presenter.isShown, let interaction = shown?.interaction.value else { return }
        relayoutPending = true
        interactionNeedsUpdate(interaction)
    }

    func interactionNeedsUpdate(_ interaction: ToolTipInteraction) {
        if resolvedAnswer?.interaction.value === interaction { resolvedAnswer = nil }
        feed(.invalidate(interaction.id))
        // A view's own tooltip shows inside its expansion tooltip while its text is cut.
        if let shown = self.shown?.interaction.value, shown.isExpansion, shown !== interaction,
            shown.view === interaction.view
        {
            if resolvedAnswer?.interaction.value === shown { resolvedAnswer = nil }
            feed(.invalidate(shown.id))
        }
    }

    /// Shows an interaction's tooltip now, at its view.
    func present(_ interaction: ToolTipInteraction) {
        // A view added just now has no frame until its window lays out: lay out first, so the
        // tooltip goes to the view and not to the window's corner.
        interaction.view?.window?.layoutIfNeeded()
        guard interaction.isEnabled, let view = interaction.view, view.isVisibleInWindow,
            view.window?.isVisible == true, let frame = view.frameOnScreen
        else { return }
        remember(interaction)
        feed(.present(source(interaction, region: frame, anchor: .focus)))
    }

    /// Hides an interaction's tooltip if it is the one shown (or waiting to show).
    func dismiss(_ interaction: ToolTipInteraction) {
        feed(.dismiss(interaction.id))
    }

    /// Hides any tooltip now (the application is closing, say).
    public func hide() { feed(.dismissAll) }

    /// Runs the tooltip rules on `clock` from now on, instead of the real clock and the run
    /// loop's timers: the delays pass only when the test advances the clock.
    ///
    /// A timer already set moves to the new clock with the same time left. The rules keep the
    /// instants they noted, so the new clock must not be behind the one it replaces (a
    /// ``VirtualClock`` made now is not).
    @_spi(Testing)
    public func drive(on clock: VirtualClock) {
        timer.drive(on: clock)
    }

    func tearDown() {
        // Withdraws any question to a delegate (the application may be closing from inside
        // one): its answer must not show a tooltip on a closed display.
        feed(.dismissAll)
        isTornDown = true
        timer.stop()
        presenter.destroy()
    }

    /// The part of the view a configuration covers: its rect clamped to the view, or the whole
    /// view; nil for a rect that is not a rect (NaN, negative size) or lies outside the view.
    static func region(of configuration: ToolTipConfiguration, in bounds: Rect) -> Rect? {
        guard let rect = configuration.sourceRect else { return bounds }
        guard rect.isFinite, rect.width >= 0, rect.height >= 0 else { return nil }
        let clamped = rect.intersection(bounds)
        return clamped.isEmpty ? nil : clamped
    }

    func source(
        _ interaction: ToolTipInteraction, region: Rect, anchor: ToolTipStateMachine.Anchor
    ) -> ToolTipStateMachine.Source {
        ToolTipStateMachine.Source(
            interaction: interaction.id, region: region, anchor: anchor, timings: interaction.timings ?? timings,
            follows: anchor == .pointer && interaction.resolvedPlacement.anchor == .followsPointer
                && !interaction.isExpansion)
    }

    func remember(_ interaction: ToolTipInteraction) {
        guard known[interaction.id]?.value == nil else { return }
        known[interaction.id] = WeakInteraction(interaction)
        // Keep the table to the sources the machine still refers to, so a pointer crossing
        // thousands of views does not grow it (checked only when it has grown).
        if known.count > 32 {
            let live: Set<UInt64> = [
                interaction.id, machine.shown?.interaction, machine.pending?.source.interaction,
                machine.pointer.source?.interaction, machine.suppressed?.source.interaction,
                machine.pressTarget?.source?.interaction, machine.question?.source.interaction,
                shown?.interaction.value?.id,
            ].reduce(into: []) { if let id = $1 { $0.insert(id) } }
            known = known.filter { live.contains($0.key) && $0.value.value != nil }
        }
    }

}

/// A delegate's answer, kept from the question to the show.
@MainActor
struct Answered {
    var interaction: WeakInteraction
    /// Where (in the view) the delegate was asked.
    var point: Point
    var configuration: ToolTipConfiguration
}

/// The tooltip on the screen: its interaction, the point (its view's coordinates) it was asked
/// at, its content, and the pointer it was placed away from.
@MainActor
struct Shown {
    var interaction: WeakInteraction
    var point: Point
    var configuration: ToolTipConfiguration
    var pointer: Point?
    /// The cursor shown at `pointer` when the tooltip showed (a tooltip that follows the
    /// pointer keeps clear of it without reading it again).
    var cursor: CursorInk = .standard
    /// The source view's keyboard shortcut the tooltip shows.
    var shortcut: KeyboardShortcut?
}

/// A weak reference, for tables of interactions.
struct WeakInteraction {
    weak var value: ToolTipInteraction?
    init(_ value: ToolTipInteraction) { self.value = value }
}

/// A weak reference to a window.
struct WeakWindow {
    weak var value: Window?
    init(_ value: Window) { self.value = value }
}
