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
    private lazy var presenter = ToolTipWindow(application: application)
    /// Interactions the machine knows by id (weakly).
    private var known: [UInt64: WeakInteraction] = [:]
    /// Where the pointer was last seen.
    private var pointer: (window: WeakWindow, location: Point, root: Point)?
    /// The deepest view under the pointer when the target was last resolved.
    private weak var resolvedDeepest: View?
    /// The shown tooltip's interaction and the point (its view's coordinates) it was asked at.
    private var shown: (interaction: WeakInteraction, point: Point, configuration: ToolTipConfiguration)?

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
    public var shownEdge: ToolTipPlacement.Edge? { presenter.isShown ? presenter.geometry?.edge : nil }
    /// The view whose tooltip is shown.
    public var shownSource: View? { shown?.interaction.value?.view }
    /// The X window of the tooltip (0 before the first show).
    public var windowID: UInt { presenter.windowID }

    // MARK: - Events from windows

    func pointerMoved(in window: Window, event: PointerEvent, chain: [View]) {
        pointer = (WeakWindow(window), event.location, event.rootLocation)
        if case .source(let current) = machine.pointer, chain.last === resolvedDeepest,
            current.region.contains(event.rootLocation)
        {
            // Still in the same region of the same view: the delegate is not asked again.
            feed(.pointer(machine.pointer))
            return
        }
        resolvedDeepest = chain.last
        let target = resolve(in: window, at: event.location, chain: chain)
        // Click tooltips do not show on hover: for hovering, their views are empty space.
        feed(.pointer(target.source?.anchor == .click ? .nothing : target))
    }

    func pointerLeftWindow(_ window: Window, event: PointerEvent) {
        resolvedDeepest = nil
        feed(.pointer(.nothing))
    }

    /// The pointer is over the tooltip window itself.
    func pointerOnToolTip() {
        resolvedDeepest = nil
        feed(.pointer(.toolTip))
    }

    func buttonPressed(in window: Window, event: ButtonEvent, chain: [View]) {
        pointer = (WeakWindow(window), event.pointer.location, event.pointer.rootLocation)
        feed(.buttonPress(resolve(in: window, at: event.pointer.location, chain: chain)))
    }

    func buttonReleased(in window: Window, event: ButtonEvent, chain: [View]) {
        pointer = (WeakWindow(window), event.pointer.location, event.pointer.rootLocation)
        feed(.buttonRelease(resolve(in: window, at: event.pointer.location, chain: chain)))
    }

    /// The pointer left the tooltip window.
    func pointerLeftToolTip() {
        feed(.pointer(.nothing))
    }

    /// Another client destroyed the tooltip window: the tooltip is gone; the next one gets a
    /// new window.
    func toolTipWindowWasDestroyed() {
        presenter.windowWasDestroyed()
        feed(.dismissAll)
    }

    func buttonPressedOnToolTip() { feed(.buttonPress(.toolTip)) }
    func buttonReleasedOnToolTip() { feed(.buttonRelease(.toolTip)) }

    /// Escape dismisses the tooltip; returns whether the key was used for that.
    func keyPressed(_ event: KeyEvent) -> Bool {
        guard event.key == .escape else { return false }
        let wasShown = machine.shown != nil
        if wasShown || machine.pending != nil { feed(.escape) }
        return wasShown
    }

    func focusDidMove(to view: View?, byKeyboard: Bool) {
        guard byKeyboard, let view, let interaction = view.toolTipInteraction, interaction.isEnabled,
            let frame = view.frameOnScreen
        else {
            feed(.focus(nil))
            return
        }
        remember(interaction)
        feed(.focus(source(interaction, region: frame, anchor: .focus)))
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
        let ids = [machine.shown?.interaction, machine.pending?.source.interaction].compactMap { $0 }
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
        feed(.invalidate(interaction.id))
    }

    /// Shows an interaction's tooltip now, at its view.
    func present(_ interaction: ToolTipInteraction) {
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

    func tearDown() {
        timer?.cancel()
        timer = nil
        presenter.destroy()
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
                machine.pressTarget?.source?.interaction, shown?.interaction.value?.id,
            ].reduce(into: []) { if let id = $1 { $0.insert(id) } }
            known = known.filter { live.contains($0.key) && $0.value.value != nil }
        }
    }

    // MARK: - Driving the machine

    /// Inputs that arrived while effects were being performed (a delegate that removes its
    /// view while answering, say); they are applied, in order, once the current ones are done.
    private var queuedInputs: [ToolTipStateMachine.Input] = []
    private var isFeeding = false

    private func feed(_ input: ToolTipStateMachine.Input) {
        queuedInputs.append(input)
        guard !isFeeding else { return }
        isFeeding = true
        defer { isFeeding = false }
        while !queuedInputs.isEmpty {
            let next = queuedInputs.removeFirst()
            for effect in machine.reduce(next, now: .now()) { perform(effect) }
        }
    }

    private func perform(_ effect: ToolTipStateMachine.Effect) {
        switch effect {
        case .setTimer(let deadline):
            timer?.cancel()
            timer = deadline.map { application.schedule(at: $0) { [weak self] in self?.feed(.timer) } }
        case .hide:
            guard presenter.isShown else { return }
            let source = shown?.interaction.value?.view
            let text = presenter.text
            presenter.hide()
            shown = nil
            application.inspector?.toolTip(shown: false, source: source, text: text, frame: nil)
            application.accessibility?.toolTipDidChange(source: source)
        case .show(let source):
            present(source, inPlace: false)
        case .update(let source):
            present(source, inPlace: true)
        }
    }

    /// Asks the delegate afresh and shows (or re-renders in place) the tooltip of `source`.
    private func present(_ source: ToolTipStateMachine.Source, inPlace: Bool) {
        guard let interaction = known[source.interaction]?.value, let view = interaction.view,
            let window = view.window, window.isVisible, view.isVisibleInWindow, let origin = window.screenOrigin
        else {
            feed(.contentUnavailable)
            return
        }
        // The point the delegate is asked about: where the pointer is for hover and click
        // tooltips (if it is still over the view), the middle of the region otherwise.
        var point = view.convertFromWindow(
            Point(x: source.region.midX - origin.x, y: source.region.midY - origin.y))
        if inPlace, let previous = shown, previous.interaction.value === interaction {
            point = previous.point
        } else if source.anchor != .focus, let pointer, pointer.window.value === window {
            let local = view.convertFromWindow(pointer.location)
            if view.bounds.contains(local) { point = local }
        }
        guard let configuration = interaction.configuration(at: point), configuration.hasContent,
            let region = Self.region(of: configuration, in: view.bounds),
            // The delegate may have removed or hidden the view, or disabled the interaction.
            view.isVisibleInWindow, view.window === window, interaction.isEnabled, interaction.view === view
        else {
            feed(.contentUnavailable)
            return
        }
        let screenRegion =
            source.anchor == .focus
            ? source.region : view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
        if inPlace, let previous = shown, previous.configuration.hasSameContent(as: configuration),
            screenRegion == source.region
        {
            return  // nothing changed: no repaint, no flicker
        }
        let pointerOnScreen = source.anchor == .pointer ? pointer?.root : nil
        let viewOnScreen = view.convertToWindow(view.bounds).offsetBy(dx: origin.x, dy: origin.y)
        // A whole-view tooltip lines up with what the view looks like (a button's body).
        let anchor =
            configuration.sourceRect == nil
            ? view.convertToWindow(view.alignmentRect).offsetBy(dx: origin.x, dy: origin.y) : screenRegion
        presenter.present(
            configuration.content, style: interaction.style ?? style, placement: interaction.resolvedPlacement,
            source: anchor, pointer: pointerOnScreen,
            avoiding: configuration.sourceRect == nil ? nil : viewOnScreen, transientFor: window.windowID)
        shown = (WeakInteraction(interaction), point, configuration)
        if screenRegion != source.region { feed(.regionChanged(screenRegion)) }
        application.inspector?.toolTip(
            shown: true, source: view, text: presenter.text, frame: presenter.geometry?.windowFrame)
        application.accessibility?.toolTipDidChange(source: view)
    }
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
