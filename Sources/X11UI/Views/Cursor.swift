/// The shape of the mouse pointer over a view: a name from the user's cursor theme, drawn as
/// the desktop's other programs draw it.
///
/// Set it on a view with ``View/cursor``; the views inside it that set none show it too:
///
/// ```swift
/// link.cursor = .pointingHand
/// editor.cursor = .text                     // a TextView has it already
/// ```
///
/// Each cursor is named as the freedesktop cursor specification (and CSS) names it, with the
/// older X names that themes also use as fallbacks. Without libXcursor, or when the theme has
/// none of the names, the X server's own cursor of that shape stands in for it.
public struct Cursor: Hashable, Sendable {
    /// The cursor's name in the cursor specification (`"pointer"`).
    public let name: String
    /// Older names a theme may have it under instead, tried in order (`"hand2"`).
    public let fallbacks: [String]

    /// A cursor of the user's theme by name, with older names to try when the theme lacks it:
    /// any name of the cursor specification (`"zoom-in"`, `"copy"`, `"cell"`).
    ///
    /// Without a theme that has one of the names, the core X cursor of the first name that is
    /// one stands in for it (an arrow when none is).
    public init(name: String, fallbacks: [String] = []) {
        self.name = name
        self.fallbacks = fallbacks
    }

    /// Every name to look for, in order.
    var names: [String] { [name] + fallbacks }

    /// The ordinary arrow.
    public static let arrow = Cursor(name: "default", fallbacks: ["left_ptr"])
    /// The I-beam over text that can be selected or edited.
    public static let text = Cursor(name: "text", fallbacks: ["xterm", "ibeam"])
    /// The pointing hand over a link or something that acts on a click.
    public static let pointingHand = Cursor(name: "pointer", fallbacks: ["hand2", "pointing_hand", "hand1"])
    /// The crosshair, for picking a point or a colour.
    public static let crosshair = Cursor(name: "crosshair", fallbacks: ["cross", "tcross"])
    /// Help is available for what is under the pointer.
    public static let help = Cursor(name: "help", fallbacks: ["question_arrow", "whats_this", "left_ptr_help"])
    /// The program is busy and takes no input.
    public static let wait = Cursor(name: "wait", fallbacks: ["watch"])
    /// The program is busy but still takes input.
    public static let progress = Cursor(name: "progress", fallbacks: ["left_ptr_watch", "half-busy", "watch"])
    /// What is under the pointer cannot be used or dropped on.
    public static let notAllowed = Cursor(name: "not-allowed", fallbacks: ["crossed_circle", "forbidden", "circle"])
    /// Something can be moved.
    public static let move = Cursor(name: "move", fallbacks: ["fleur", "size_all"])
    /// Something can be grabbed (an open hand).
    public static let grab = Cursor(name: "grab", fallbacks: ["openhand", "hand1"])
    /// Something is being dragged (a closed hand).
    public static let grabbing = Cursor(name: "grabbing", fallbacks: ["closedhand", "fleur"])
    /// An edge that resizes left and right (a split view's divider).
    public static let resizeLeftRight = Cursor(
        name: "ew-resize", fallbacks: ["col-resize", "sb_h_double_arrow", "h_double_arrow", "size_hor"])
    /// An edge that resizes up and down.
    public static let resizeUpDown = Cursor(
        name: "ns-resize", fallbacks: ["row-resize", "sb_v_double_arrow", "v_double_arrow", "size_ver"])
    /// A corner that resizes toward the top left and bottom right.
    public static let resizeDiagonal = Cursor(
        name: "nwse-resize", fallbacks: ["bd_double_arrow", "size_fdiag", "bottom_right_corner"])
    /// A corner that resizes toward the top right and bottom left.
    public static let resizeAntiDiagonal = Cursor(
        name: "nesw-resize", fallbacks: ["fd_double_arrow", "size_bdiag", "bottom_left_corner"])
}
