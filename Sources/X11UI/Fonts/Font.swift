/// A font request: a fontconfig family, a size and a weight.
///
/// Sizes are in pixels at 96 dpi; X11UI scales them by `Xft.dpi`. Characters the family lacks
/// are drawn with fallback fonts found per character (see `FontSet`).
public struct Font: Hashable, Sendable {
    /// The weight of the face.
    public enum Weight: Hashable, Sendable {
        /// Body text.
        case regular
        /// Slightly heavier than regular.
        case medium
        /// Between medium and bold (titles, button titles).
        case semibold
        /// Bold.
        case bold

        /// fontconfig's weight number.
        var fontconfigValue: Int32 {
            switch self {
            case .regular: return 80
            case .medium: return 100
            case .semibold: return 180
            case .bold: return 200
            }
        }
    }

    /// The fontconfig family name or generic family (`"sans-serif"`, `"DejaVu Sans"`).
    public var family: String
    /// The size in pixels at 96 dpi (1–512; a value out of range is clamped, one that is not
    /// a number is 13).
    public var size: Double {
        get { validSize }
        set { validSize = Self.valid(size: newValue) }
    }
    private var validSize: Double
    /// The weight.
    public var weight: Weight

    /// Creates a font request.
    public init(family: String = "sans-serif", size: Double = 13, weight: Weight = .regular) {
        self.family = family
        validSize = Self.valid(size: size)
        self.weight = weight
    }

    private static func valid(size: Double) -> Double { size.isNaN ? 13 : min(max(size, 1), 512) }

    /// The toolkit's text font.
    public static let body = Font()
    /// A smaller font for secondary text.
    public static let caption = Font(size: 11)
    /// A larger bold font for titles.
    public static let title = Font(size: 17, weight: .semibold)

    /// The same family and weight at another size.
    public func withSize(_ size: Double) -> Font { Font(family: family, size: size, weight: weight) }

    /// The same family and size at another weight.
    public func withWeight(_ weight: Weight) -> Font { Font(family: family, size: size, weight: weight) }
}
