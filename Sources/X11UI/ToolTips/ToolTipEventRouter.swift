/// The tooltips' stage of the interaction channel: the tooltip interactions of the views
/// forward what they hear (``ToolTipInteraction/handle(_:)``), and this window-wide stage, after
/// them, decides once per event over what they heard and tells the controller.
@MainActor
final class ToolTipEventRouter: WindowInteraction {
    unowned let controller: ToolTipController
    /// What the tooltip interactions of the views forwarded since the window-wide stage last
    /// came, in the order they heard it.
    private(set) var heard: [(interaction: WeakInteraction, event: InteractionEvent)] = []
    /// Where a pointer is: its window, where in it, and where on the screen.
    typealias Pointer = (window: WeakWindow, location: Point, root: Point)
    /// Where the pointer was last seen.
    private(set) var pointer: Pointer?
    /// The deepest view under the pointer when the target was last resolved, and that target.
    private weak var resolvedDeepest: View?
    private var resolvedTarget: ToolTipStateMachine.Target = .nothing
    /// When the pointer event being delivered reached its window (see `pointerEventArrived`).
    private var pointerArrival: MonotonicInstant?

    init(controller: ToolTipController) {
        self.controller = controller
    }

    /// A tooltip interaction heard an event at its view (the point in the view's coordinates).
    func interaction(_ interaction: ToolTipInteraction, heard event: InteractionEvent) {
        if Self.recordsHeard(event) { heard.append((WeakInteraction(interaction), event)) }
    }

    /// Whether what an interaction hears of `event` is kept for the window-wide stage; of the
    /// others (enters, exits, focus lost, deactivation) the stage of the same event decides
    /// alone, and interactions need not look up their coordinator for them.
    nonisolated static func recordsHeard(_ event: InteractionEvent) -> Bool {
        switch event {
        case .pointerMoved, .buttonPressed, .buttonReleased, .keyPressed, .focusGained: true
        case .pointerEntered, .pointerExited, .focusLost, .windowDeactivated: false
        }
    }

    func handle(_ event: InteractionEvent, in context: InteractionContext) -> Bool {
        if case .pointerMoved = event, movedInResolvedRegion(context) { return false }
        return withRecord { record in
            let heard = Heard(record: record, window: context.window)
            switch event {
            case .windowDeactivated:
                controller.windowDidDeactivate(context.window)
            case .keyPressed:
                return keyPressed(context, heard)
            case .pointerMoved, .pointerExited, .buttonPressed, .buttonReleased, .focusGained, .focusLost:
                // Pointer and focus events of the tooltip's own window are its own business.
                if context.window.feedsToolTips { route(event, context, heard) }
            case .pointerEntered:
                break
            }
            return false
        }
    }

    /// Most motion stays in the region of the view whose tooltip was resolved last: the
    /// machine hears it and nothing else is looked at.
    private func movedInResolvedRegion(_ context: InteractionContext) -> Bool {
        guard case .source(let current) = resolvedTarget, let location = context.location,
            let root = context.rootLocation, context.deepest === resolvedDeepest, current.region.contains(root),
            context.window.feedsToolTips
        else { return false }
        heard.removeAll(keepingCapacity: true)
        notePointer(in: context.window, at: location, root: root)
        feedPointer(resolvedTarget, at: root, touch: context.touch, arrival: takePointerArrival())
        return true
    }

    /// Runs `body` on what the interactions heard of this event, in order; read only when
    /// needed (a pointer that stays over one view's region needs none of it). The list keeps
    /// its storage from event to event.
    private func withRecord(_ body: (Record) -> Bool) -> Bool {
        var recorded: Record = []
        swap(&recorded, &heard)
        defer {
            // The storage goes back for the next event, unless what this one caused was heard
            // meanwhile (a delegate that moved focus while answering).
            recorded.removeAll(keepingCapacity: true)
            if heard.isEmpty { swap(&recorded, &heard) }
        }
        return body(recorded)
    }

    /// A key: the open click tooltip's views, Ctrl+F1 for the focused view's tooltip, Escape,
    /// Space and Return (the toggletip pattern). Returns whether the key was used up.
    private func keyPressed(_ context: InteractionContext, _ heard: Heard) -> Bool {
        guard let key = context.key else { return false }
        // The views of an open click tooltip whose source has focus come first (Tab enters
        // them).
        if controller.contentKeyPressed(key, in: context.window) { return true }
        // The focused view's tooltips.
        let own = heard.interactions.filter { interaction, event in
            if case .keyPressed = event { return interaction.view === context.focused }
            return false
        }
        if Self.isHelpKey(key) {
            // The focused view's own tooltip: its first hover tooltip, else its first click one.
            let toolTip = own.first { $0.0.trigger == .hover } ?? own.first
            return controller.helpKeyPressed(for: toolTip?.0)
        }
        return controller.keyPressed(key, toggling: own.first { $0.0.trigger == .click }?.0)
    }

    /// Ctrl+F1, GTK's key for the focused widget's tooltip.
    private static func isHelpKey(_ event: KeyEvent) -> Bool {
        event.key == .other(0xffbe) && event.modifiers.contains(.control)
            && event.modifiers.isDisjoint(with: [.shift, .alt])
    }

    /// The pointer and focus events of a window that feeds tooltips.
    private func route(_ event: InteractionEvent, _ context: InteractionContext, _ heard: Heard) {
        let window = context.window
        switch event {
        case .pointerMoved:
            guard let location = context.location, let root = context.rootLocation else { return }
            pointerMoved(in: window, at: location, root: root, deepest: context.deepest, touch: context.touch) {
                heard.motionCandidates(deepest: context.deepest, at: location)
            }
        case .pointerExited:
            // Without a location the window stopped being on the screen under the pointer.
            pointerLeftWindow(window, at: context.location, root: context.rootLocation)
        case .buttonPressed, .buttonReleased:
            guard let location = context.location, let root = context.rootLocation else { return }
            notePointer(in: window, at: location, root: root)
            controller.forgetResolvedAnswer()  // a click may change what the delegate answers
            let target = controller.resolve(in: window, heard.buttonCandidates(for: event))
            if case .buttonPressed = event {
                controller.feed(.buttonPress(target))
            } else {
                controller.feed(.buttonRelease(target))
            }
        case .focusGained(let byKeyboard):
            let toolTip = heard.interactions.first { interaction, event in
                if case .focusGained = event, interaction.trigger == .hover, interaction.view === context.focused {
                    return true
                }
                return false
            }
            // A focused view whose text is cut shows its full text (with its own tooltip).
            let expansion = (context.focused as? any ExpandingText).flatMap {
                $0.cutLabel != nil ? $0.expansionToolTip : nil
            }
            controller.focusDidMove(to: expansion ?? toolTip?.0, byKeyboard: byKeyboard)
        case .focusLost:
            controller.focusDidMove(to: nil, byKeyboard: false)
        case .pointerEntered, .keyPressed, .windowDeactivated:
            break
        }
    }

    func viewDidDisappear(_ view: View, in window: Window) {
        controller.viewDidDisappear(view)
    }

    /// A pointer motion reached a window, before its hit test and deliveries: the machine
    /// hears the pointer at this instant, so that a delay counts from when the pointer came,
    /// not from when the views' hooks and interactions were done with it.
    func pointerEventArrived() {
        pointerArrival = controller.scheduler.now
    }

    /// The instant the pointer event being delivered arrived, once.
    private func takePointerArrival() -> MonotonicInstant? {
        defer { pointerArrival = nil }
        return pointerArrival
    }

    /// The pointer moved in `window`; `candidates` (asked for only when the target must be
    /// resolved again) are the tooltip interactions under it with their points.
    private func pointerMoved(
        in window: Window, at location: Point, root: Point, deepest: View?, touch: TouchPhase?,
        candidates: () -> [(ToolTipInteraction, Point)]
    ) {
        notePointer(in: window, at: location, root: root)
        if case .source(let current) = resolvedTarget, deepest === resolvedDeepest, current.region.contains(root) {
            // Still in the same region of the same view: the delegate is not asked again.
            feedPointer(resolvedTarget, at: root, touch: touch, arrival: takePointerArrival())
            return
        }
        resolvedDeepest = deepest
        resolvedTarget = controller.resolve(in: window, candidates())
        feedPointer(resolvedTarget, at: root, touch: touch, arrival: takePointerArrival())
    }

    /// Where the pointer is: a new weak reference only when it moved to another window.
    private func notePointer(in window: Window, at location: Point, root: Point) {
        if pointer?.window.value === window {
            pointer?.location = location
            pointer?.root = root
        } else {
            pointer = (WeakWindow(window), location, root)
        }
    }

    private func pointerLeftWindow(_ window: Window, at location: Point?, root: Point?) {
        if let location, let root { notePointer(in: window, at: location, root: root) }
        forgetResolvedTarget()
        controller.feed(.pointer(.nothing, at: root))
    }

    /// Forgets the view and region the pointer was last resolved to (it is on the tooltip).
    func forgetResolvedTarget() {
        resolvedDeepest = nil
        resolvedTarget = .nothing
    }
}

/// A weak reference to a window.
struct WeakWindow {
    weak var value: Window?
    init(_ value: Window) { self.value = value }
}

/// What the interactions of the views heard of one event, as recorded.
private typealias Record = [(interaction: WeakInteraction, event: InteractionEvent)]

/// What the tooltip interactions of one window's views heard of one event, in order.
@MainActor
private struct Heard {
    let record: Record
    let window: Window

    /// The interactions still there, in this window, with what they heard.
    var interactions: [(ToolTipInteraction, InteractionEvent)] {
        record.compactMap { entry -> (ToolTipInteraction, InteractionEvent)? in
            guard let interaction = entry.interaction.value, interaction.view?.window === window else { return nil }
            return (interaction, entry.event)
        }
    }

    /// The tooltip interactions under a moving pointer with their points, innermost first.
    func motionCandidates(deepest: View?, at location: Point) -> [(ToolTipInteraction, Point)] {
        // One pass over the record, no intermediate list.
        var candidates: [(ToolTipInteraction, Point)] = []
        // The deepest view's cut text comes first: its expansion tooltip holds the view's own
        // tooltip too.
        if let expanding = deepest as? any ExpandingText, expanding.cutLabel != nil {
            candidates.append((expanding.expansionToolTip, expanding.convertFromWindow(location)))
        }
        for entry in record {
            guard case .pointerMoved(let local) = entry.event, let interaction = entry.interaction.value,
                interaction.view?.window === window
            else { continue }
            candidates.append((interaction, local))
        }
        return candidates
    }

    /// The tooltip interactions that heard a press (or a release) with their points.
    func buttonCandidates(for event: InteractionEvent) -> [(ToolTipInteraction, Point)] {
        interactions.compactMap { interaction, heardEvent -> (ToolTipInteraction, Point)? in
            switch (event, heardEvent) {
            case (.buttonPressed, .buttonPressed(_, let local)), (.buttonReleased, .buttonReleased(_, let local)):
                return (interaction, local)
            default:
                return nil
            }
        }
    }
}

extension Application {
    /// The application's window-wide interactions, the last stage of the interaction channel
    /// (see ``WindowInteraction``): the tooltip coordinator's router.
    /// One, held in place: no array is made for each event.
    var windowInteractions: CollectionOfOne<any WindowInteraction> { CollectionOfOne(toolTips.router) }
}
