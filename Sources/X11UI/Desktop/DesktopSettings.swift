/// What the desktop says about how programs should look and behave: its XSETTINGS manager's
/// settings (GNOME's, Xfce's, MATE's, Cinnamon's settings daemon, or `xsettingsd`), each nil
/// until the manager says it; X11UI's own defaults stand for what is nil.
///
/// X11UI follows them itself where it can: ``dpi`` scales every window, view and tooltip;
/// the font rendering settings render every font it opens; the double-click time and distance
/// decide what a double click is. The others are for the program's own parts:
///
/// ```swift
/// app.onDesktopSettingsChange = { settings in
///     caret.blinks = settings.cursorBlink ?? true
///     caret.period = .milliseconds(settings.cursorBlinkTime ?? DesktopSettings.defaultCursorBlinkTime)
/// }
/// ```
public struct DesktopSettings: Equatable, Sendable {
    /// `Xft/DPI`: dots per inch (the setting's value over 1024). X11UI scales by it over 96;
    /// without it, by the `Xft.dpi` X resource.
    public internal(set) var dpi: Double?
    /// `Xft/Antialias`: whether glyph edges are smoothed.
    public internal(set) var antialias: Bool?
    /// `Xft/Hinting`: whether glyph outlines are fitted to the pixel grid.
    public internal(set) var hinting: Bool?
    /// `Xft/HintStyle`: `hintnone`, `hintslight`, `hintmedium` or `hintfull`.
    public internal(set) var hintStyle: String?
    /// `Xft/RGBA`: the order of the screen's subpixels for subpixel rendering: `none`, `rgb`,
    /// `bgr`, `vrgb` or `vbgr`.
    public internal(set) var subpixelOrder: String?
    /// `Net/DoubleClickTime`, in milliseconds: the most between two presses of a double click
    /// (``defaultDoubleClickTime`` without it).
    public internal(set) var doubleClickTime: Int?
    /// `Net/DoubleClickDistance`, in pixels: the most the pointer may move between them
    /// (``defaultDoubleClickDistance`` without it).
    public internal(set) var doubleClickDistance: Int?
    /// `Net/CursorBlink`: whether a text caret blinks. X11UI draws no caret; a program's own
    /// caret follows it.
    public internal(set) var cursorBlink: Bool?
    /// `Net/CursorBlinkTime`: milliseconds of one whole on and off cycle of a blinking caret
    /// (``defaultCursorBlinkTime`` without it).
    public internal(set) var cursorBlinkTime: Int?
    /// `Gtk/CursorThemeName`: the pointer cursors' theme.
    public internal(set) var cursorThemeName: String?
    /// `Gtk/CursorThemeSize`, in pixels; nil also when the desktop says 0, its "the default".
    public internal(set) var cursorThemeSize: Int?
    /// Whether the user wants animations: `Net/EnableAnimations`, and false whenever the
    /// desktop's settings portal asks for reduced motion (its `reduced-motion`, or GNOME's
    /// `enable-animations`): reduced motion from any source turns every animation off.
    public internal(set) var enableAnimations: Bool?

    /// The double-click time without the desktop's: 400 ms, GTK's.
    public static let defaultDoubleClickTime = 400
    /// The double-click distance without the desktop's: 4 pixels.
    public static let defaultDoubleClickDistance = 4
    /// The caret's blink cycle without the desktop's: 1200 ms, GTK's.
    public static let defaultCursorBlinkTime = 1200
}

extension Application {
    /// Called after the desktop's settings changed (its settings manager changed a setting,
    /// stopped, or a new one started), with the new ones, once X11UI applied them: windows
    /// and a shown tooltip are laid out again at a new ``scale`` and with new font rendering.
    public var onDesktopSettingsChange: ((DesktopSettings) -> Void)? {
        get { desktopSettingsHandler }
        set { desktopSettingsHandler = newValue }
    }

    /// The dots per inch in force: the desktop's, else `Xft.dpi`, else 96.
    var dpi: Double { desktopSettings.dpi ?? connection.dpi }

    /// The settings manager's settings changed (or were read at start): the one input of a
    /// reader of the desktop's settings, merged with the settings portal's reduced motion.
    /// Each part of X11UI that follows a setting takes it from here.
    func desktopSettingsDidChange(_ managerSettings: DesktopSettings) {
        appearanceState.managerSettings = managerSettings
        var settings = managerSettings
        if appearanceState.portalReducesMotion { settings.enableAnimations = false }
        let old = desktopSettings
        guard settings != old else { return }
        desktopSettings = settings
        let options = FontRenderingOptions(
            antialias: settings.antialias, hinting: settings.hinting, hintStyle: settings.hintStyle,
            subpixelOrder: settings.subpixelOrder)
        // Before the first window (the settings read at start) there is nothing to lay out.
        if resources.fonts.update(scale: scale, options: options), !isClosed, !targets.isEmpty {
            // Every window lays out and paints again (a top-level one takes the new scale's
            // size first), then a shown tooltip is laid out again in place, at its source's
            // new place.
            let windows = targets.values.compactMap { $0 as? Window }
            for window in windows { window.fontsDidChange() }
            for window in windows { window.layoutIfNeeded() }
            toolTips.fontsDidChange()
        }
        if settings.cursorThemeName != old.cursorThemeName || settings.cursorThemeSize != old.cursorThemeSize
            || settings.dpi != old.dpi
        {
            cursorSettingsDidChange()
        }
        desktopSettingsHandler?(settings)
    }
}
