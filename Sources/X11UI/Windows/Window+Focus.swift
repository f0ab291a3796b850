extension Window {
    /// The view with keyboard focus.
    public var focusedView: View? { focusState.view }

    /// Whether the focus arrived by keyboard, so the focus ring shows.
    public var isFocusVisible: Bool { focusState.isVisible }

    /// Moves keyboard focus to `view` (nil clears it).
    ///
    /// - Parameters:
    ///   - view: a view in this window that accepts focus.
    ///   - byKeyboard: whether this counts as keyboard navigation: the focus ring shows and the
    ///     view's tooltip appears after the delay. Clicks and the initial focus pass false.
    public func focus(_ view: View?, byKeyboard: Bool = false) {
        if let view, !(view.canTakeFocus && view.window === self && view.isVisibleInWindow) { return }
        let old = focusState.view
        if old === view {
            if byKeyboard != focusState.isVisible {
                focusState.isVisible = byKeyboard
                view?.focusDidChange()
            }
            if byKeyboard, let view { deliverFocusGained(to: view, byKeyboard: true) }
            return
        }
        focusState.view = view
        focusState.isVisible = byKeyboard && view != nil
        if let old {
            old.focusDidChange()
            for interaction in old.interactions { interaction.handle(.focusLost) }
        }
        if let view {
            view.focusDidChange()
            deliverFocusGained(to: view, byKeyboard: byKeyboard)
        } else {
            _ = deliverToWindowInteractions(.focusLost, InteractionContext(window: self))
        }
        application?.accessibility?.focusDidMove(from: old, to: view)
    }

    /// The view's interactions hear that it took focus, then the window-wide interactions.
    private func deliverFocusGained(to view: View, byKeyboard: Bool) {
        for interaction in view.interactions { interaction.handle(.focusGained(byKeyboard: byKeyboard)) }
        var context = InteractionContext(window: self)
        context.focused = view
        _ = deliverToWindowInteractions(.focusGained(byKeyboard: byKeyboard), context)
    }

    /// The views that take focus, in Tab order (the order of the view tree); hidden and
    /// disabled views are left out.
    public var focusableViews: [View] {
        var result: [View] = []
        func visit(_ view: View) {
            guard !view.isHidden, view.isEnabled else { return }
            if view.acceptsFocus { result.append(view) }
            for subview in view.subviews { visit(subview) }
        }
        visit(rootView)
        return result
    }

    /// Moves focus to the next (or previous) focusable view, wrapping around.
    public func focusNext(backwards: Bool = false) {
        let views = focusableViews
        guard !views.isEmpty else { return }
        let index = views.firstIndex { $0 === focusedView }
        let next: Int
        if let index {
            next = (index + (backwards ? views.count - 1 : 1)) % views.count
        } else {
            next = backwards ? views.count - 1 : 0
        }
        focus(views[next], byKeyboard: true)
    }
}
