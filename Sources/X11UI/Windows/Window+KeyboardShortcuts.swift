/// Keyboard shortcuts: a key that is the ``View/keyboardShortcut`` of a view of the window runs
/// that view's action, wherever focus is.
///
/// Precedence, as desktop toolkits settle it: an open tooltip's Escape and the keys of a click
/// tooltip's content come first (the window-wide interactions). Then a key held with Control,
/// Alt or Super is a command: shortcuts have it before the focused view (GTK's accelerators
/// and Qt's shortcuts do the same). A key alone (F5, Delete, a letter) goes to the focused view
/// first, and is a shortcut only when that view does not use it (as Qt lets a focused text
/// field keep the keys it edits with): Space and Return still press the focused button. Tab
/// moves focus last.
///
/// Among the views whose shortcut the key is, the first in Tab order (the order of the view
/// tree) that is shown and enabled runs; a hidden or disabled view's shortcut does nothing and
/// the key goes on. A key the layout's current group types no Latin-1 character with (a Russian
/// letter) matches the shortcut of the same key in the keyboard's Latin group only when no
/// shortcut matches it exactly, as GTK falls back.
extension Window {
    /// Runs the shortcut `press` is, if a shown, enabled view of the window has it; returns
    /// whether one did.
    ///
    /// - Complexity: O(views in the window): keys are rare, and shortcuts are found where they
    ///   are, with nothing to keep up to date as views come and go.
    func performKeyboardShortcut(_ press: ShortcutKeyPress) -> Bool {
        var exact: [View] = []
        var latin: [View] = []
        collectShortcuts(in: rootView, matching: press, exact: &exact, latin: &latin)
        for view in exact + latin where view.keyboardShortcutPressed() { return true }
        return false
    }

    /// Whether a key held with `modifiers` is a command: shortcuts hear it before the focused view.
    static func isCommand(_ modifiers: Modifiers) -> Bool {
        !modifiers.isDisjoint(with: [.control, .alt, .super])
    }

    /// The views in `view`'s subtree, shown and enabled, whose shortcut `press` matches, in
    /// tree order.
    private func collectShortcuts(
        in view: View, matching press: ShortcutKeyPress, exact: inout [View], latin: inout [View]
    ) {
        guard !view.isHidden, view.isEnabled else { return }
        switch view.keyboardShortcut?.match(press) {
        case .exact: exact.append(view)
        case .latinGroup: latin.append(view)
        case nil: break
        }
        for subview in view.subviews { collectShortcuts(in: subview, matching: press, exact: &exact, latin: &latin) }
    }
}

extension View {
    /// The shortcut changed: a tooltip showing it shows the new one.
    func keyboardShortcutDidChange() {
        toolTipInteraction?.setNeedsUpdate()
        clickToolTipInteraction?.setNeedsUpdate()
    }
}
