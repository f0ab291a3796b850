/// The tooltip coordinator on the interaction channel: the tooltip interactions of the views
/// forward what they hear (``ToolTipInteraction/handle(_:)``), and the window-wide stage, after
/// them, decides once per event over what they heard.
extension ToolTipController: WindowInteraction {
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
        let window = context.window
        // Most motion stays in the region of the view whose tooltip was resolved last: the
        // machine hears it and nothing else is looked at.
        if case .pointerMoved = event, case .source(let current) = resolvedTarget, let location = context.location,
            let root = context.rootLocation, context.deepest === resolvedDeepest, current.region.contains(root),
            window.feedsToolTips
        {
            heard.removeAll(keepingCapacity: true)
            notePointer(in: window, at: location, root: root)
            feed(.pointer(resolvedTarget, at: root), at: takePointerArrival())
            return false
        }
        // What the interactions of this window's views heard of this event, in order; read
        // only when needed (a pointer that stays over one view's region needs none of it). The
        // list keeps its storage from event to event.
        var recorded: [(interaction: WeakInteraction, event: InteractionEvent)] = []
        swap(&recorded, &self.heard)
        defer {
            // The storage goes back for the next event, unless what this one caused was heard
            // meanwhile (a delegate that moved focus while answering).
            recorded.removeAll(keepingCapacity: true)
            if self.heard.isEmpty { swap(&recorded, &self.heard) }
        }
        var heard: [(ToolTipInteraction, InteractionEvent)] {
            recorded.compactMap { entry -> (ToolTipInteraction, InteractionEvent)? in
                guard let interaction = entry.interaction.value, interaction.view?.window === window else { return nil }
                return (interaction, entry.event)
            }
        }
        switch event {
        case .windowDeactivated:
            windowDidDeactivate(window)
            return false
        case .keyPressed:
            guard let key = context.key else { return false }
            // The views of an open click tooltip whose source has focus come first (Tab enters
            // them).
            if contentKeyPressed(key, in: window) { return true }
            if Self.isHelpKey(key) {
                // The focused view's own tooltip: its first hover tooltip, else its first click one.
                let own = heard.filter { interaction, event in
                    if case .keyPressed = event { return interaction.view === context.focused }
                    return false
                }
                let toolTip = own.first { $0.0.trigger == .hover } ?? own.first
                return helpKeyPressed(for: toolTip?.0)
            }
            let toggled = heard.first { interaction, event in
                if case .keyPressed = event, interaction.trigger == .click, interaction.view === context.focused {
                    return true
                }
                return false
            }
            return keyPressed(key, toggling: toggled?.0)
        default:
            break
        }
        // Pointer and focus events of the tooltip's own window are its own business.
        guard window.feedsToolTips else { return false }
        switch event {
        case .pointerMoved:
            guard let location = context.location, let root = context.rootLocation else { return false }
            pointerMoved(in: window, at: location, root: root, deepest: context.deepest) {
                // One pass over the record, no intermediate list.
                var candidates: [(ToolTipInteraction, Point)] = []
                // The deepest view's cut text comes first: its expansion tooltip holds the
                // view's own tooltip too.
                if let expanding = context.deepest as? any ExpandingText, expanding.cutLabel != nil {
                    candidates.append((expanding.expansionToolTip, expanding.convertFromWindow(location)))
                }
                for entry in recorded {
                    guard case .pointerMoved(let local) = entry.event, let interaction = entry.interaction.value,
                        interaction.view?.window === window
                    else { continue }
                    candidates.append((interaction, local))
                }
                return candidates
            }
        case .pointerExited:
            // Without a location the window stopped being on the screen under the pointer.
            pointerLeftWindow(window, at: context.location, root: context.rootLocation)
        case .buttonPressed, .buttonReleased:
            guard let location = context.location, let root = context.rootLocation else { return false }
            notePointer(in: window, at: location, root: root)
            resolvedAnswer = nil  // a click may change what the delegate answers
            let candidates = heard.compactMap { interaction, heardEvent -> (ToolTipInteraction, Point)? in
                switch (event, heardEvent) {
                case (.buttonPressed, .buttonPressed(_, let local)), (.buttonReleased, .buttonReleased(_, let local)):
                    return (interaction, local)
                default:
                    return nil
                }
            }
            let target = resolve(in: window, candidates)
            if case .buttonPressed = event { feed(.buttonPress(target)) } else { feed(.buttonRelease(target)) }
        case .focusGained(let byKeyboard):
            let toolTip = heard.first { interaction, event in
                if case .focusGained = event, interaction.trigger == .hover, interaction.view === context.focused {
                    return true
                }
                return false
            }
            // A focused view whose text is cut shows its full text (with its own tooltip).
            let expansion = (context.focused as? any ExpandingText).flatMap {
                $0.cutLabel != nil ? $0.expansionToolTip : nil
            }
            focusDidMove(to: expansion ?? toolTip?.0, byKeyboard: byKeyboard)
        case .focusLost:
            focusDidMove(to: nil, byKeyboard: false)
        default:
            break
        }
        return false
    }

    func viewDidDisappear(_ view: View, in window: Window) {
        viewDidDisappear(view)
    }

    /// A pointer motion reached a window, before its hit test and deliveries: the machine
    /// hears the pointer at this instant, so that a delay counts from when the pointer came,
    /// not from when the views' hooks and interactions were done with it.
    func pointerEventArrived() {
        pointerArrival = scheduler.now
    }

    /// The instant the pointer event being delivered arrived, once.
    private func takePointerArrival() -> MonotonicInstant? {
        defer { pointerArrival = nil }
        return pointerArrival
    }

    /// The pointer moved in `window`; `candidates` (asked for only when the target must be
    /// resolved again) are the tooltip interactions under it with their points.
    private func pointerMoved(
        in window: Window, at location: Point, root: Point, deepest: View?,
        candidates: () -> [(ToolTipInteraction, Point)]
    ) {
        notePointer(in: window, at: location, root: root)
        if case .source(let current) = resolvedTarget, deepest === resolvedDeepest, current.region.contains(root) {
            // Still in the same region of the same view: the delegate is not asked again.
            feed(.pointer(resolvedTarget, at: root), at: takePointerArrival())
            return
        }
        resolvedDeepest = deepest
        resolvedTarget = resolve(in: window, candidates())
        feed(.pointer(resolvedTarget, at: root), at: takePointerArrival())
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
        feed(.pointer(.nothing, at: root))
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
        resolvedAnswer = nil  // a key may change what the delegate answers
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

    /// Ctrl+F1, GTK's key for the focused widget's tooltip.
    static func isHelpKey(_ event: KeyEvent) -> Bool {
        event.key == .other(0xffbe) && event.modifiers.contains(.control)
            && event.modifiers.isDisjoint(with: [.shift, .alt])
    }

    /// Ctrl+F1 on the focused view: shows its tooltip at once, placed at the view as for
    /// keyboard focus (after Escape hid it, say, or for a view focused by a click), or hides it
    /// when it is the one shown. Returns whether the view has a tooltip (the key is then used
    /// up).
    func helpKeyPressed(for interaction: ToolTipInteraction?) -> Bool {
        resolvedAnswer = nil  // a key may change what the delegate answers
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

    /// Query bubbling: of the tooltip interactions that heard the event (innermost view first),
    /// the first enabled one that answers for its point wins.
    private func resolve(in window: Window, _ candidates: [(ToolTipInteraction, Point)]) -> ToolTipStateMachine.Target {
        guard let origin = window.screenOrigin else { return .nothing }
        for (interaction, local) in candidates where interaction.isEnabled {
            guard let view = interaction.view, let configuration = interaction.configuration(at: local),
                configuration.hasContent, let region = Self.region(of: configuration, in: view.bounds),
                region.contains(local)
            else { continue }
            remember(interaction)
            resolvedAnswer = Answered(
                interaction: WeakInteraction(interaction), point: local, configuration: configuration)
            let screenRegion = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
            let anchor: ToolTipStateMachine.Anchor = interaction.trigger == .click ? .click : .pointer
            return .source(source(interaction, region: screenRegion, anchor: anchor))
        }
        return .nothing
    }
}

extension Application {
    /// The application's window-wide interactions, the last stage of the interaction channel
    /// (see ``WindowInteraction``): the tooltip coordinator.
    /// One, held in place: no array is made for each event.
    var windowInteractions: CollectionOfOne<any WindowInteraction> { CollectionOfOne(toolTips) }
}
