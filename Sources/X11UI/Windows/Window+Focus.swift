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
        moveFocus(to: view, byKeyboard: byKeyboard, initial: false)
    }

    /// The view that takes keyboard focus when the window opens. Nil (the default), or a view
    /// that cannot take focus then, gives it to the first view in Tab order (``focusableViews``).
    ///
    /// The window gives this focus as it maps, when no view has focus yet. It is not keyboard
    /// navigation: no focus ring shows and no focus tooltip appears until a key is pressed.
    /// Screen readers hear of it with the window's activation, so they announce the window and
    /// then this control; the first Tab therefore moves on to the next view, as in GTK and Qt,
    /// and a screen reader announces that one.
    public var initialFocus: View? {
        get { focusState.initialView }
        set { focusState.initialView = newValue }
    }

    /// The view a window focuses when it opens: `preferred` when it is among the views that
    /// take focus, else the first of them in Tab order; nil when there is none.
    nonisolated static func initialFocusChoice<Candidate: AnyObject>(
        preferred: Candidate?, focusable: [Candidate]
    ) -> Candidate? {
        if let preferred, focusable.contains(where: { $0 === preferred }) { return preferred }
        return focusable.first
    }

    /// Gives focus to the initial view as the window maps, when none has it yet (a top-level
    /// window only: popups and embedded views leave focus to their owner).
    func focusInitially() {
        guard isTopLevel, focusedView == nil else { return }
        let views = focusableViews.filter { $0.canTakeFocus && $0.isVisibleInWindow }
        guard let view = Self.initialFocusChoice(preferred: initialFocus, focusable: views) else { return }
        moveFocus(to: view, byKeyboard: false, initial: true)
    }

    private func moveFocus(to view: View?, byKeyboard: Bool, initial: Bool) {
        if let view, !(view.canTakeFocus && view.window === self && view.isVisibleInWindow) { return }
        let old = focusState.view
        if old === view {
            if byKeyboard != focusState.isVisible {
                focusState.isVisible = byKeyboard
                view?.focusDidChange()
            }
            if byKeyboard, let view { deliverFocusGained(to: view, byKeyboard: true) }
            // A key or a click confirms the focus the window gave on opening: it is now the
            // user's, and reported as such (under pointer-root focus, the window becomes active).
            if focusState.isInitial, !initial, let view {
                focusState.isInitial = false
                application?.accessibility?.focusDidMove(from: nil, to: view)
            }
            return
        }
        focusState.view = view
        focusState.isVisible = byKeyboard && view != nil
        focusState.isInitial = initial && view != nil
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
        application?.accessibility?.focusDidMove(from: old, to: view, initial: initial)
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
        // The focus the window gave on opening counts as focus: a screen reader announced that
        // view with the window, and only a move makes it announce another.
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
