internal import CX11
internal import Glibc

/// The X cursors an application made, one per ``Cursor`` it used, from one theme at one size:
/// made the first time a window needs them, freed when the theme changes or the display
/// closes (it owns each one).
///
/// A cursor comes from the user's cursor theme through libXcursor (opened on first use, never
/// linked); without the library, or when the theme has none of the cursor's names, it is the
/// X server's own cursor of that shape (the cursor font's).
@MainActor
final class CursorStore {
    private let connection: DisplayConnection
    /// libXcursor's functions; nil when the library is missing (core cursors only).
    let library: LoadedLibrary<cx11_xcursor>?
    /// The theme and size the cursors in `made` come from.
    private(set) var theme: CursorTheme
    private var made: [Cursor: UInt] = [:]

    /// libXcursor, opened the first time a cursor is needed.
    static let xcursor = LoadedLibrary.open(
        "libXcursor.so.1", empty: cx11_xcursor(), load: cx11_xcursor_load,
        missing: "cursors are the X server's own, not the cursor theme's")

    /// A store for cursors from `theme` (see ``CursorTheme/choose``), through `library`.
    init(connection: DisplayConnection, library: LoadedLibrary<cx11_xcursor>?, theme: CursorTheme) {
        self.connection = connection
        self.library = library
        self.theme = theme
    }

    /// Whether cursors come from a theme (libXcursor is there).
    var usesThemes: Bool { library != nil }

    /// The theme libXcursor finds without being told (`XCURSOR_THEME`, then the
    /// `Xcursor.theme` resource), and the size when the environment or a resource gives one
    /// (`XCURSOR_SIZE`, `Xcursor.size`); nils without the library.
    static func libraryDefaults(
        of connection: DisplayConnection, library: LoadedLibrary<cx11_xcursor>?
    ) -> (name: String?, size: Int?) {
        guard let functions = library?.functions, connection.isUsable else { return (nil, nil) }
        let name = functions.get_theme(connection.display).map { String(cString: $0) }
        let sizeGiven =
            Environment.value("XCURSOR_SIZE").map { !$0.isEmpty } == true
            || XGetDefault(connection.display, "Xcursor", "size") != nil
        return (name, sizeGiven ? Int(functions.get_default_size(connection.display)) : nil)
    }

    /// The X cursor for `cursor`, made now if it was not yet; 0 (the parent's cursor) when the
    /// display is gone or the server refused.
    func xid(for cursor: Cursor) -> UInt {
        if let id = made[cursor] { return id }
        guard connection.isUsable else { return 0 }
        let id = themed(cursor) ?? core(cursor)
        if id != 0 { made[cursor] = id }
        return id
    }

    /// The theme's image of the first of the cursor's names it has, as a cursor. The file is
    /// found, opened and checked by X11UI (``CursorThemeSearch``, ``CursorFile``); libXcursor
    /// reads the checked copy from memory.
    private func themed(_ cursor: Cursor) -> UInt? {
        guard let functions = library?.functions else { return nil }
        let search = CursorThemeSearch(path: functions.library_path().map { String(cString: $0) } ?? "")
        for name in cursor.names {
            guard var bytes = search.images(of: name, theme: theme.name, size: theme.size) else { continue }
            let images = bytes.withUnsafeMutableBytes { buffer -> UnsafeMutableRawPointer? in
                guard let file = fmemopen(buffer.baseAddress, buffer.count, "r") else { return nil }
                defer { fclose(file) }
                return functions.file_load_images(file, Int32(theme.size))
            }
            guard let images else { continue }
            name.withCString { functions.images_set_name(images, $0) }
            let id = functions.images_load_cursor(connection.display, images)
            functions.images_destroy(images)
            if id != 0 { return id }
        }
        return nil
    }

    /// The X server's cursor of the first of the names that is one of its shapes (an arrow
    /// when none is).
    private func core(_ cursor: Cursor) -> UInt {
        let shape = cursor.names.lazy.compactMap { Self.coreShapes[$0] }.first ?? UInt32(XC_left_ptr)
        return XCreateFontCursor(connection.display, shape)
    }

    /// Takes `theme` for the cursors made from now on and forgets the ones made so far; returns
    /// those, for the caller to free (``free(_:)``) once no window shows them any more.
    /// Nothing changes (and nothing is returned) when the theme is the same, or when cursors
    /// come from the server alone.
    func adopt(_ theme: CursorTheme) -> [UInt] {
        guard theme != self.theme, usesThemes else { return [] }
        self.theme = theme
        let old = Array(made.values)
        made = [:]
        return old
    }

    /// Frees cursors `adopt` gave back.
    func free(_ ids: [UInt]) {
        guard connection.isUsable else { return }
        for id in ids { XFreeCursor(connection.display, id) }
    }

    /// Frees every cursor (the display is closing).
    func releaseAll() {
        free(Array(made.values))
        made = [:]
    }

    /// The cursor font's shapes by their names (X11/cursorfont.h).
    private static let coreShapes: [String: UInt32] = [
        "left_ptr": UInt32(XC_left_ptr), "xterm": UInt32(XC_xterm), "hand2": UInt32(XC_hand2),
        "hand1": UInt32(XC_hand1), "cross": UInt32(XC_cross), "crosshair": UInt32(XC_crosshair),
        "tcross": UInt32(XC_tcross), "question_arrow": UInt32(XC_question_arrow), "watch": UInt32(XC_watch),
        "circle": UInt32(XC_circle), "fleur": UInt32(XC_fleur), "sb_h_double_arrow": UInt32(XC_sb_h_double_arrow),
        "sb_v_double_arrow": UInt32(XC_sb_v_double_arrow), "bottom_right_corner": UInt32(XC_bottom_right_corner),
        "bottom_left_corner": UInt32(XC_bottom_left_corner), "X_cursor": UInt32(XC_X_cursor),
    ]
}
