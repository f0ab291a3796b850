/// What the tooltip window is asked to show, and what a window made ready ahead of its show
/// was made ready for.
extension ToolTipWindow {
    /// What a show is given: the content and its style, and where it goes (screen
    /// coordinates).
    struct Request {
        var content: ToolTipConfiguration.Content
        var style: ToolTipStyle
        var placement: ToolTipPlacement
        /// What the tooltip points at.
        var source: Rect
        /// The pointer the tooltip keeps clear of.
        var pointer: Point?
        /// Whether the tooltip sits at the pointer rather than at `source`'s edge.
        var followsPointer = false
        /// The source view, kept clear when `source` is a part of it.
        var avoiding: Rect?
        /// The window the tooltip belongs to (`WM_TRANSIENT_FOR`).
        var owner: X11WindowID?
        /// The source view's keyboard shortcut ("Ctrl+S"), shown after a text tooltip's text.
        var shortcut: String?
    }

    /// A text tooltip's request, and what else its placement depends on: what a prepared
    /// window was made ready for.
    struct Prepared: Equatable {
        var text: BytewiseString
        var shortcut: String?
        var style: ToolTipStyle
        /// The appearance it was painted in.
        var appearance: Appearance
        var placement: ToolTipPlacement
        var source: Rect
        var pointer: Point?
        var followsPointer: Bool
        var avoiding: Rect?
        var owner: X11WindowID?
        var scale: Double
        var monitors: [Rect]

        /// Nil for rich content.
        @MainActor
        init?(_ request: Request, on application: Application) {
            guard case .text(let string) = request.content else { return nil }
            text = BytewiseString(string)
            shortcut = request.shortcut
            style = request.style
            appearance = application.appearance
            placement = request.placement
            source = request.source
            pointer = request.pointer
            followsPointer = request.followsPointer
            avoiding = request.avoiding
            owner = request.owner
            scale = application.scale
            monitors = application.screen.monitors
        }
    }
}
