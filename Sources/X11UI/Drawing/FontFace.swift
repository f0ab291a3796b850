internal import CX11

/// One font of a file opened with FreeType by X11UI (`SharedFace`), and the Xft font drawn
/// from it.
///
/// The face is handed to Xft with fontconfig's `ftface` pattern element; Xft then never
/// closes it, so this object does, after the Xft font. How the file is read (a `pread` stream
/// or a map of the file, by its outline format) is `SharedFace`'s choice.
///
/// The sizes opened from one file share its FreeType face (`SharedFace`): body text, captions
/// and bold titles are two files at four sizes, and each face costs its tables and the
/// auto-hinter's script coverage of every character the font has (0.8 M instructions for
/// DejaVu Sans, computed on the first glyph loaded). Each font has a FreeType size object of
/// its own, made the face's active one before Xft is given the font (`activate()`): Xft sets
/// a face's size when it first uses the font and remembers it per font, so the size object it
/// set must be the one active whenever it uses the font again.
///
/// Characters are looked up here, not by Xft (`has(_:)`, `glyph(for:)`). Xft builds, for every
/// font it opens, a hash table of all the characters its charset lists, 61 KB for DejaVu Sans
/// and one per size; a font on a shared face is given an empty charset, so its table is a few
/// bytes, and keeps the real one as `coverage`. Lookups then ask the charset and the face
/// (`FcFreeTypeCharIndex`, what Xft itself calls on a miss) through a small cache.
@MainActor
final class FontFace {
    let font: UnsafeMutablePointer<XftFont>
    private let connection: DisplayConnection
    /// The FreeType face (shared by the sizes of one file) and this font's size on it; nil
    /// for a font Xft opened itself.
    let shared: SharedFace?
    private let size: FT_Size?
    /// The characters the font has (its match's charset, a reference held), for a font on a
    /// shared face; nil for a font Xft opened itself, which Xft's own table serves.
    private let coverage: OpaquePointer?
    /// Glyphs looked up, by the character's low bits: the character in the high 32 bits, the
    /// glyph in the low ones; `UInt64.max` is empty. Text is mostly a few hundred characters,
    /// so 256 entries catch nearly every lookup of a paragraph.
    private var glyphCache: [UInt64] = []
    private static let glyphCacheSize = 256

    private init(
        font: UnsafeMutablePointer<XftFont>, connection: DisplayConnection, shared: SharedFace?, size: FT_Size?,
        coverage: OpaquePointer? = nil
    ) {
        self.font = font
        self.connection = connection
        self.shared = shared
        self.size = size
        self.coverage = coverage
    }

    isolated deinit {
        if connection.isUsable { XftFontClose(connection.display, font) }
        if let size { FT_Done_Size(size) }
        if let coverage { FcCharSetDestroy(coverage) }
        // The face closes (and its stream's file with it) when its last size is gone.
    }

    /// Whether the font has a glyph for the character (`XftCharExists`).
    func has(_ value: UInt32) -> Bool {
        guard let coverage else { return XftCharExists(connection.display, font, value) != 0 }
        return FcCharSetHasChar(coverage, value) != 0
    }

    /// The font's glyph for a character, 0 (the missing glyph) when it has none
    /// (`XftCharIndex`).
    func glyph(for value: UInt32) -> FT_UInt {
        guard let coverage, let shared else { return XftCharIndex(connection.display, font, value) }
        if glyphCache.isEmpty { glyphCache = [UInt64](repeating: .max, count: Self.glyphCacheSize) }
        let slot = Int(value) & (Self.glyphCacheSize - 1)
        let entry = glyphCache[slot]
        if entry >> 32 == UInt64(value) { return FT_UInt(truncatingIfNeeded: entry) }
        let glyph = FcCharSetHasChar(coverage, value) != 0 ? FcFreeTypeCharIndex(shared.face, value) : 0
        glyphCache[slot] = UInt64(value) << 32 | UInt64(glyph)
        return glyph
    }

    /// Makes this font's size the active one of its face; call it before every Xft call that
    /// may load glyphs or lock the face (extents, drawing, `XftLockFace`).
    func activate() {
        if let size { FT_Activate_Size(size) }
    }

    /// Matches `pattern` and opens the best font for it; nil when fontconfig has none. A
    /// `matcher` remembers its choices across sizes (primary faces); fallbacks, which ask for
    /// a character, match afresh.
    static func open(
        pattern: OpaquePointer, connection: DisplayConnection, library: FreeTypeLibrary?, matcher: FontMatcher? = nil
    ) -> FontFace? {
        var result = FcResultNoMatch
        guard
            let match = matcher.map({ $0.match(pattern) })
                ?? XftFontMatch(connection.display, connection.screen, pattern, &result)
        else { return nil }
        if let library, let shared = library.face(for: match) {
            var size: FT_Size?
            if FT_New_Size(shared.face, &size) == 0, let size {
                // Xft sets the size of the face's active size object when it opens the font.
                FT_Activate_Size(size)
                // Xft prefers a file name to a face, so the name goes (the face knows its file).
                FcPatternDel(match, "file")
                FcPatternDel(match, "ftface")
                FcPatternAddFTFace(match, "ftface", shared.face)
                // Xft's character table goes with an empty charset; the real one is kept.
                var charset: OpaquePointer?
                let coverage =
                    FcPatternGetCharSet(match, "charset", 0, &charset) == FcResultMatch
                    ? charset.flatMap { FcCharSetCopy($0) } : nil
                var replaced = false
                if coverage != nil, let empty = FcCharSetCreate() {
                    FcPatternDel(match, "charset")
                    FcPatternAddCharSet(match, "charset", empty)  // the pattern takes a reference
                    FcCharSetDestroy(empty)
                    replaced = true
                }
                if let font = XftFontOpenPattern(connection.display, match) {
                    if !replaced, let coverage { FcCharSetDestroy(coverage) }
                    GlyphTable.releaseEmptyPages(of: font, glyphs: Int(shared.face.pointee.num_glyphs) + 1)
                    return FontFace(
                        font: font, connection: connection, shared: shared, size: size,
                        coverage: replaced ? coverage : nil)
                }
                FT_Done_Size(size)
                FcPatternDel(match, "ftface")
                if let coverage {
                    if replaced {
                        FcPatternDel(match, "charset")
                        FcPatternAddCharSet(match, "charset", coverage)
                    }
                    FcCharSetDestroy(coverage)
                }
            }
        }
        // No file name (an in-memory font) or FreeType refused the stream: Xft's own way.
        guard let font = XftFontOpenPattern(connection.display, match) else {
            FcPatternDestroy(match)
            return nil
        }
        return FontFace(font: font, connection: connection, shared: nil, size: nil)
    }
}
