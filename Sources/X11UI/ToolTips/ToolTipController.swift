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
/// and its effects into the one timer (`ToolTipTimer`) and into questions to delegates, shows
/// and hides through its presentation (`ToolTipPresentation`: what is shown and why, and the
/// presenter that owns the tooltip's window).
@MainActor
public final class ToolTipController {
    unowned let application: Application
    /// The style of tooltips whose interaction sets none.
    public var style: ToolTipStyle = .standard
    /// The delays of tooltips whose interaction sets none.
    public var timings: ToolTipTimings = .standard

    private var machine = ToolTipStateMachine()
    /// The one timer the machine asks for (`.setTimer`), on the scheduler's clock.
    private(set) lazy var timer = ToolTipTimer(
        scheduler: RunLoopToolTipScheduler(application: application),
        fired: { [unowned self] in feed(.timer) },
        wokeEarly: { [unowned self] deadline in prepareShow(due: deadline) })
    /// The tooltips' stage of the interaction channel: events in, the machine's inputs out.
    private(set) lazy var router = ToolTipEventRouter(controller: self)
    /// What is shown and why: the delegates' answers, the shown tooltip, the presenter.
    private let presentation: ToolTipPresentation
    /// The interactions the machine knows by id.
    private var known = ToolTipInteractionRegistry()
    /// The time the machine was last given: it never goes back.
    private var lastInputTime: MonotonicInstant?
    /// Inputs that arrived while effects were being performed (a delegate that removes its
    /// view or asks for an update while answering, say); they are applied, in order, once the
    /// current ones are done.
    private var queuedInputs: [ToolTipStateMachine.Input] = []
    private var isFeeding = false

    /// The clock and timer queue of the tooltip rules: the run loop's, or a test's virtual one.
    var scheduler: any ToolTipScheduler { timer.scheduler }
    /// Lays out, places, paints and fades the tooltip, in the display's one tooltip window.
    var presenter: ToolTipPresenter { presentation.presenter }

    init(application: Application) {
        self.application = application
        presentation = ToolTipPresentation(application: application)
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

    /// Performs one of the machine's effects. What the presentation returns is fed back to the
    /// machine: effects are performed while it is being fed, so that input waits its turn,
    /// behind any a delegate caused meanwhile.
    private func perform(_ effect: ToolTipStateMachine.Effect) {
        switch effect {
        case .setTimer(let deadline):
            timer.set(deadline)
        case .hide:
            presentation.hide()
        case .ask(let source), .reask(let source):
            let interaction = known[source.interaction]
            let again = effect == .reask(source)
            feed(.answer(presentation.ask(source, of: interaction, again: again, pointer: router.pointer)))
        case .show(let source):
            // Browsing from one tooltip to the next shows each at once; the first one fades in.
            let entrance: ToolTipPresenter.Entrance = machine.browses(source, now: scheduler.now) ? .atOnce : .fade
            feed(
                presentation.present(
                    source, entrance: entrance, style: style, pointer: router.pointer?.root,
                    byTouch: machine.showing?.byTouch == true))
        case .update(let source):
            feed(
                presentation.present(
                    source, entrance: .update, style: style, pointer: router.pointer?.root,
                    byTouch: machine.showing?.byTouch == true))
        case .follow(let point):
            // A tooltip that follows the pointer: the machine says when it moves (at most once
            // a frame, never for a pointer that stood still).
            guard let source = machine.shown, let frame = presentation.follow(source, to: point, style: style)
            else { return }
            feed(.placed(frame))
        }
    }

    /// Woken a moment before `deadline` (`ToolTipTimer`): when it is the deadline of the show
    /// pending, the presentation may make the hidden tooltip window ready for it. The machine
    /// hears nothing: the show still happens at the deadline, through the same path, and
    /// anything that happens before then (the pointer moves on, a key, a click) decides as it
    /// would have.
    private func prepareShow(due deadline: MonotonicInstant) {
        // Only on the wake just before this deadline: a timer armed for an earlier one (the
        // pointer moved on to another source since) wakes long before it.
        guard deadline - scheduler.now <= scheduler.earlyWake * 2, machine.showing == nil, machine.question == nil,
            let pending = machine.pending, pending.deadline == deadline
        else { return }
        presentation.prepare(pending.source, style: style, pointer: router.pointer?.root)
    }

    /// The machine's source for `interaction`, its region in root coordinates.
    func source(
        _ interaction: ToolTipInteraction, region: Rect, anchor: ToolTipStateMachine.Anchor
    ) -> ToolTipStateMachine.Source {
        ToolTipStateMachine.Source(
            interaction: interaction.id, region: region, anchor: anchor, timings: interaction.timings ?? timings,
            follows: anchor == .pointer && interaction.resolvedPlacement.anchor == .followsPointer
                && !interaction.isExpansion)
    }

    /// Remembers `interaction` before the machine hears of it as a source (the machine knows
    /// sources by id; their interactions are looked up when it asks).
    func remember(_ interaction: ToolTipInteraction) {
        known.remember(interaction) {
            [
                machine.shown?.interaction, machine.pending?.source.interaction, machine.pointer.source?.interaction,
                machine.suppressed?.source.interaction, machine.pressTarget?.source?.interaction,
                machine.question?.source.interaction, presentation.shownInteraction?.id,
            ]
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
    public var shownSource: View? { presentation.shownInteraction?.view }
    /// The shown tooltip as assistive technologies are told of it (see
    /// `ToolTipPresentation.accessibleText`).
    var accessibleText: String? { presentation.accessibleText }
    /// Whether the shown tooltip's views take pointer and keyboard events (a click tooltip's).
    var shownIsInteractive: Bool { presentation.shownIsInteractive }

    /// The X window of the tooltip (nil before the first show).
    public var windowID: X11WindowID? { presenter.windowID }

    // MARK: - What the event router hands over: pointer targets, keys, focus, views, windows

    /// Query bubbling: of the tooltip interactions that heard the event (innermost view first),
    /// the first enabled one that answers for its point wins; its answer is kept for its show.
    func resolve(in window: Window, _ candidates: [(ToolTipInteraction, Point)]) -> ToolTipStateMachine.Target {
        guard let origin = window.screenOrigin else { return .nothing }
        for (interaction, local) in candidates where interaction.isEnabled {
            guard let view = interaction.view, let configuration = interaction.configuration(at: local),
                configuration.hasContent, let region = configuration.region(in: view.bounds), region.contains(local)
            else { continue }
            remember(interaction)
            presentation.keep(configuration, of: interaction, at: local)
            let screenRegion = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
            let anchor: ToolTipStateMachine.Anchor = interaction.trigger == .click ? .click : .pointer
            return .source(source(interaction, region: screenRegion, anchor: anchor))
        }
        return .nothing
    }

    /// A click or a key may change what a delegate answers: the answer kept from when the
    /// pointer entered its region is not used.
    func forgetResolvedAnswer() {
        presentation.forgetResolvedAnswer()
    }

    /// A key in `window` for the views of the shown click tooltip, when its source is there:
    /// Tab from the focused source enters them; returns whether the key was used.
    func contentKeyPressed(_ event: KeyEvent, in window: Window) -> Bool {
        guard shownIsInteractive, let source = shownSource, source.window === window,
            let host = presenter.hostWindow
        else { return false }
        return host.contentKeyPressed(event, source: source)
    }

    /// A key went down. Escape dismisses the tooltip; Space and Return toggle `clickToolTip`,
    /// the first click tooltip of the focused view (the toggletip pattern). Returns whether the
    /// key was used up (only Escape that hid a tooltip is: the view still acts on Space and
    /// Return, a button presses).
    func keyPressed(_ event: KeyEvent, toggling clickToolTip: ToolTipInteraction? = nil) -> Bool {
        presentation.forgetResolvedAnswer()  // a key may change what the delegate answers
        switch event.key {
        case .escape:
            let dismisses = machine.escapeDismisses
            feed(.escape)
            return dismisses
        case .space, .return:
            guard event.modifiers.isDisjoint(with: [.control, .alt]), let interaction = clickToolTip,
                interaction.isEnabled, let view = interaction.view, view.isVisibleInWindow,
                let frame = view.frameOnScreen
            else { return false }
            remember(interaction)
            feed(.activate(source(interaction, region: frame, anchor: .click)))
            return false
        default:
            return false
        }
    }

    /// Ctrl+F1 on the focused view: shows its tooltip at once, placed at the view as for
    /// keyboard focus (after Escape hid it, say, or for a view focused by a click), or hides it
    /// when it is the one shown. Returns whether the view has a tooltip (the key is then used
    /// up).
    func helpKeyPressed(for interaction: ToolTipInteraction?) -> Bool {
        presentation.forgetResolvedAnswer()  // a key may change what the delegate answers
        guard let interaction, interaction.isEnabled, let view = interaction.view, view.isVisibleInWindow,
            let frame = view.frameOnScreen
        else { return false }
        if machine.shown?.interaction == interaction.id {
            feed(.dismiss(interaction.id))
        } else {
            remember(interaction)
            feed(.present(source(interaction, region: frame, anchor: .focus)))
        }
        return true
    }

    /// Focus moved to the view of `toolTip` (the first hover tooltip of the focused view), or to
    /// a view without one, or to nothing (nil).
    func focusDidMove(to toolTip: ToolTipInteraction?, byKeyboard: Bool) {
        guard let interaction = toolTip, interaction.isEnabled, let view = interaction.view,
            let frame = view.frameOnScreen
        else {
            feed(.focus(nil, byKeyboard: byKeyboard))
            return
        }
        remember(interaction)
        feed(.focus(source(interaction, region: frame, anchor: .focus), byKeyboard: byKeyboard))
    }

    /// A view (or an ancestor) was removed or hidden: the sources in it, and those gone, are
    /// gone.
    func viewDidDisappear(_ view: View) {
        for (id, interaction) in known.entries where interaction?.view?.isDescendant(of: view) ?? true {
            feed(.sourceGone(id))
        }
    }

    /// A window was unmapped, closed or lost focus.
    func windowDidDeactivate(_ window: Window) {
        let ids = [
            machine.shown?.interaction, machine.pending?.source.interaction, machine.question?.source.interaction,
        ]
        .compactMap { $0 }
        for id in ids {
            let owner = known[id]?.view?.window
            if owner == nil || owner === window {
                feed(.dismissAll)
                return
            }
        }
    }

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

    /// A press on a tooltip that is not interactive: the state machine hides it, before the
    /// press is handed to what lies beneath it.
    func buttonPressedThroughToolTip() { feed(.buttonPress(.toolTip)) }

    // MARK: - The interactions' requests, the desktop's changes, the clock and the end

    func interactionDidBecomeUnavailable(_ interaction: ToolTipInteraction) {
        feed(.sourceGone(interaction.id))
    }

    /// The fonts or the scale changed (the desktop's settings): a shown tooltip is laid out
    /// again in place, at its source's new place, even though its content is the same.
    func fontsDidChange() {
        guard let interaction = presentation.fontsDidChange() else { return }
        interactionNeedsUpdate(interaction)
    }

    func interactionNeedsUpdate(_ interaction: ToolTipInteraction) {
        presentation.forgetResolvedAnswer(of: interaction)
        feed(.invalidate(interaction.id))
        // A view's own tooltip shows inside its expansion tooltip while its text is cut.
        if let shown = presentation.shownInteraction, shown.isExpansion, shown !== interaction,
            shown.view === interaction.view
        {
            presentation.forgetResolvedAnswer(of: shown)
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
        timer.stop()
        presentation.close()
    }
}
