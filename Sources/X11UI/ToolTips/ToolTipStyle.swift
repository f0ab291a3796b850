/// The look of tooltips, as a value: set it app-wide (`application.toolTips.style`) or per
/// interaction (`interaction.style`).
///
/// Lengths are pixels at 96 dpi and scale with `Xft.dpi`.
public struct ToolTipStyle: Hashable, Sendable {
    /// The bubble's fill. Its alpha applies only when a compositor runs.
    public var background: Color
    /// The text colour.
    public var foreground: Color
    /// The colour of secondary text: a view's keyboard shortcut after the tooltip's text.
    public var secondaryForeground: Color
    /// The 1 px outline of the bubble and arrow.
    public var border: Color
    /// The text font (not the source's: a tooltip on a big icon still uses this).
    public var font: Font
    /// The soft shadow under the bubble when a compositor runs; nil for none.
    public var shadow: Shadow?

    // Lengths are validated when set, through the initializer or a property alike: a value
    // out of range is clamped, one that is not a number is the default.

    /// Space between the bubble's edge and the content (0–64 on each side).
    public var padding: EdgeInsets {
        get { validPadding }
        set { validPadding = Self.valid(padding: newValue) }
    }
    /// Corner radius of the bubble (0–32; 4–8 reads as a tooltip).
    public var cornerRadius: Double {
        get { validCornerRadius }
        set { validCornerRadius = Self.length(newValue, 0, 32, 6) }
    }
    /// Arrow width along the edge (0–64) and length away from it (0–32); zero for no arrow.
    public var arrowSize: Size {
        get { validArrowSize }
        set { validArrowSize = Self.valid(arrowSize: newValue) }
    }
    /// Text wraps at this width (40–4096).
    public var maxWidth: Double {
        get { validMaxWidth }
        set { validMaxWidth = Self.length(newValue, 40, 4096, 360) }
    }
    /// Text beyond this height is cut with an ellipsis (20–4096).
    public var maxHeight: Double {
        get { validMaxHeight }
        set { validMaxHeight = Self.length(newValue, 20, 4096, 480) }
    }

    private var validPadding: EdgeInsets
    private var validCornerRadius: Double
    private var validArrowSize: Size
    private var validMaxWidth: Double
    private var validMaxHeight: Double

    static func length(_ v: Double, _ low: Double, _ high: Double, _ fallback: Double) -> Double {
        v.isNaN ? fallback : min(max(v, low), high)
    }

    private static func valid(padding: EdgeInsets) -> EdgeInsets {
        EdgeInsets(
            top: length(padding.top, 0, 64, 8), left: length(padding.left, 0, 64, 8),
            bottom: length(padding.bottom, 0, 64, 8), right: length(padding.right, 0, 64, 8))
    }

    private static func valid(arrowSize: Size) -> Size {
        Size(width: length(arrowSize.width, 0, 64, 14), height: length(arrowSize.height, 0, 32, 7))
    }

    /// A drop shadow.
    public struct Shadow: Hashable, Sendable {
        /// The shadow's colour at its darkest.
        public var color: Color
        /// The blur radius (0–32).
        public var radius: Double {
            get { validRadius }
            set { validRadius = ToolTipStyle.length(newValue, 0, 32, 0) }
        }
        /// How far the shadow falls (down and right when positive; up to 64 either way).
        public var offset: Point {
            get { validOffset }
            set { validOffset = Self.valid(offset: newValue) }
        }
        private var validRadius: Double
        private var validOffset: Point

        /// Creates a shadow.
        public init(color: Color, radius: Double, offset: Point) {
            self.color = color
            validRadius = ToolTipStyle.length(radius, 0, 32, 0)
            validOffset = Self.valid(offset: offset)
        }

        private static func valid(offset: Point) -> Point {
            Point(x: ToolTipStyle.length(offset.x, -64, 64, 0), y: ToolTipStyle.length(offset.y, -64, 64, 0))
        }
    }

    /// Creates a style; out-of-range lengths are clamped. The secondary colour is, unless
    /// given, the foreground at 70% opacity.
    public init(
        background: Color, foreground: Color, secondaryForeground: Color? = nil, border: Color, font: Font = .body,
        padding: EdgeInsets = EdgeInsets(all: 8), cornerRadius: Double = 6,
        arrowSize: Size = Size(width: 14, height: 7), shadow: Shadow? = nil, maxWidth: Double = 360,
        maxHeight: Double = 480
    ) {
        self.background = background
        self.foreground = foreground
        self.secondaryForeground = secondaryForeground ?? foreground.multipliedAlpha(0.7)
        self.border = border
        self.font = font
        validPadding = Self.valid(padding: padding)
        validCornerRadius = Self.length(cornerRadius, 0, 32, 6)
        validArrowSize = Self.valid(arrowSize: arrowSize)
        self.shadow = shadow
        validMaxWidth = Self.length(maxWidth, 40, 4096, 360)
        validMaxHeight = Self.length(maxHeight, 20, 4096, 480)
    }

    /// The appearance's tooltip: its named colours (``Color/toolTipBackground``,
    /// ``Color/toolTipLabel``, ``Color/toolTipSecondaryLabel``, ``Color/toolTipBorder``,
    /// ``Color/toolTipShadow``), so the bubble follows light, dark and high contrast. The
    /// default: light text on a dark bubble in the light appearance (as ``dark`` is), a lighter
    /// grey bubble in the dark one, black and white in high contrast.
    public static let standard = ToolTipStyle(
        background: .toolTipBackground, foreground: .toolTipLabel, secondaryForeground: .toolTipSecondaryLabel,
        border: .toolTipBorder,
        shadow: Shadow(color: .toolTipShadow, radius: 6, offset: Point(x: 0, y: 2)))

    /// Dark text on a pale bubble, in every appearance.
    public static let light = ToolTipStyle(
        background: Color(rgb: 0xfdfdfd, alpha: 0.96), foreground: Color(rgb: 0x1c1c1e),
        secondaryForeground: Color(rgb: 0x5c5c61), border: Color(rgb: 0xb8b8bf),
        shadow: Shadow(color: Color(rgb: 0, alpha: 0.22), radius: 6, offset: Point(x: 0, y: 2)))

    /// Light text on a dark bubble, in every appearance (the light appearance's ``standard``).
    public static let dark = ToolTipStyle(
        background: Color(rgb: 0x2c2c2e, alpha: 0.94), foreground: Color(rgb: 0xf5f5f7),
        secondaryForeground: Color(rgb: 0xaeaeb2), border: Color(rgb: 0x48484a),
        shadow: Shadow(color: Color(rgb: 0, alpha: 0.35), radius: 6, offset: Point(x: 0, y: 2)))
}
