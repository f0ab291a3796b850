/// The look of tooltips, as a value: set it app-wide (`application.toolTips.style`) or per
/// interaction (`interaction.style`).
///
/// Lengths are pixels at 96 dpi and scale with `Xft.dpi`.
public struct ToolTipStyle: Hashable, Sendable {
    /// The bubble's fill. Its alpha applies only when a compositor runs.
    public var background: Color
    /// The text colour.
    public var foreground: Color
    /// The 1 px outline of the bubble and arrow.
    public var border: Color
    /// The text font (not the source's: a tooltip on a big icon still uses this).
    public var font: Font
    /// Space between the bubble's edge and the content.
    public var padding: EdgeInsets
    /// Corner radius of the bubble (4–8 reads as a tooltip).
    public var cornerRadius: Double
    /// Arrow width along the edge and length away from it; zero for no arrow.
    public var arrowSize: Size
    /// The soft shadow under the bubble when a compositor runs; nil for none.
    public var shadow: Shadow?
    /// Text wraps at this width.
    public var maxWidth: Double
    /// Text beyond this height is cut with an ellipsis.
    public var maxHeight: Double

    /// A drop shadow.
    public struct Shadow: Hashable, Sendable {
        /// The shadow's colour at its darkest.
        public var color: Color
        /// The blur radius.
        public var radius: Double
        /// How far the shadow falls (down and right when positive).
        public var offset: Point

        /// Creates a shadow.
        public init(color: Color, radius: Double, offset: Point) {
            self.color = color
            self.radius = radius.isFinite ? min(max(radius, 0), 32) : 0
            self.offset = offset.isFinite ? offset : .zero
        }
    }

    /// Creates a style; out-of-range lengths are clamped.
    public init(
        background: Color, foreground: Color, border: Color, font: Font = .body,
        padding: EdgeInsets = EdgeInsets(all: 8), cornerRadius: Double = 6,
        arrowSize: Size = Size(width: 14, height: 7), shadow: Shadow? = nil, maxWidth: Double = 360,
        maxHeight: Double = 480
    ) {
        func length(_ v: Double, _ low: Double, _ high: Double, _ fallback: Double) -> Double {
            v.isFinite ? min(max(v, low), high) : fallback
        }
        self.background = background
        self.foreground = foreground
        self.border = border
        self.font = font
        self.padding = EdgeInsets(
            top: length(padding.top, 0, 64, 8), left: length(padding.left, 0, 64, 8),
            bottom: length(padding.bottom, 0, 64, 8), right: length(padding.right, 0, 64, 8))
        self.cornerRadius = length(cornerRadius, 0, 32, 6)
        self.arrowSize = Size(
            width: length(arrowSize.width, 0, 64, 14), height: length(arrowSize.height, 0, 32, 7))
        self.shadow = shadow
        self.maxWidth = length(maxWidth, 40, 4096, 360)
        self.maxHeight = length(maxHeight, 20, 4096, 480)
    }

    /// Dark text on a pale bubble.
    public static let light = ToolTipStyle(
        background: Color(rgb: 0xfdfdfd, alpha: 0.96), foreground: Color(rgb: 0x1c1c1e),
        border: Color(rgb: 0xb8b8bf),
        shadow: Shadow(color: Color(rgb: 0, alpha: 0.22), radius: 6, offset: Point(x: 0, y: 2)))

    /// Light text on a dark bubble (the default, as on most desktops).
    public static let dark = ToolTipStyle(
        background: Color(rgb: 0x2c2c2e, alpha: 0.94), foreground: Color(rgb: 0xf5f5f7),
        border: Color(rgb: 0x48484a),
        shadow: Shadow(color: Color(rgb: 0, alpha: 0.35), radius: 6, offset: Point(x: 0, y: 2)))
}
