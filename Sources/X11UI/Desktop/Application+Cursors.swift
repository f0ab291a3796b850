internal import CX11

/// The cursors of the application's windows: made from the cursor theme in force the first
/// time a view asks for one, made again when the theme or its size changes.
extension Application {
    /// The X cursor for `cursor`, from the theme in force (libXcursor is opened, and the theme
    /// chosen, the first time: never at start).
    func cursorID(for cursor: Cursor) -> UInt {
        cursors().xid(for: cursor)
    }

    private func cursors() -> CursorStore {
        if let cursorStore { return cursorStore }
        let library = CursorStore.xcursor
        let store = CursorStore(connection: connection, library: library, theme: cursorTheme(library: library))
        cursorStore = store
        return store
    }

    /// The theme and size in force: the desktop's settings, then libXcursor's own lookup, then
    /// the standard size at this application's scale.
    func cursorTheme(library: LoadedLibrary<cx11_xcursor>?) -> CursorTheme {
        let settings = desktopSettings
        if let name = settings.cursorThemeName, !name.isEmpty, CursorTheme.usableName(name) == nil {
            Log.warning("the cursor theme \(Log.quoted(name)) is not a theme's name; using the default theme")
        }
        let defaults = CursorStore.libraryDefaults(of: connection, library: library)
        return CursorTheme.choose(
            settingsName: settings.cursorThemeName, settingsSize: settings.cursorThemeSize,
            libraryName: defaults.name, librarySize: defaults.size, scale: scale)
    }

    /// The cursor theme, its size or the scale changed: the cursors in use are made again from
    /// the theme now in force and each window that shows one is given its new one (one request
    /// a window), then the old ones are freed. Before any cursor was made this does nothing:
    /// the first one is made from the theme in force then.
    func cursorSettingsDidChange() {
        guard let store = cursorStore, store.usesThemes else { return }
        let old = store.adopt(cursorTheme(library: store.library))
        guard !old.isEmpty else { return }
        for case let window as Window in targets.values { window.redefineCursor() }
        store.free(old)
        connection.flush()
    }
}
