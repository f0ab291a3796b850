/// What the tooltip machine hears from the keyboard, focus and windows, as the event router
/// (ToolTipEventRouter.swift) hands it over, and how a pointer's target is resolved.
extension ToolTipController {
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
    func resolve(in window: Window, _ candidates: [(ToolTipInteraction, Point)]) -> ToolTipStateMachine.Target {
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

    /// A click or a key may change what a delegate answers: the answer kept from when the
    /// pointer entered its region is not used.
    func forgetResolvedAnswer() {
        resolvedAnswer = nil
    }
}
