/// A colour: either fixed components (straight, not premultiplied, alpha; each from 0 to 1), or
/// one of the appearance's named colours, resolved where it is drawn.
///
/// ```swift
/// swatch.backgroundColor = Color(rgb: 0x34c759)   // the same in every appearance
/// caption.textColor = .secondaryLabel             // follows light, dark and high contrast
/// ```
///
/// The named colours (``label``, ``secondaryLabel``, ``windowBackground``, ``accent`` and the
/// rest, in Appearance.swift) take the values of the appearance in force when a view draws, so a
/// switch from light to dark repaints them without the program doing anything. Derived colours
/// (``withAlpha(_:)``, ``multipliedAlpha(_:)``, ``mixed(with:amount:)``) keep following it.
public struct Color: Hashable, Sendable {
    /// What a colour is made of. Only the derived cases are boxed: a fixed or named colour is
    /// a plain value, made and copied without an allocation.
    enum Storage: Hashable, Sendable {
        /// Fixed components.
        case rgba(red: Double, green: Double, blue: Double, alpha: Double)
        /// A named colour of the appearance.
        case named(SemanticColor)
        /// Another colour with this opacity.
        indirect case alpha(Storage, Double)
        /// Another colour with its opacity multiplied by this factor.
        indirect case scaledAlpha(Storage, Double)
        /// Two colours mixed: 0 is the first, 1 the second.
        indirect case mix(Storage, Storage, Double)
    }

    let storage: Storage

    init(storage: Storage) { self.storage = storage }

    /// Creates a colour from components between 0 and 1 (clamped; NaN is 0).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        storage = .rgba(
            red: Self.clamp(red), green: Self.clamp(green), blue: Self.clamp(blue), alpha: Self.clamp(alpha))
    }

    /// Creates a colour from a 24-bit `0xRRGGBB` value.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((rgb >> 16) & 0xff) / 255, green: Double((rgb >> 8) & 0xff) / 255,
            blue: Double(rgb & 0xff) / 255, alpha: alpha)
    }

    private static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }

    /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa` or one of the named colours below; nil otherwise.
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace.lowercased()
        if let named = Color.named[trimmed] {
            self = named
            return
        }
        guard trimmed.hasPrefix("#") else { return nil }
        let hex = trimmed.dropFirst()
        guard hex.allSatisfy(\.isHexDigit), let value = UInt64(hex, radix: 16) else { return nil }
        switch hex.count {
        case 3:
            let r = (value >> 8) & 0xf
            let g = (value >> 4) & 0xf
            let b = value & 0xf
            self.init(red: Double(r) / 15, green: Double(g) / 15, blue: Double(b) / 15)
        case 6:
            self.init(rgb: UInt32(value))
        case 8:
            self.init(rgb: UInt32(value >> 8), alpha: Double(value & 0xff) / 255)
        default:
            return nil
        }
    }

    // MARK: - Components

    /// Whether the colour is one of the appearance's named colours, or made from one.
    public var followsAppearance: Bool {
        if case .rgba = storage { return false }
        return true
    }

    /// The colour's fixed components in `appearance` (a fixed colour is itself in every one).
    public func resolved(in appearance: Appearance) -> Color {
        if case .rgba = storage { return self }
        return resolved(with: appearance.palette)
    }

    /// The colour's fixed components in a palette (a drawing context keeps its appearance's).
    func resolved(with palette: Palette) -> Color {
        if case .rgba = storage { return self }
        return Color(storage: Self.resolve(storage, palette))
    }

    /// The components in a palette.
    private static func resolve(_ storage: Storage, _ palette: Palette) -> Storage {
        switch storage {
        case .rgba:
            return storage
        case .named(let name):
            return palette[name].storage
        case .alpha(let base, let alpha):
            guard case .rgba(let r, let g, let b, _) = resolve(base, palette) else { return base }
            return .rgba(red: r, green: g, blue: b, alpha: alpha)
        case .scaledAlpha(let base, let factor):
            guard case .rgba(let r, let g, let b, let a) = resolve(base, palette) else { return base }
            return .rgba(red: r, green: g, blue: b, alpha: clamp(a * factor))
        case .mix(let first, let second, let t):
            guard case .rgba(let r0, let g0, let b0, let a0) = resolve(first, palette),
                case .rgba(let r1, let g1, let b1, let a1) = resolve(second, palette)
            else { return first }
            return .rgba(
                red: r0 + (r1 - r0) * t, green: g0 + (g1 - g0) * t, blue: b0 + (b1 - b0) * t, alpha: a0 + (a1 - a0) * t)
        }
    }

    /// The components; a colour that follows the appearance gives its light appearance's
    /// (``resolved(in:)`` gives them in any other).
    private var components: (red: Double, green: Double, blue: Double, alpha: Double) {
        guard case .rgba(let r, let g, let b, let a) = resolved(in: .light).storage else { return (0, 0, 0, 1) }
        return (r, g, b, a)
    }

    /// Red, from 0 to 1 (in the light appearance, for a colour that follows the appearance;
    /// setting it makes the colour a fixed one).
    public var red: Double {
        get { components.red }
        set { self = Color(red: newValue, green: components.green, blue: components.blue, alpha: components.alpha) }
    }
    /// Green, from 0 to 1 (in the light appearance, for a colour that follows the appearance;
    /// setting it makes the colour a fixed one).
    public var green: Double {
        get { components.green }
        set { self = Color(red: components.red, green: newValue, blue: components.blue, alpha: components.alpha) }
    }
    /// Blue, from 0 to 1 (in the light appearance, for a colour that follows the appearance;
    /// setting it makes the colour a fixed one).
    public var blue: Double {
        get { components.blue }
        set { self = Color(red: components.red, green: components.green, blue: newValue, alpha: components.alpha) }
    }
    /// Opacity: 0 is transparent, 1 opaque (in the light appearance, for a colour that follows
    /// the appearance). Setting it is ``withAlpha(_:)``: a named colour keeps following.
    public var alpha: Double {
        get { components.alpha }
        set { self = withAlpha(newValue) }
    }

    // MARK: - Derived colours

    /// The same colour with another opacity.
    public func withAlpha(_ alpha: Double) -> Color {
        let alpha = Self.clamp(alpha)
        switch storage {
        case .rgba(let r, let g, let b, _): return Color(storage: .rgba(red: r, green: g, blue: b, alpha: alpha))
        case .alpha(let base, _): return Color(storage: .alpha(base, alpha))
        default: return Color(storage: .alpha(storage, alpha))
        }
    }

    /// The same colour with its opacity multiplied by `factor` (a dimmed, disabled control).
    public func multipliedAlpha(_ factor: Double) -> Color {
        let factor = Self.clamp(factor)
        if case .rgba(let r, let g, let b, let a) = storage {
            return Color(storage: .rgba(red: r, green: g, blue: b, alpha: a * factor))
        }
        return Color(storage: .scaledAlpha(storage, factor))
    }

    /// This colour mixed with `other`; `amount` 0 is this colour, 1 is `other`.
    public func mixed(with other: Color, amount: Double) -> Color {
        let t = Self.clamp(amount)
        if case .rgba(let r0, let g0, let b0, let a0) = storage,
            case .rgba(let r1, let g1, let b1, let a1) = other.storage
        {
            return Color(
                storage: .rgba(
                    red: r0 + (r1 - r0) * t, green: g0 + (g1 - g0) * t, blue: b0 + (b1 - b0) * t,
                    alpha: a0 + (a1 - a0) * t))
        }
        return Color(storage: .mix(storage, other.storage, t))
    }

    /// The components as 16-bit values, as X wants them (of the colour resolved already).
    var x16: (red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16) {
        let c = components
        return (UInt16(c.red * 65535), UInt16(c.green * 65535), UInt16(c.blue * 65535), UInt16(c.alpha * 65535))
    }

    // MARK: - Fixed colours

    /// Black, `#000000`.
    public static let black = Color(rgb: 0x000000)
    /// White, `#ffffff`.
    public static let white = Color(rgb: 0xffffff)
    /// Fully transparent.
    public static let clear = Color(rgb: 0, alpha: 0)
    /// A mid grey, `#8e8e93`.
    public static let gray = Color(rgb: 0x8e8e93)
    /// A light grey for borders and separators, `#d1d1d6`.
    public static let lightGray = Color(rgb: 0xd1d1d6)
    /// Red, `#ff3b30`.
    public static let red = Color(rgb: 0xff3b30)
    /// Orange, `#ff9500`.
    public static let orange = Color(rgb: 0xff9500)
    /// Yellow, `#ffcc00`.
    public static let yellow = Color(rgb: 0xffcc00)
    /// Green, `#34c759`.
    public static let green = Color(rgb: 0x34c759)
    /// Blue, `#007aff`.
    public static let blue = Color(rgb: 0x007aff)
    /// Purple, `#af52de`.
    public static let purple = Color(rgb: 0xaf52de)
    /// Pink, `#ff2d55`.
    public static let pink = Color(rgb: 0xff2d55)

    /// The names `Color(parsing:)` knows.
    static let named: [String: Color] = [
        "black": .black, "white": .white, "clear": .clear, "transparent": .clear, "gray": .gray,
        "grey": .gray, "lightgray": .lightGray, "red": .red, "orange": .orange, "yellow": .yellow,
        "green": .green, "blue": .blue, "purple": .purple, "pink": .pink,
    ]
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines (`\r\n` included).
    ///
    /// Found on the UTF-8 bytes: these are ASCII, so the cut falls on a character's boundary,
    /// and no reversed views of characters are made (their generic types' metadata, made at
    /// the first use, cost start-up 0.8 million instructions when resources were read).
    var trimmingWhitespace: String {
        let bytes = utf8
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first..<bytes.index(after: last)])
    }
}
