/// What the desktop says about how programs should look and behave, each value nil until a
/// reader of the desktop's settings (its XSETTINGS manager) says it; X11UI's own defaults stand
/// for what is nil.
struct DesktopSettings: Equatable, Sendable {
    /// `Xft/DPI`: dots per inch (the setting's value over 1024); `Xft.dpi` stands for it.
    var dpi: Double?
    /// `Xft/Antialias`.
    var antialias: Bool?
    /// `Xft/Hinting`.
    var hinting: Bool?
    /// `Xft/HintStyle`: `hintnone`, `hintslight`, `hintmedium` or `hintfull`.
    var hintStyle: String?
    /// `Xft/RGBA`: `none`, `rgb`, `bgr`, `vrgb` or `vbgr`.
    var subpixelOrder: String?
    /// `Net/DoubleClickTime`, in milliseconds.
    var doubleClickTime: Int?
    /// `Net/DoubleClickDistance`, in pixels.
    var doubleClickDistance: Int?
    /// `Net/CursorBlink`.
    var cursorBlink: Bool?
    /// `Net/CursorBlinkTime`: milliseconds of one whole on and off cycle.
    var cursorBlinkTime: Int?
    /// `Gtk/CursorThemeName`.
    var cursorThemeName: String?
    /// `Gtk/CursorThemeSize`, in pixels.
    var cursorThemeSize: Int?
    /// `Net/EnableAnimations`.
    var enableAnimations: Bool?
}

extension Application {
    /// The desktop's settings changed (or were read at start): the input of a reader of the
    /// desktop's settings. Each part of X11UI that follows a setting takes it from here.
    func desktopSettingsDidChange(_ settings: DesktopSettings) {
        let old = desktopSettings
        guard settings != old else { return }
        desktopSettings = settings
        if settings.cursorThemeName != old.cursorThemeName || settings.cursorThemeSize != old.cursorThemeSize
            || settings.dpi != old.dpi
        {
            cursorSettingsDidChange()
        }
    }
}
