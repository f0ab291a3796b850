internal import Glibc

/// The values of the named colours in one appearance.
///
/// Four palettes are X11UI's own (light, dark, and a high-contrast one of each); an accent from
/// the desktop or the program replaces the accent and the colours made from it, with the text
/// on and around it chosen to keep the palette's contrast (4.5:1 for text in the standard
/// palettes, 7:1 in the high-contrast ones: WCAG AA and AAA). `PaletteContrastTests` computes
/// every pair from these values.
struct Palette: Sendable {
    private var values: [Color]

    subscript(name: SemanticColor) -> Color {
        get { values[name.rawValue] }
        set { values[name.rawValue] = newValue }
    }

    /// The least contrast of text with its background in this palette.
    let textContrast: Double

    private init(textContrast: Double, _ pairs: KeyValuePairs<SemanticColor, Color>) {
        self.textContrast = textContrast
        values = [Color](repeating: .clear, count: SemanticColor.allCases.count)
        for (name, color) in pairs { values[name.rawValue] = color }
    }

    static let light = Palette(
        textContrast: 4.5,
        [
            .label: Color(rgb: 0x1c1c1e), .secondaryLabel: Color(rgb: 0x58585d),
            .windowBackground: Color(rgb: 0xf2f2f7), .controlBackground: Color(rgb: 0xffffff),
            .controlBorder: .clear, .separator: Color(rgb: 0xc7c7cc),
            .accent: Color(rgb: 0x0a64d8), .accentForeground: .white, .accentText: Color(rgb: 0x0c55b3),
            .accentShade: .black, .selection: Color(rgb: 0x0a64d8, alpha: 0.28),
            .focusRing: Color(rgb: 0x0a64d8, alpha: 0.8),
            .toolTipBackground: Color(rgb: 0x2c2c2e, alpha: 0.94), .toolTipLabel: Color(rgb: 0xf5f5f7),
            .toolTipBorder: Color(rgb: 0x48484a), .toolTipShadow: Color(rgb: 0, alpha: 0.35),
            .toolTipSecondaryLabel: Color(rgb: 0xaeaeb2),
        ])

    static let dark = Palette(
        textContrast: 4.5,
        [
            .label: Color(rgb: 0xf2f2f7), .secondaryLabel: Color(rgb: 0xaeaeb4),
            .windowBackground: Color(rgb: 0x1c1c1e), .controlBackground: Color(rgb: 0x2a2a2d),
            .controlBorder: .clear, .separator: Color(rgb: 0x48484c),
            .accent: Color(rgb: 0x0a64d8), .accentForeground: .white, .accentText: Color(rgb: 0x5aa9ff),
            .accentShade: .black, .selection: Color(rgb: 0x3d8ef5, alpha: 0.42),
            .focusRing: Color(rgb: 0x5aa9ff, alpha: 0.75),
            .toolTipBackground: Color(rgb: 0x3a3a3d, alpha: 0.96), .toolTipLabel: Color(rgb: 0xf5f5f7),
            .toolTipBorder: Color(rgb: 0x5c5c61), .toolTipShadow: Color(rgb: 0, alpha: 0.5),
            .toolTipSecondaryLabel: Color(rgb: 0xbcbcc1),
        ])

    static let highContrastLight = Palette(
        textContrast: 7,
        [
            .label: .black, .secondaryLabel: Color(rgb: 0x2c2c2e),
            .windowBackground: .white, .controlBackground: .white,
            .controlBorder: .black, .separator: .black,
            .accent: Color(rgb: 0x0040b0), .accentForeground: .white, .accentText: Color(rgb: 0x003797),
            .accentShade: .black, .selection: Color(rgb: 0x0040b0, alpha: 0.22),
            .focusRing: Color(rgb: 0x0040b0),
            .toolTipBackground: .black, .toolTipLabel: .white,
            .toolTipBorder: .black, .toolTipShadow: Color(rgb: 0, alpha: 0.35),
            .toolTipSecondaryLabel: Color(rgb: 0xd1d1d6),
        ])

    static let highContrastDark = Palette(
        textContrast: 7,
        [
            .label: .white, .secondaryLabel: Color(rgb: 0xe5e5ea),
            .windowBackground: .black, .controlBackground: .black,
            .controlBorder: .white, .separator: .white,
            .accent: Color(rgb: 0x0047c2), .accentForeground: .white, .accentText: Color(rgb: 0x8cc4ff),
            .accentShade: .black, .selection: Color(rgb: 0x8cc4ff, alpha: 0.35),
            .focusRing: Color(rgb: 0x8cc4ff),
            .toolTipBackground: .black, .toolTipLabel: .white,
            .toolTipBorder: .white, .toolTipShadow: Color(rgb: 0, alpha: 0.5),
            .toolTipSecondaryLabel: Color(rgb: 0xd1d1d6),
        ])

    /// The base palette with `appearance`'s accent (which must be set).
    init(_ appearance: Appearance) {
        let base = Appearance(scheme: appearance.scheme, contrast: appearance.contrast).palette
        self = base
        guard let given = appearance.accent?.withAlpha(1) else { return }
        let needed = base.textContrast
        // Text on the accent: white unless black reads better (a light accent); an accent
        // neither reads on enough is moved away from its text until one does.
        let white = Self.contrast(.white, given)
        let black = Self.contrast(.black, given)
        let onAccent: Color = white >= needed || white >= black ? .white : .black
        let accent = Self.adjust(given, against: onAccent, to: needed)
        self[.accent] = accent
        self[.accentForeground] = onAccent
        self[.accentShade] = onAccent == .white ? .black : .white
        // The accent as text, and the secondary label, on the backgrounds and on the accent's
        // tint over them (a plain button's, strongest when pressed): moved towards the label's
        // colour until they read on all of them.
        let backgrounds = [base[.windowBackground], base[.controlBackground]]
        let grounds = backgrounds + backgrounds.map { Self.over(accent.withAlpha(Self.pressedTint), $0) }
        func readable(_ color: Color) -> Color {
            var color = color
            for _ in 0..<2 {
                for ground in grounds { color = Self.adjust(color, against: ground, to: needed, towards: base[.label]) }
            }
            return color
        }
        let text = readable(accent)
        self[.accentText] = text
        self[.secondaryLabel] = readable(base[.secondaryLabel])
        // Selected text keeps the label's contrast: the selection is made fainter until it does.
        var alpha = appearance.scheme == .light ? 0.28 : 0.42
        while alpha > 0.06,
            backgrounds.contains(where: { Self.contrast(base[.label], Self.over(accent.withAlpha(alpha), $0)) < needed }
            )
        {
            alpha -= 0.02
        }
        self[.selection] = accent.withAlpha(alpha)
        self[.focusRing] = appearance.contrast == .high ? text : text.withAlpha(0.85)
    }

    /// The accent's tint behind a pressed plain button (hovered 0.14, at rest 0.08).
    static let pressedTint = 0.22

    // MARK: - Contrast (WCAG 2.1)

    /// The relative luminance of a colour's components (sRGB).
    static func luminance(_ color: Color) -> Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        let c = color.resolved(in: .light)
        return 0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
    }

    /// The contrast ratio of two opaque colours, from 1 to 21.
    static func contrast(_ a: Color, _ b: Color) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// `top` composited over an opaque `bottom`.
    static func over(_ top: Color, _ bottom: Color) -> Color {
        let t = top.resolved(in: .light)
        return bottom.resolved(in: .light).mixed(with: t.withAlpha(1), amount: t.alpha)
    }

    /// `color` mixed towards `towards` (by default the end farther from `background`) just
    /// enough for `needed` contrast against `background`.
    static func adjust(_ color: Color, against background: Color, to needed: Double, towards: Color? = nil) -> Color {
        if contrast(color, background) >= needed { return color }
        let target = towards ?? (luminance(background) > 0.18 ? Color.black : Color.white)
        var low = 0.0
        var high = 1.0
        for _ in 0..<24 {
            let middle = (low + high) / 2
            if contrast(color.mixed(with: target, amount: middle), background) >= needed {
                high = middle
            } else {
                low = middle
            }
        }
        return color.mixed(with: target, amount: high)
    }
}
