/// Where a cursor's file is in a theme, found as libXcursor finds it
/// (`XcursorLibraryLoadImages`), so that X11UI opens and checks the file itself (``CursorFile``)
/// instead of libXcursor opening it blind: a FIFO in a theme would block it.
///
/// The theme's folder is looked for in each folder of the search path (`XCURSOR_PATH`, else
/// libXcursor's own list; `~` is the home folder); in it, `cursors/<name>`. A theme without the
/// cursor is followed by the themes its `index.theme` names (`Inherits=a;b,c`), depth first;
/// then the `default` theme. Bounded: at most ``deepest`` themes deep and ``mostThemes`` themes
/// in all (a theme inheriting itself is looked in once), an `index.theme` read only when it is a
/// regular file of at most 64 KiB. A file found but refused (see ``CursorFile``) is one warning,
/// and the search goes on as if it were not there.
struct CursorThemeSearch {
    /// The folders themes are in, in order.
    let folders: [String]

    /// The deepest chain of inherited themes followed (libXcursor's own bound).
    static let deepest = 32
    /// The most themes looked in for one cursor.
    static let mostThemes = 64

    /// A search along `path` (folders separated by `:`).
    init(path: String) {
        let home = Environment.value("HOME")
        folders = path.split(separator: ":").compactMap { folder in
            guard folder.hasPrefix("~") else { return String(folder) }
            return home.map { $0 + folder.dropFirst() }
        }
    }

    /// The checked images of cursor `name` in `theme` (nil: the `default` theme alone) for
    /// cursors of `size` pixels, as an Xcursor file for libXcursor; nil when no theme has an
    /// acceptable file of that name.
    func images(of name: String, theme: String?, size: Int) -> [UInt8]? {
        var looked: Set<String> = []
        for start in [theme, "default"].compactMap({ $0 }) {
            if let found = search(name, in: start, size: size, depth: 0, looked: &looked) { return found }
        }
        return nil
    }

    private func search(
        _ name: String, in theme: String, size: Int, depth: Int, looked: inout Set<String>
    )
        -> [UInt8]?
    {
        guard depth < Self.deepest, looked.count < Self.mostThemes, CursorTheme.usableName(theme) != nil,
            looked.insert(theme).inserted
        else { return nil }
        for folder in folders {
            let path = "\(folder)/\(theme)/cursors/\(name)"
            switch CursorFile.checkedImages(at: path, size: size) {
            case .success(let bytes): return bytes
            case .failure(let refusal): Log.warning("the cursor file \(Log.quoted(path)) is not used: \(refusal)")
            case nil: continue
            }
        }
        for inherited in inherits(theme) {
            if let found = search(name, in: inherited, size: size, depth: depth + 1, looked: &looked) { return found }
        }
        return nil
    }

    /// The themes `theme` inherits, from the first of its `index.theme` files that says.
    private func inherits(_ theme: String) -> [String] {
        for folder in folders {
            guard let bytes = FileBytes.read("\(folder)/\(theme)/index.theme", atMost: 64 << 10) else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                guard trimmed.hasPrefix("Inherits") else { continue }
                let rest = trimmed.dropFirst("Inherits".count).drop { $0 == " " || $0 == "\t" }
                guard rest.first == "=" else { continue }
                let names = rest.dropFirst().split { $0 == ";" || $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" }
                return names.map(String.init)
            }
        }
        return []
    }
}
