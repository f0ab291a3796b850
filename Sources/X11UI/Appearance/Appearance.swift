/// How an application looks: light or dark, standard or high contrast, and an accent.
///
/// The appearance in force is the program's choice (``Application/preferredAppearance``), else
/// what the desktop says (the freedesktop appearance settings: `color-scheme`, `contrast`,
/// `accent-color`), else light. Views and the default tooltip style draw with its named colours
/// (``Color/label``, ``Color/windowBackground``, ``Color/accent`` …), so a change repaints
/// every window in the new appearance.
///
/// ```swift
/// app.preferredAppearance = .dark                 // nil follows the desktop again
/// app.onAppearanceChange = { appearance in print(appearance) }
/// ```
public struct Appearance: Hashable, Sendable, CustomStringConvertible {
    /// Light or dark.
    public enum Scheme: Hashable, Sendable {
        /// Dark text on light backgrounds.
        case light
        /// Light text on dark backgrounds.
        case dark
    }

    /// How far apart text and its background are.
    public enum Contrast: Hashable, Sendable {
        /// At least 4.5:1 for text (WCAG AA).
        case standard
        /// At least 7:1 for text (WCAG AAA), with solid borders on controls.
        case high
    }

    /// Light or dark.
    public var scheme: Scheme
    /// Standard or high contrast.
    public var contrast: Contrast
    /// The accent of controls (filled buttons, focus rings, selections); nil uses X11UI's own.
    /// Text on and around it is chosen to keep the appearance's contrast whatever it is.
    public var accent: Color? {
        didSet { accent = accent?.resolved(in: .light) }
    }

    /// Creates an appearance.
    public init(scheme: Scheme = .light, contrast: Contrast = .standard, accent: Color? = nil) {
        self.scheme = scheme
        self.contrast = contrast
        self.accent = accent?.resolved(in: Appearance(scheme: .light, contrast: .standard))
    }

    /// Dark text on light backgrounds: the default.
    public static let light = Appearance(scheme: .light)
    /// Light text on dark backgrounds.
    public static let dark = Appearance(scheme: .dark)
    /// Black on white, text at least 7:1, solid borders on controls.
    public static let highContrast = Appearance(scheme: .light, contrast: .high)
    /// White on black, text at least 7:1, solid borders on controls.
    public static let highContrastDark = Appearance(scheme: .dark, contrast: .high)

    /// Its named colours' values.
    var palette: Palette {
        if accent == nil {
            switch (scheme, contrast) {
            case (.light, .standard): return Palette.light
            case (.dark, .standard): return Palette.dark
            case (.light, .high): return Palette.highContrastLight
            case (.dark, .high): return Palette.highContrastDark
            }
        }
        return Palette(self)
    }

    public var description: String {
        var text = scheme == .light ? "light" : "dark"
        if contrast == .high { text = "high-contrast " + text }
        if let accent { text += ", accent #" + accent.hexDigits }
        return text
    }
}

/// The appearance's named colours.
enum SemanticColor: Int, Hashable, Sendable, CaseIterable {
    case label, secondaryLabel, windowBackground, controlBackground, controlBorder, separator
    case accent, accentForeground, accentText, accentShade, selection, focusRing
    case toolTipBackground, toolTipLabel, toolTipBorder, toolTipShadow, toolTipSecondaryLabel
}

extension Color {
    /// Text.
    public static let label = Color(storage: .named(.label))
    /// Secondary text (subtitles, captions).
    public static let secondaryLabel = Color(storage: .named(.secondaryLabel))
    /// The window background.
    public static let windowBackground = Color(storage: .named(.windowBackground))
    /// The background of text fields and text views, and of popups.
    public static let controlBackground = Color(storage: .named(.controlBackground))
    /// The outline of buttons and fields: clear in the standard contrast, solid in high contrast.
    public static let controlBorder = Color(storage: .named(.controlBorder))
    /// Borders and separators.
    public static let separator = Color(storage: .named(.separator))
    /// The accent of controls: the fill of filled buttons.
    public static let accent = Color(storage: .named(.accent))
    /// Text and icons on an ``accent`` fill (white, or black on a light accent).
    public static let accentForeground = Color(storage: .named(.accentForeground))
    /// The accent as text or an icon on the window background (plain buttons), made darker or
    /// lighter than ``accent`` where that is needed for contrast.
    public static let accentText = Color(storage: .named(.accentText))
    /// What an ``accent`` fill is mixed with when hovered and pressed (away from the text on
    /// it: black under white text, white under black).
    public static let accentShade = Color(storage: .named(.accentShade))
    /// The background of selected text.
    public static let selection = Color(storage: .named(.selection))
    /// The keyboard focus ring.
    public static let focusRing = Color(storage: .named(.focusRing))
    /// The default tooltip style's bubble.
    public static let toolTipBackground = Color(storage: .named(.toolTipBackground))
    /// The default tooltip style's text.
    public static let toolTipLabel = Color(storage: .named(.toolTipLabel))
    /// The default tooltip style's secondary text (a keyboard shortcut), dimmer than
    /// ``toolTipLabel`` and still readable on the bubble.
    public static let toolTipSecondaryLabel = Color(storage: .named(.toolTipSecondaryLabel))
    /// The default tooltip style's outline.
    public static let toolTipBorder = Color(storage: .named(.toolTipBorder))
    /// The default tooltip style's shadow (under a compositor).
    public static let toolTipShadow = Color(storage: .named(.toolTipShadow))

    /// `rrggbb` of the fixed components.
    var hexDigits: String {
        let c = resolved(in: .light)
        let value =
            (Int((c.red * 255).rounded()) << 16) | (Int((c.green * 255).rounded()) << 8)
            | Int((c.blue * 255).rounded())
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
