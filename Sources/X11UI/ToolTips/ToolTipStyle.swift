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
    /// Space between the bubble's edge and the content, 0 to 64 on each side.
    public var padding: EdgeInsets {
        didSet { padding = Self.clamped(padding) }
    }
    /// Corner radius of the bubble (4–8 reads as a tooltip), 0 to 32.
    public var cornerRadius: Double {
        didSet { cornerRadius = Self.clamped(cornerRadius: cornerRadius) }
    }
    /// Arrow width along the edge (0 to 64) and length away from it (0 to 32); zero for no
    /// arrow.
    public var arrowSize: Size {
        didSet { arrowSize = Self.clamped(arrowSize) }
    }
    /// The soft shadow under the bubble when a compositor runs; nil for none.
    public var shadow: Shadow?
    /// Text wraps at this width, 40 to 4096.
    public var maxWidth: Double {
        didSet { maxWidth = Self.clamped(maxWidth: maxWidth) }
    }
    /// Text beyond this height is cut with an ellipsis; 20 to 4096.
    public var maxHeight: Double {
        didSet { maxHeight = Self.clamped(maxHeight: maxHeight) }
    }

    /// A drop shadow.
    public struct Shadow: Hashable, Sendable {
        /// The shadow's colour at its darkest.
        public var color: Color
        /// The blur radius, 0 to 32.
        public var radius: Double {
            didSet { radius = Self.clamped(radius: radius) }
        }
        /// How far the shadow falls (down and right when positive); finite.
        public var offset: Point {
            didSet { offset = Self.clamped(offset: offset) }
        }

        /// Creates a shadow; the radius and offset are clamped as the setters clamp them.
        public init(color: Color, radius: Double, offset: Point) {
            self.color = color
            self.radius = Self.clamped(radius: radius)
            self.offset = Self.clamped(offset: offset)
        }

        private static func clamped(radius: Double) -> Double { radius.isFinite ? min(max(radius, 0), 32) : 0 }
        private static func clamped(offset: Point) -> Point { offset.isFinite ? offset : .zero }
    }

    /// Creates a style; out-of-range lengths are clamped, as the setters clamp them.
    public init(
        background: Color, foreground: Color, border: Color, font: Font = .body,
        padding: EdgeInsets = EdgeInsets(all: 8), cornerRadius: Double = 6,
        arrowSize: Size = Size(width: 14, height: 7), shadow: Shadow? = nil, maxWidth: Double = 360,
        maxHeight: Double = 480
    ) {
        self.background = background
        self.foreground = foreground
        self.border = border
        self.font = font
        self.padding = Self.clamped(padding)
        self.cornerRadius = Self.clamped(cornerRadius: cornerRadius)
        self.arrowSize = Self.clamped(arrowSize)
        self.shadow = shadow
        self.maxWidth = Self.clamped(maxWidth: maxWidth)
        self.maxHeight = Self.clamped(maxHeight: maxHeight)
    }

    // MARK: - Clamping (the initialiser and the setters)

    /// `v` within `low … high`; `fallback` (the default) when it is not a number.
    private static func length(_ v: Double, _ low: Double, _ high: Double, _ fallback: Double) -> Double {
        v.isFinite ? min(max(v, low), high) : fallback
    }

    private static func clamped(_ padding: EdgeInsets) -> EdgeInsets {
        EdgeInsets(
            top: length(padding.top, 0, 64, 8), left: length(padding.left, 0, 64, 8),
            bottom: length(padding.bottom, 0, 64, 8), right: length(padding.right, 0, 64, 8))
    }

    private static func clamped(cornerRadius: Double) -> Double { length(cornerRadius, 0, 32, 6) }

    private static func clamped(_ arrowSize: Size) -> Size {
        Size(width: length(arrowSize.width, 0, 64, 14), height: length(arrowSize.height, 0, 32, 7))
    }

    private static func clamped(maxWidth: Double) -> Double { length(maxWidth, 40, 4096, 360) }
    private static func clamped(maxHeight: Double) -> Double { length(maxHeight, 20, 4096, 480) }

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
