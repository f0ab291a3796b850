/// What the presenter is asked to show, and what a window made ready ahead of its show
/// was made ready for.
extension ToolTipPresenter {
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
        /// The cursor shown at `pointer`.
        var cursor: CursorInk = .standard
        /// Whether the tooltip sits at the pointer rather than at `source`'s edge.
        var followsPointer = false
        /// The source view, kept clear when `source` is a part of it.
        var avoiding: Rect?
        /// The window the tooltip belongs to (`WM_TRANSIENT_FOR`).
        var owner: X11WindowID?
        /// The side a tooltip that follows the pointer is on already (kept while it fits).
        var keepsEdge: ToolTipPlacement.Edge?
        /// For an expansion tooltip: the full text and where the cut text is (`content` is
        /// then that text, and `source` the view whose text is cut).
        var expansion: Expansion?
        /// For an expansion tooltip: the view's own tooltip, below the full text.
        var ownContent: ToolTipConfiguration.Content?
        /// The source view's keyboard shortcut ("Ctrl+S"), shown after a text tooltip's text.
        var shortcut: String?
    }

    /// An expansion tooltip's text, and where the cut text is on the screen.
    struct Expansion: Equatable {
        var text: BytewiseString
        var font: Font
        /// The width the text wraps at, as in the view; nil for one line.
        var wrapWidth: Double?
        /// Where the cut text's first line starts, at its baseline (screen coordinates).
        var anchor: Point
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
        var cursor: CursorInk
        var followsPointer: Bool
        var avoiding: Rect?
        var owner: X11WindowID?
        var scale: Double
        var monitors: [Rect]
        var expansion: Expansion?

        /// Nil for rich content.
        @MainActor
        init?(_ request: Request, on application: Application) {
            guard case .text(let string) = request.content, request.ownContent == nil else { return nil }
            text = BytewiseString(string)
            shortcut = request.shortcut
            style = request.style
            appearance = application.appearance
            placement = request.placement
            source = request.source
            pointer = request.pointer
            cursor = request.cursor
            followsPointer = request.followsPointer
            avoiding = request.avoiding
            owner = request.owner
            scale = application.scale
            monitors = application.screen.monitors
            expansion = request.expansion
        }
    }
}
