internal import CX11
internal import Glibc

/// One font file opened with FreeType through a read stream, and the Xft font drawn from it.
///
/// Xft on its own opens font files with `mmap`, and FreeType's scattered reads then fault in
/// far more of the file than it uses: a Korean fallback face (NanumGothic) cost 2.2 MB of
/// resident memory that way. Reading through `pread` keeps only the tables FreeType loads
/// (a few hundred kB). The face is handed to Xft with fontconfig's `ftface` pattern element;
/// Xft then never closes it, so this object does, after the Xft font.
@MainActor
final class FontFace {
    let font: UnsafeMutablePointer<XftFont>
    private let connection: DisplayConnection
    private let face: FT_Face?
    private let stream: UnsafeMutablePointer<FT_StreamRec>?
    /// Kept alive while the face is: FT_Done_FreeType would free the face with it.
    private let library: FreeTypeLibrary?

    private init(
        font: UnsafeMutablePointer<XftFont>, connection: DisplayConnection, face: FT_Face?,
        stream: UnsafeMutablePointer<FT_StreamRec>?, library: FreeTypeLibrary?
    ) {
        self.font = font
        self.connection = connection
        self.face = face
        self.stream = stream
        self.library = library
    }

    isolated deinit {
        if connection.isUsable { XftFontClose(connection.display, font) }
        if let face { FT_Done_Face(face) }  // closes the stream's file
        stream?.deallocate()
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
        if let library, let (face, stream) = openStream(match: match, library: library.library) {
            // Xft prefers a file name to a face, so the name goes (the face knows its file).
            FcPatternDel(match, "file")
            FcPatternDel(match, "ftface")
            FcPatternAddFTFace(match, "ftface", face)
            if let font = XftFontOpenPattern(connection.display, match) {
                return FontFace(font: font, connection: connection, face: face, stream: stream, library: library)
            }
            FT_Done_Face(face)
            stream.deallocate()
            FcPatternDel(match, "ftface")
        }
        // No file name (an in-memory font) or FreeType refused the stream: Xft's own way.
        guard let font = XftFontOpenPattern(connection.display, match) else {
            FcPatternDestroy(match)
            return nil
        }
        return FontFace(font: font, connection: connection, face: nil, stream: nil, library: nil)
    }

    /// Opens the matched file through a `pread` stream.
    private static func openStream(
        match: OpaquePointer, library: FT_Library
    ) -> (FT_Face, UnsafeMutablePointer<FT_StreamRec>)? {
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetInteger(match, "index", 0, &index)
        let fd = file.withMemoryRebound(to: CChar.self, capacity: 1) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else {
            close(fd)
            return nil
        }
        let stream = UnsafeMutablePointer<FT_StreamRec>.allocate(capacity: 1)
        stream.initialize(to: FT_StreamRec())
        stream.pointee.descriptor.value = Int(fd)
        stream.pointee.size = UInt(size)
        stream.pointee.read = { stream, offset, buffer, count in
            guard let stream else { return 0 }
            // A zero count is a seek: 0 means success.
            if count == 0 { return offset <= stream.pointee.size ? 0 : 1 }
            let read = pread(Int32(stream.pointee.descriptor.value), buffer, Int(count), off_t(offset))
            return read < 0 ? 0 : UInt(read)
        }
        stream.pointee.close = { stream in
            guard let stream else { return }
            close(Int32(stream.pointee.descriptor.value))
        }
        var arguments = FT_Open_Args()
        arguments.flags = FT_UInt(FT_OPEN_STREAM)
        arguments.stream = stream
        var face: FT_Face?
        guard FT_Open_Face(library, &arguments, FT_Long(index), &face) == 0, let face else {
            // FreeType closed the stream (and so the file) on failure.
            stream.deallocate()
            return nil
        }
        return (face, stream)
    }
}

/// A FreeType library instance, freed when the last face opened with it is.
final class FreeTypeLibrary {
    let library: FT_Library

    init?() {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        self.library = library
    }

    deinit { FT_Done_FreeType(library) }
}
