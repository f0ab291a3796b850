/// The cursor theme and size X11UI's cursors are loaded from, chosen as GTK chooses them: the
/// desktop's settings (`Gtk/CursorThemeName`, `Gtk/CursorThemeSize`) first, then what
/// libXcursor finds itself (`XCURSOR_THEME` and `XCURSOR_SIZE`, the `Xcursor.theme` and
/// `Xcursor.size` resources); a size nobody gives is the standard one at X11UI's scale.
struct CursorTheme: Hashable, Sendable {
    /// The theme's name; nil lets libXcursor look in its `default` theme.
    var name: String?
    /// The nominal size in pixels (the theme's nearest size is loaded).
    var size: Int

    /// The size at 96 dpi when nothing names one (GTK 4's default).
    static let standardSize = 24
    /// The largest size taken from a setting: bigger ones are clamped to it.
    static let largestSize = 512

    /// The theme and size from, in order, the desktop's settings, libXcursor's own lookup, and
    /// the standard size scaled by `scale`.
    ///
    /// - Parameters:
    ///   - settingsName: `Gtk/CursorThemeName`, when the desktop said it.
    ///   - settingsSize: `Gtk/CursorThemeSize`, when the desktop said it (0 or less: not said).
    ///   - libraryName: the theme libXcursor found (environment, then resources).
    ///   - librarySize: the size libXcursor found, when the environment or a resource gave one.
    ///   - scale: X11UI's scale for sizes given at 96 dpi.
    static func choose(
        settingsName: String?, settingsSize: Int?, libraryName: String?, librarySize: Int?, scale: Double
    ) -> CursorTheme {
        let name = [settingsName, libraryName].lazy.compactMap { $0.flatMap(Self.usableName) }.first
        let given = [settingsSize, librarySize].lazy.compactMap { $0.flatMap { $0 > 0 ? $0 : nil } }.first
        let scaled = (Double(standardSize) * (scale.isFinite ? scale : 1)).rounded()
        let size = given ?? Int(max(1, min(scaled, Double(largestSize))))
        return CursorTheme(name: name, size: min(size, largestSize))
    }

    /// A theme name libXcursor may be given: not empty, and a name rather than a path (it is
    /// joined to each directory of the search path; "../x" would leave it).
    static func usableName(_ name: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !name.utf8.contains(0) else { return nil }
        return name
    }
}
