/// The cursor a window shows: the one the view under the pointer asks for (``View/cursor``,
/// inherited down the tree), defined on the X window only when it changes.
extension Window {
    /// Defines the cursor the views under the pointer ask for, when it is not the one the
    /// window has: called when the pointer moves onto other views (not for motion within one)
    /// and when a view under it changes its cursor. A pointer outside the window changes
    /// nothing: its cursor shows only inside.
    func updateCursor() {
        let chain = hover.chain
        guard !chain.isEmpty else { return }
        var wanted: Cursor?
        var index = chain.count
        while index > 0, wanted == nil {
            index -= 1
            wanted = chain[index].cursor
        }
        guard wanted != hover.cursor else { return }
        define(wanted)
    }

    /// A view's cursor changed: the window shows the new one if the view is under the pointer.
    func viewCursorDidChange(_ view: View) {
        if hover.chain.contains(where: { $0 === view }) { updateCursor() }
    }

    /// Takes back a cursor the views asked for: the window shows its parent's again (a tooltip
    /// window about to show other content, whose views may hear no pointer).
    func resetCursor() {
        if hover.cursor != nil { define(nil) }
    }

    /// Defines the window's cursor again (the theme changed: the cursor is a new one).
    func redefineCursor() {
        guard let cursor = hover.cursor, let application, let native, native.isOwned else { return }
        native.defineCursor(application.cursorID(for: cursor))
    }

    /// One request: the cursor, or none (the parent's shows: the window's default). A window
    /// of another client (a host's, that X11UI only adds tooltips to) keeps the cursor its
    /// owner gave it.
    private func define(_ cursor: Cursor?) {
        guard let application, let native, native.isOwned else { return }
        hover.cursor = cursor
        native.defineCursor(cursor.map { application.cursorID(for: $0) } ?? 0)
    }
}
