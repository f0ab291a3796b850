import Testing

@testable import X11UI

/// The cursor theme and size, as GTK chooses them: the desktop's settings, then libXcursor's
/// lookup, then the standard size at X11UI's scale.
@Suite struct CursorThemeTests {
    @Test func theDesktopsSettingsComeFirst() {
        let chosen = CursorTheme.choose(
            settingsName: "Adwaita", settingsSize: 32, libraryName: "DMZ-White", librarySize: 48, scale: 2)
        #expect(chosen == CursorTheme(name: "Adwaita", size: 32))
    }

    @Test func libXcursorsLookupStandsInForWhatTheDesktopDidNotSay() {
        #expect(
            CursorTheme.choose(
                settingsName: nil, settingsSize: nil, libraryName: "DMZ-White", librarySize: 48, scale: 2)
                == CursorTheme(name: "DMZ-White", size: 48))
        // Gtk/CursorThemeSize 0 is GTK's "not set".
        #expect(
            CursorTheme.choose(settingsName: "", settingsSize: 0, libraryName: nil, librarySize: 40, scale: 1)
                == CursorTheme(name: nil, size: 40))
    }

    /// No size given anywhere: 24 pixels at 96 dpi, scaled as X11UI scales everything.
    @Test(arguments: [(1.0, 24), (1.25, 30), (2.0, 48), (0.5, 12), (100.0, 512), (Double.nan, 24)])
    func theStandardSizeFollowsTheScale(scale: Double, size: Int) {
        #expect(
            CursorTheme.choose(settingsName: nil, settingsSize: nil, libraryName: nil, librarySize: nil, scale: scale)
                .size == size)
    }

    @Test func aHugeSizeIsClamped() {
        #expect(
            CursorTheme.choose(settingsName: nil, settingsSize: 1 << 30, libraryName: nil, librarySize: nil, scale: 1)
                .size == CursorTheme.largestSize)
    }

    /// A name is joined to each directory of libXcursor's search path: a path is refused (the
    /// next source's name, or the default theme, is used).
    @Test(arguments: ["../../etc", "/usr/share/icons/Adwaita", ".", "..", "a/b", "", "nul\u{0}name"])
    func aPathIsNotAThemeName(name: String) {
        #expect(CursorTheme.usableName(name) == nil)
        #expect(
            CursorTheme.choose(
                settingsName: name, settingsSize: nil, libraryName: "Adwaita", librarySize: nil, scale: 1
            )
            .name == "Adwaita")
    }

    @Test func theNamedCursorsHaveTheSpecificationsNamesThenTheOlderOnes() {
        #expect(Cursor.arrow.names == ["default", "left_ptr"])
        #expect(Cursor.text.names.prefix(2) == ["text", "xterm"])
        #expect(Cursor.pointingHand.names.prefix(2) == ["pointer", "hand2"])
        #expect(Cursor(name: "zoom-in").names == ["zoom-in"])
    }
}
