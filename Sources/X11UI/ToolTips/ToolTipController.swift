/// The one tooltip controller of an application's display: it owns the tooltip state, the
/// tooltip window, and the global defaults. At most one tooltip shows at a time, across all the
/// application's windows.
///
/// Widgets never call it; windows feed it their pointer, button, key and focus events (GTK's
/// `gtktooltip.c` arrangement), and it drives the pure `ToolTipStateMachine`.
@MainActor
public final class ToolTipController {
    private unowned let application: Application
    /// The style of tooltips whose interaction sets none.
    public var style: ToolTipStyle = .dark
    /// The delays of tooltips whose interaction sets none.
    public var timings: ToolTipTimings = .standard

    private var machine = ToolTipStateMachine()
    private var timer: EventTimer?
    /// The clock and timer queue of the tooltip rules: the run loop's, or a test's virtual one.
    private lazy var scheduler: any ToolTipScheduler = RunLoopToolTipScheduler(application: application)
    private lazy var presenter = ToolTipWindow(application: application)
    /// Interactions the machine knows by id (weakly).
    private var known: [UInt64: WeakInteraction] = [:]
    /// Where the pointer was last seen.
    private var pointer: (window: WeakWindow, location: Point, root: Point)?
    /// The deepest view under the pointer when the target was last resolved, and that target.
    private weak var resolvedDeepest: View?
    private var resolvedTarget: ToolTipStateMachine.Target = .nothing
    /// The delegate's answer when the pointer entered the region under it: a hover tooltip
    /// shows it rather than asking again, unless a click, a key or `setNeedsUpdate()` came
    /// between.
    private var resolvedAnswer: Answered?
    /// The answer to the last question, for the show or update that follows.
    private var answered: Answered?
    /// The shown tooltip.
    private var shown: Shown?
    /// Set once the application closes: nothing shows any more.
    private var isTornDown = false

    init(application: Application) {
        self.application = application
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
    /// The X window of the tooltip (nil before the first show).
    public var windowID: X11WindowID? { presenter.windowID }

    // MARK: - Events from windows

    func pointerMoved(in window: Window, event: PointerEvent, chain: [View]) {
        pointer = (WeakWindow(window), event.location, event.rootLocation)
        if case .source(let current) = resolvedTarget, chain.last === resolvedDeepest,
            current.region.contains(event.rootLocation)
        {
            // Still in the same region of the same view: the delegate is not asked again.
            feed(.pointer(resolvedTarget, at: event.rootLocation))
            return
        }
        resolvedDeepest = chain.last
        resolvedTarget = resolve(in: window, at: event.location, chain: chain)
        feed(.pointer(resolvedTarget, at: event.rootLocation))
    }

    func pointerLeftWindow(_ window: Window, event: PointerEvent) {
        pointer = (WeakWindow(window), event.location, event.rootLocation)
        forgetResolvedTarget()
        feed(.pointer(.nothing, at: event.rootLocation))
    }

    /// The pointer is over the tooltip window itself, at `root` (root coordinates).
    func pointerOnToolTip(at root: Point? = nil) {
        forgetResolvedTarget()
        feed(.pointer(.toolTip, at: root))
    }

    func buttonPressed(in window: Window, event: ButtonEvent, chain: [View]) {
        pointer = (WeakWindow(window), event.pointer.location, event.pointer.rootLocation)
        resolvedAnswer = nil  // a click may change what the delegate answers
        feed(.buttonPress(resolve(in: window, at: event.pointer.location, chain: chain)))
    }

    func buttonReleased(in window: Window, event: ButtonEvent, chain: [View]) {
        pointer = (WeakWindow(window), event.pointer.location, event.pointer.rootLocation)
        resolvedAnswer = nil
        feed(.buttonRelease(resolve(in: window, at: event.pointer.location, chain: chain)))
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

    // MARK: - Interactive content and presses through the tooltip (see ToolTipHostWindow)

    /// Whether the shown tooltip's views take pointer and keyboard events: a click tooltip's
    /// do; hover and focus tooltips are not interactive, and a press on one goes through it.
    var shownIsInteractive: Bool { presenter.isShown && shown?.interaction.value?.trigger == .click }

    /// A press on a tooltip that is not interactive: the state machine hides it, before the
    /// press is handed to what lies beneath it.
    func buttonPressedThroughToolTip() { feed(.buttonPress(.toolTip)) }

    /// A key in `window` for the views of the shown click tooltip, when its source is there:
    /// Tab from the focused source enters them; returns whether the key was used.
    func contentKeyPressed(_ event: KeyEvent, in window: Window) -> Bool {
        guard shownIsInteractive, let source = shownSource, source.window === window,
            let host = presenter.hostWindow
        else { return false }
        return host.contentKeyPressed(event, source: source)
    }
    /// A key went down in a window whose focused view is `focused`. Escape dismisses the
    /// tooltip; Space and Return toggle the click tooltip of the focused view (the toggletip
    /// pattern). Returns whether the key was used up (only Escape that hid a tooltip is: the
    /// view still acts on Space and Return, a button presses).
    func keyPressed(_ event: KeyEvent, focused: View? = nil) -> Bool {
        resolvedAnswer = nil  // a key may change what the delegate answers
        switch event.key {
        case .escape:
            let dismisses = machine.escapeDismisses
            feed(.escape)
            return dismisses
        case .space, .return:
            guard event.modifiers.isDisjoint(with: [.control, .alt]), let view = focused,
                let interaction = view.clickToolTipInteraction, interaction.isEnabled, view.isVisibleInWindow,
                let frame = view.frameOnScreen
            else { return false }
            remember(interaction)
            feed(.activate(source(interaction, region: frame, anchor: .click)))
            return false
        default:
            return false
        }
    }

    func focusDidMove(to view: View?, byKeyboard: Bool) {
        guard let view, let interaction = view.toolTipInteraction, interaction.isEnabled,
            let frame = view.frameOnScreen
        else {
            feed(.focus(nil, byKeyboard: byKeyboard))
            return
        }
        remember(interaction)
        feed(.focus(source(interaction, region: frame, anchor: .focus), byKeyboard: byKeyboard))
    }

    /// A view (or an ancestor) was removed or hidden.
    func viewDidDisappear(_ view: View) {
        for (id, weak) in known {
            guard let interaction = weak.value else {
                feed(.sourceGone(id))
                continue
            }
            if interaction.view?.isDescendant(of: view) ?? true { feed(.sourceGone(id)) }
        }
    }

    /// A window was unmapped, closed or lost focus.
    func windowDidDeactivate(_ window: Window) {
        let ids = [
            machine.shown?.interaction, machine.pending?.source.interaction, machine.question?.source.interaction,
        ]
        .compactMap { $0 }
        for id in ids {
            let owner = known[id]?.value?.view?.window
            if owner == nil || owner === window {
                feed(.dismissAll)
                return
            }
        }
    }

    func interactionDidBecomeUnavailable(_ interaction: ToolTipInteraction) {
        feed(.sourceGone(interaction.id))
    }

    func interactionNeedsUpdate(_ interaction: ToolTipInteraction) {
        if resolvedAnswer?.interaction.value === interaction { resolvedAnswer = nil }
        feed(.invalidate(interaction.id))
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
        let old = scheduler
        scheduler = clock
        guard let current = timer, !current.isDone else { return }
        current.cancel()
        let left = current.deadline - old.now
        timer = clock.schedule(at: clock.now + left) { [weak self] in self?.feed(.timer) }
    }

    func tearDown() {
        // Withdraws any question to a delegate (the application may be closing from inside
        // one): its answer must not show a tooltip on a closed display.
        feed(.dismissAll)
        isTornDown = true
        timer?.cancel()
        timer = nil
        presenter.destroy()
    }

    private func forgetResolvedTarget() {
        resolvedDeepest = nil
        resolvedTarget = .nothing
    }

    // MARK: - Resolving what is under the pointer

    /// Query bubbling: the innermost view with an enabled interaction that answers for the point
    /// wins, then its ancestors are asked.
    private func resolve(in window: Window, at location: Point, chain: [View]) -> ToolTipStateMachine.Target {
        guard let origin = window.screenOrigin else { return .nothing }
        for view in chain.reversed() {
            for case let interaction as ToolTipInteraction in view.interactions where interaction.isEnabled {
                let local = view.convertFromWindow(location)
                guard let configuration = interaction.configuration(at: local), configuration.hasContent,
                    let region = Self.region(of: configuration, in: view.bounds), region.contains(local)
                else { continue }
                remember(interaction)
                resolvedAnswer = Answered(
                    interaction: WeakInteraction(interaction), point: local, configuration: configuration)
                let screenRegion = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
                let anchor: ToolTipStateMachine.Anchor = interaction.trigger == .click ? .click : .pointer
                return .source(source(interaction, region: screenRegion, anchor: anchor))
            }
        }
        return .nothing
    }

    /// The part of the view a configuration covers: its rect clamped to the view, or the whole
    /// view; nil for a rect that is not a rect (NaN, negative size) or lies outside the view.
    static func region(of configuration: ToolTipConfiguration, in bounds: Rect) -> Rect? {
        guard let rect = configuration.sourceRect else { return bounds }
        guard rect.isFinite, rect.width >= 0, rect.height >= 0 else { return nil }
        let clamped = rect.intersection(bounds)
        return clamped.isEmpty ? nil : clamped
    }

    private func source(
        _ interaction: ToolTipInteraction, region: Rect, anchor: ToolTipStateMachine.Anchor
    ) -> ToolTipStateMachine.Source {
        ToolTipStateMachine.Source(
            interaction: interaction.id, region: region, anchor: anchor, timings: interaction.timings ?? timings)
    }

    private func remember(_ interaction: ToolTipInteraction) {
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

    // MARK: - Driving the machine

    /// Inputs that arrived while effects were being performed (a delegate that removes its
    /// view or asks for an update while answering, say); they are applied, in order, once the
    /// current ones are done.
    private var queuedInputs: [ToolTipStateMachine.Input] = []
    private var isFeeding = false

    private func feed(_ input: ToolTipStateMachine.Input) {
        queuedInputs.append(input)
        guard !isFeeding else { return }
        isFeeding = true
        defer { isFeeding = false }
        while !queuedInputs.isEmpty {
            let next = queuedInputs.removeFirst()
            for effect in machine.reduce(next, now: scheduler.now) { perform(effect) }
        }
    }

    private func perform(_ effect: ToolTipStateMachine.Effect) {
        switch effect {
        case .setTimer(let deadline):
            timer?.cancel()
            timer = nil
            guard !isTornDown else { return }
            timer = deadline.map { scheduler.schedule(at: $0) { [weak self] in self?.feed(.timer) } }
        case .hide:
            guard presenter.isShown else { return }
            let source = shown?.interaction.value?.view
            let text = presenter.text
            presenter.hide()
            shown = nil
            application.inspector?.toolTip(shown: false, source: source, text: text, frame: nil)
            application.accessibility?.toolTipDidChange(source: source)
        case .ask(let source):
            ask(source, again: false)
        case .reask(let source):
            ask(source, again: true)
        case .show(let source):
            present(source, inPlace: false)
        case .update(let source):
            present(source, inPlace: true)
        }
    }

    /// Asks the delegate for the tooltip of `source` (once per show: the answer given when the
    /// pointer entered the region is used if nothing happened since that could change it) and
    /// tells the machine. Inputs the delegate causes while answering are queued before the
    /// answer, so they decide first.
    private func ask(_ source: ToolTipStateMachine.Source, again: Bool) {
        guard !isTornDown, let interaction = known[source.interaction]?.value, let view = interaction.view,
            let window = view.window, window.isVisible, view.isVisibleInWindow
        else {
            feed(.answer(.none))
            return
        }
        window.layoutIfNeeded()
        guard let origin = window.screenOrigin else {
            feed(.answer(.none))
            return
        }
        let previous = shown?.interaction.value === interaction ? shown : nil
        let configuration: ToolTipConfiguration?
        let point: Point
        if !again, source.anchor != .focus, let cached = resolvedAnswer, cached.interaction.value === interaction {
            (point, configuration) = (cached.point, cached.configuration)
        } else {
            point = askingPoint(
                for: source, view: view, window: window, origin: origin, previous: again ? previous : nil)
            configuration = interaction.configuration(at: point)
        }
        resolvedAnswer = nil
        guard let configuration, configuration.hasContent, let region = Self.region(of: configuration, in: view.bounds),
            // The delegate may have removed or hidden the view, or disabled the interaction.
            view.isVisibleInWindow, view.window === window, window.isVisible, interaction.isEnabled,
            interaction.view === view
        else {
            answered = nil
            feed(.answer(.none))
            return
        }
        let screenRegion = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
        let unchanged = again && (previous?.configuration.hasSameContent(as: configuration) ?? false)
        answered = Answered(interaction: WeakInteraction(interaction), point: point, configuration: configuration)
        feed(.answer(.content(region: screenRegion, unchanged: unchanged)))
    }

    /// The point the delegate is asked about: where the pointer is for hover and click
    /// tooltips (if it is still over the view), the middle of the region otherwise; the same
    /// point again for an update.
    private func askingPoint(
        for source: ToolTipStateMachine.Source, view: View, window: Window, origin: Point, previous: Shown?
    ) -> Point {
        if let previous { return previous.point }
        if source.anchor != .focus, let pointer, pointer.window.value === window {
            let local = view.convertFromWindow(pointer.location)
            if view.bounds.contains(local) { return local }
        }
        return view.convertFromWindow(Point(x: source.region.midX - origin.x, y: source.region.midY - origin.y))
    }

    /// Shows (or re-renders in place) the tooltip of `source` with the content just answered.
    private func present(_ source: ToolTipStateMachine.Source, inPlace: Bool) {
        guard !isTornDown, let answer = answered, let interaction = answer.interaction.value,
            interaction.id == source.interaction, let view = interaction.view, let window = view.window,
            window.isVisible, view.isVisibleInWindow, let origin = window.screenOrigin
        else {
            feed(.dismissAll)
            return
        }
        answered = nil
        let configuration = answer.configuration
        // Hover tooltips keep away from the pointer where it was when they showed; keyboard
        // and click ones from where it was last seen (an update keeps the first placement's).
        let pointerOnScreen: Point?
        if inPlace, let previous = shown, previous.interaction.value === interaction {
            pointerOnScreen = previous.pointer
        } else {
            pointerOnScreen = pointer?.root
        }
        let viewOnScreen = view.convertToWindow(view.bounds).offsetBy(dx: origin.x, dy: origin.y)
        // A whole-view tooltip lines up with what the view looks like (a button's body).
        let anchor =
            configuration.sourceRect == nil
            ? view.convertToWindow(view.alignmentRect).offsetBy(dx: origin.x, dy: origin.y) : source.region
        let placement = interaction.resolvedPlacement
        presenter.present(
            configuration.content, style: interaction.style ?? style, placement: placement,
            source: anchor, pointer: pointerOnScreen,
            followsPointer: source.anchor == .pointer && placement.anchor == .pointer,
            avoiding: configuration.sourceRect == nil ? nil : viewOnScreen, transientFor: window.windowID)
        guard presenter.isShown, let geometry = presenter.geometry else {
            feed(.dismissAll)  // the display went away: nothing is on the screen
            return
        }
        shown = Shown(
            interaction: WeakInteraction(interaction), point: answer.point, configuration: configuration,
            pointer: pointerOnScreen)
        feed(.placed(geometry.visualFrame))
        application.inspector?.toolTip(shown: true, source: view, text: presenter.text, frame: geometry.windowFrame)
        application.accessibility?.toolTipDidChange(source: view)
    }
}

/// A delegate's answer, kept from the question to the show.
@MainActor
private struct Answered {
    var interaction: WeakInteraction
    /// Where (in the view) the delegate was asked.
    var point: Point
    var configuration: ToolTipConfiguration
}

/// The tooltip on the screen: its interaction, the point (its view's coordinates) it was asked
/// at, its content, and the pointer it was placed away from.
@MainActor
private struct Shown {
    var interaction: WeakInteraction
    var point: Point
    var configuration: ToolTipConfiguration
    var pointer: Point?
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
