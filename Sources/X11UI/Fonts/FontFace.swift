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
///
/// A font can let its face go while Xft keeps the glyphs it rendered (`releaseFace()`, which
/// the run loop calls at the end of each turn, once text is laid out and drawn): Noto Sans
/// CJK's face holds 1 MB of FreeType's tables and 0.7 MB of its file's pages for the three
/// glyphs of a Korean label, DejaVu Sans 0.1 MB. Xft's record of the font then holds no face;
/// an Xft call that would load a glyph from it is preceded by `activate()` or
/// `activate(for:)`, which open the face again from its file first.
@MainActor
final class FontFace {
    let font: UnsafeMutablePointer<XftFont>
    private let connection: DisplayConnection
    /// The FreeType face (shared by the sizes of one file) and this font's size on it; nil for
    /// a font Xft opened itself, and while the face is let go (`releaseFace()`).
    private var face: (shared: SharedFace, size: FT_Size)?
    /// Where the face comes from, to open it again after `releaseFace()`; nil for a font that
    /// keeps its first face (Xft opened it, or Xft's record of it is not the one X11UI knows).
    private let source: Source?
    /// The characters the font has (its match's charset, a reference held), for a font on a
    /// shared face; nil for a font Xft opened itself, which Xft's own table serves.
    private let coverage: OpaquePointer?
    /// Glyphs looked up, by the character's low bits: the character in the high 32 bits, the
    /// glyph in the low ones; `UInt64.max` is empty. Text is mostly a few hundred characters,
    /// so 256 entries catch nearly every lookup of a paragraph.
    private var glyphCache: [UInt64] = []
    private static let glyphCacheSize = 256
    /// Every glyph looked up, for a font that lets its face go, sorted (entries as in
    /// `glyphCache`): a character looked up before needs no face to look up again. (An array,
    /// not a dictionary, whose type the runtime would check at start: 0.26 M instructions.)
    private var glyphsLookedUp: [UInt64] = []
    /// How many times the face was opened again after being let go (for tests).
    private(set) var reopenings = 0
    /// Set when the face could not be opened again (FreeType failed, or the file is not the one
    /// first read): Xft then draws nothing for a glyph it has not rendered, and the font stops
    /// trying.
    private var reopeningFailed = false

    /// A face's file (kept open), and the library that opens it.
    private struct Source {
        let library: FreeTypeLibrary
        let file: FontFile
        let index: Int32
        let mapped: Bool
        let shares: Bool
        /// The face's glyph count, to tell the same file from a changed one.
        let glyphs: Int
    }

    private init(
        font: UnsafeMutablePointer<XftFont>, connection: DisplayConnection, face: (SharedFace, FT_Size)?,
        source: Source? = nil, coverage: OpaquePointer? = nil
    ) {
        self.font = font
        self.connection = connection
        self.face = face
        self.source = source
        self.coverage = coverage
    }

    isolated deinit {
        // Xft never closes a face it was given, and frees nothing of it.
        if connection.isUsable { XftFontClose(connection.display, font) }
        if let face { FT_Done_Size(face.size) }
        if let coverage { FcCharSetDestroy(coverage) }
        // The face closes (and its stream's file with it) when its last size is gone.
    }

    /// The FreeType face the font is drawn from, while it is open.
    var shared: SharedFace? { face?.shared }

    /// Whether the face was let go (`releaseFace()`) and not opened again since.
    var isReleased: Bool { face == nil && source != nil }

    /// Whether the font has a glyph for the character (`XftCharExists`).
    func has(_ value: UInt32) -> Bool {
        guard let coverage else { return XftCharExists(connection.display, font, value) != 0 }
        return FcCharSetHasChar(coverage, value) != 0
    }

    /// The font's glyph for a character, 0 (the missing glyph) when it has none
    /// (`XftCharIndex`).
    func glyph(for value: UInt32) -> FT_UInt {
        guard let coverage else { return XftCharIndex(connection.display, font, value) }
        if glyphCache.isEmpty { glyphCache = [UInt64](repeating: .max, count: Self.glyphCacheSize) }
        let slot = Int(value) & (Self.glyphCacheSize - 1)
        let entry = glyphCache[slot]
        if entry >> 32 == UInt64(value) { return FT_UInt(truncatingIfNeeded: entry) }
        var glyph: FT_UInt = 0
        let known = lookedUpIndex(of: value)
        if known < glyphsLookedUp.count, glyphsLookedUp[known] >> 32 == UInt64(value) {
            glyph = FT_UInt(truncatingIfNeeded: glyphsLookedUp[known])
        } else {
            if FcCharSetHasChar(coverage, value) != 0 {
                guard let face = openFace() else { return 0 }
                glyph = FcFreeTypeCharIndex(face.shared.face, value)
            }
            if source != nil { glyphsLookedUp.insert(UInt64(value) << 32 | UInt64(glyph), at: known) }
        }
        glyphCache[slot] = UInt64(value) << 32 | UInt64(glyph)
        return glyph
    }

    /// Where `value`'s entry is in `glyphsLookedUp`, or would be inserted.
    private func lookedUpIndex(of value: UInt32) -> Int {
        let key = UInt64(value) << 32
        var low = 0
        var high = glyphsLookedUp.count
        while low < high {
            let middle = (low + high) / 2
            if glyphsLookedUp[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Makes this font's size the active one of its face, opening the face again if it was let
    /// go; call it before every Xft call that may load glyphs or lock the face (extents,
    /// drawing, `XftLockFace`).
    func activate() {
        if let size = openFace()?.size { FT_Activate_Size(size) }
    }

    /// `activate()` for an Xft call that draws or measures `glyphs` and nothing else: a face
    /// let go stays so when Xft has rendered them all, as it then loads nothing.
    func activate(for glyphs: UnsafeBufferPointer<FT_UInt>) {
        if face == nil, source != nil, cx11_xft_font_has_glyphs(font, glyphs.baseAddress, Int32(glyphs.count)) != 0 {
            return
        }
        activate()
    }

    /// Lets the FreeType face go (this font's size on it, and the face with its tables and its
    /// file's map when no other font uses it) while Xft keeps the glyphs it rendered, which
    /// draw and measure without it; the face is opened again when a call needs more of it (a
    /// glyph Xft has not rendered, a character not looked up before, shaping). Xft's record of
    /// the font holds no face meanwhile. Returns whether it let the face go.
    @discardableResult
    func releaseFace() -> Bool {
        guard let face, source != nil, cx11_xft_font_set_face(font, nil) != 0 else { return false }
        FcPatternDel(font.pointee.pattern, "ftface")  // the font's pattern names no face gone
        FT_Done_Size(face.size)
        self.face = nil
        return true
    }

    /// The face, opened again if it was let go; nil for a font Xft opened itself, or when the
    /// file cannot be opened again as it was.
    private func openFace() -> (shared: SharedFace, size: FT_Size)? {
        if let face { return face }
        guard let source, !reopeningFailed else { return nil }
        var size: FT_Size?
        guard
            let shared = source.library.face(
                file: source.file, index: source.index, mapped: source.mapped, shares: source.shares),
            Int(shared.face.pointee.num_glyphs) + 1 == source.glyphs,
            FT_New_Size(shared.face, &size) == 0, let size
        else {
            Log.warning("\(source.file.path) could not be opened again; its glyphs not drawn yet stay blank")
            reopeningFailed = true
            return nil
        }
        // Xft sets the size of the face's active size object when it next locks the face.
        FT_Activate_Size(size)
        cx11_xft_font_set_face(font, shared.face)
        FcPatternAddFTFace(font.pointee.pattern, "ftface", shared.face)
        face = (shared, size)
        reopenings += 1
        return face
    }

    /// Matches `pattern` and opens the best font for it; nil when fontconfig has none. A
    /// `matcher` remembers its choices across sizes (primary faces); fallbacks, which ask for
    /// a character, match afresh. A `store` answers a request asked in an earlier run without
    /// fontconfig, and keeps fontconfig's answer to a new one; a stored answer whose font
    /// cannot be opened any more drops the store's answers, and fontconfig is asked.
    static func open(
        pattern: OpaquePointer, connection: DisplayConnection, library: FreeTypeLibrary?, matcher: FontMatcher? = nil,
        store: FontMatchStore? = nil
    ) -> FontFace? {
        let key = store != nil ? FontMatchStore.key(for: pattern, connection: connection) : nil
        if let key, let store, let stored = store.match(forKey: key) {
            if let face = open(match: stored, connection: connection, library: library) { return face }
            store.discard()
        }
        var result = FcResultNoMatch
        guard
            let match = matcher.map({ $0.match(pattern) })
                ?? XftFontMatch(connection.display, connection.screen, pattern, &result)
        else { return nil }
        // Copied before opening changes the match (its file name goes for the face), and kept
        // only for a font that opens: a stored answer that cannot would drop the store.
        let copy = key != nil ? FcPatternDuplicate(match) : nil
        let face = open(match: match, connection: connection, library: library)
        if let copy {
            if face != nil, let key, let store { store.remember(copy, forKey: key) } else { FcPatternDestroy(copy) }
        }
        return face
    }

    /// Opens the font a match names, on a face of `library` when its file can be read (else as
    /// Xft opens it); takes the match. Nil when neither can open it.
    static func open(match: OpaquePointer, connection: DisplayConnection, library: FreeTypeLibrary?) -> FontFace? {
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
                    let glyphs = Int(shared.face.pointee.num_glyphs) + 1
                    GlyphTable.releaseEmptyPages(of: font, glyphs: glyphs)
                    let source =
                        replaced && cx11_xft_font_holds_face(font, shared.face) != 0
                        ? Source(
                            library: library, file: shared.fontFile, index: shared.index, mapped: shared.mapping != nil,
                            shares: shared.shares, glyphs: glyphs) : nil
                    return FontFace(
                        font: font, connection: connection, face: (shared, size), source: source,
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
        // No file name (an in-memory font) or FreeType refused the stream: Xft's own way, which
        // opens the file by its name, blocking: only a regular file is handed to it.
        var file: UnsafeMutablePointer<FcChar8>?
        if FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file,
            !FontFile.isOpenable(file.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) })
        {
            FcPatternDestroy(match)
            return nil
        }
        guard let font = XftFontOpenPattern(connection.display, match) else {
            FcPatternDestroy(match)
            return nil
        }
        return FontFace(font: font, connection: connection, face: nil)
    }
}
