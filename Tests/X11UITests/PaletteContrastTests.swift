import Testing

@testable import X11UI

/// The contrast of text with every background it is drawn on, computed from the palettes as
/// WCAG 2.1 defines it: at least 4.5:1 (AA) in the light and dark appearances, 7:1 (AAA) in
/// both high-contrast ones, with X11UI's accent and with accents a desktop or a program may
/// give. Focus rings and high-contrast outlines, which are not text, need 3:1 (WCAG 1.4.11).
@Suite struct PaletteContrastTests {
    static let schemes: [(Appearance.Scheme, Appearance.Contrast)] = [
        (.light, .standard), (.dark, .standard), (.light, .high), (.dark, .high),
    ]

    /// X11UI's own (nil), and accents that test the derivation: yellow (light, white text
    /// fails on it), pure blue, a mid grey (neither white nor black reaches 7:1), a very dark
    /// and a very light one, green and red.
    static let accents: [Color?] = [
        nil, Color(rgb: 0xffcc00), Color(rgb: 0x0000ff), Color(rgb: 0x808080), Color(rgb: 0x101010),
        Color(rgb: 0xf0f0f0), Color(rgb: 0x34c759), Color(rgb: 0xff3b30),
    ]

    /// The pairs below `needed` (text) or 3:1 (the rest) in a palette, as readable lines.
    static func failures(_ palette: Palette, needed: Double, highContrast: Bool) -> [String] {
        var failures: [String] = []
        func check(
            _ what: String, _ foreground: SemanticColor, on ground: Color, _ groundName: String, needs: Double
        ) {
            // A translucent foreground (a focus ring) is seen over what it is drawn on.
            let seen = Palette.over(palette[foreground], ground)
            let ratio = Palette.contrast(seen, ground)
            if ratio < needs {
                failures.append("\(what) \(foreground) on \(groundName): \(ratio) < \(needs)")
            }
        }
        let window = palette[.windowBackground]
        let control = palette[.controlBackground]
        let grounds: [(Color, String)] = [(window, "windowBackground"), (control, "controlBackground")]
        for (ground, name) in grounds {
            check("text", .label, on: ground, name, needs: needed)
            check("text", .secondaryLabel, on: ground, name, needs: needed)
            check("text", .accentText, on: ground, name, needs: needed)
            // Selected text: the label on the selection over the background.
            check("text", .label, on: Palette.over(palette[.selection], ground), "selection on \(name)", needs: needed)
        }
        // A plain button: the accent as text, and the secondary label, on the accent's tint
        // at rest, hovered and pressed.
        for strength in [0.08, 0.14, Palette.pressedTint] {
            let tint = Palette.over(palette[.accent].withAlpha(strength), window)
            check("text", .accentText, on: tint, "accent tint \(strength)", needs: needed)
            check("text", .secondaryLabel, on: tint, "accent tint \(strength)", needs: needed)
        }
        // A filled button at rest, hovered and pressed.
        for shade in [0, 0.1, 0.25] {
            let fill = Palette.over(palette[.accent].mixed(with: palette[.accentShade], amount: shade), window)
            check("text", .accentForeground, on: fill, "accent shaded \(shade)", needs: needed)
        }
        // The default tooltip, its text and its secondary text (a keyboard shortcut): opaque
        // without a compositor; translucent over whatever is under it with one (white, black,
        // the window).
        let bubble = palette[.toolTipBackground]
        for text in [SemanticColor.toolTipLabel, .toolTipSecondaryLabel] {
            check("text", text, on: bubble.withAlpha(1), "toolTipBackground", needs: needed)
            for (under, name) in [(Color.white, "white"), (Color.black, "black"), (window, "windowBackground")] {
                check("text", text, on: Palette.over(bubble, under), "toolTipBackground over \(name)", needs: needed)
            }
        }
        check("ring", .focusRing, on: window, "windowBackground", needs: 3)
        check("ring", .focusRing, on: control, "controlBackground", needs: 3)
        if highContrast {
            check("outline", .controlBorder, on: window, "windowBackground", needs: 3)
            check("outline", .toolTipBorder, on: window, "windowBackground", needs: 3)
        }
        return failures
    }

    @Test(arguments: 0..<4)
    func everyTextPairMeetsWCAG(scheme index: Int) {
        let (scheme, contrast) = Self.schemes[index]
        let needed = contrast == .high ? 7.0 : 4.5
        for accent in Self.accents {
            let appearance = Appearance(scheme: scheme, contrast: contrast, accent: accent)
            let failures = Self.failures(appearance.palette, needed: needed, highContrast: contrast == .high)
            #expect(failures.isEmpty, "\(appearance): \(failures.joined(separator: "; "))")
        }
    }

    /// The tooltip's secondary text is dimmer than its text (it reads as secondary) in every
    /// appearance, high contrast included.
    @Test func theTooltipsSecondaryTextIsDimmerThanItsText() {
        for (scheme, contrast) in Self.schemes {
            let palette = Appearance(scheme: scheme, contrast: contrast).palette
            let bubble = palette[.toolTipBackground].withAlpha(1)
            let text = Palette.contrast(palette[.toolTipLabel], bubble)
            let secondary = Palette.contrast(palette[.toolTipSecondaryLabel], bubble)
            #expect(secondary < text * 0.85, "\(scheme) \(contrast): \(secondary) against \(text)")
        }
    }

    @Test func theCheckCatchesAWeakPair() {
        // #8e8e93 on #f2f2f7 is about 3:1: the check must say so.
        var weak = Palette.light
        weak[.secondaryLabel] = Color(rgb: 0x8e8e93)
        let failures = Self.failures(weak, needed: 4.5, highContrast: false)
        #expect(failures.contains { $0.hasPrefix("text secondaryLabel on windowBackground") })
        // And the high-contrast threshold is a real one: the standard light palette misses it.
        #expect(!Self.failures(Palette.light, needed: 7, highContrast: true).isEmpty)
    }

    @Test func contrastIsWCAGs() {
        #expect(abs(Palette.contrast(.white, .black) - 21) < 1e-9)
        #expect(Palette.contrast(.white, .white) == 1)
        // WCAG's own example of a grey that just misses AA on white: #777777, 4.48:1.
        #expect(abs(Palette.contrast(Color(rgb: 0x777777), .white) - 4.48) < 0.01)
        #expect(Palette.contrast(Color(rgb: 0x767676), .white) >= 4.5)
    }

    @Test func aCustomAccentIsKeptWhereItReads() {
        // X11UI's blue reads with white text: a desktop's accent of that blue is used as is.
        let blue = Color(rgb: 0x0a64d8)
        let palette = Appearance(accent: blue).palette
        #expect(palette[.accent] == blue)
        #expect(palette[.accentForeground] == .white)
        // Yellow takes black text, and hover shades it towards white, away from the text.
        let yellow = Appearance(scheme: .dark, accent: Color(rgb: 0xffcc00)).palette
        #expect(yellow[.accent] == Color(rgb: 0xffcc00))
        #expect(yellow[.accentForeground] == .black)
        #expect(yellow[.accentShade] == .white)
    }
}
