/// A colour with straight (not premultiplied) alpha, each component from 0 to 1.
public struct Color: Hashable, Sendable {
    /// Red.
    public var red: Double
    /// Green.
    public var green: Double
    /// Blue.
    public var blue: Double
    /// Opacity: 0 is transparent, 1 opaque.
    public var alpha: Double

    /// Creates a colour from components between 0 and 1 (clamped).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// Creates a colour from a 24-bit `0xRRGGBB` value.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((rgb >> 16) & 0xff) / 255, green: Double((rgb >> 8) & 0xff) / 255,
            blue: Double(rgb & 0xff) / 255, alpha: alpha)
    }

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

    /// The same colour with another opacity.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// This colour mixed with `other`; `amount` 0 is this colour, 1 is `other`.
    public func mixed(with other: Color, amount: Double) -> Color {
        let t = min(1, max(0, amount))
        return Color(
            red: red + (other.red - red) * t, green: green + (other.green - green) * t,
            blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    /// The components as 16-bit values, as X wants them.
    var x16: (red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16) {
        (UInt16(red * 65535), UInt16(green * 65535), UInt16(blue * 65535), UInt16(alpha * 65535))
    }

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
    /// The string without leading and trailing spaces, tabs and newlines.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(self.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

extension Color {
    /// Text on light backgrounds.
    public static let label = Color(rgb: 0x1c1c1e)
    /// Secondary text (subtitles, captions).
    public static let secondaryLabel = Color(rgb: 0x636366)
    /// The accent of controls (filled buttons, focus rings, selections).
    public static let accent = Color(rgb: 0x0a64d8)
    /// The window background.
    public static let windowBackground = Color(rgb: 0xf2f2f7)
}
