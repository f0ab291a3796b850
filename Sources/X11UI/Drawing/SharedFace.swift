internal import CX11
internal import Glibc

/// A font file's FreeType face, shared by the fonts opened from it at any size (see
/// `FontFace`), and read in the way that costs the least memory for its outline format.
///
/// - TrueType outlines (`glyf`: DejaVu, NanumGothic, Lohit) and bitmap fonts (Noto Color
///   Emoji) are read through a `pread` stream. FreeType then reads the few tables it needs
///   and each glyph when loaded. Mapped instead, every page FreeType touches brings in the
///   64 KB around it (the kernel's fault-around): NanumGothic was 0.4 MB more resident and
///   DejaVu Sans 0.15 MB, for the same glyphs.
/// - CFF outlines (Noto Sans CJK's collection) are read from a map of the file. Through a
///   stream, FreeType copies the font's subroutine indexes whole into memory when it opens
///   the face (1.4 MB for Noto Sans CJK, beside the 1 MB of tables it builds either way);
///   from a map it uses them in place, as clean pages of the file that the kernel shares with
///   other programs using the font and can drop. The pages FreeType reads only while opening
///   (the character map's validation, the indexes it copies) are let go once it has opened
///   the face: later glyphs bring back only what they read.
///
/// Debian's FreeType maps a file itself when it is opened by path (`FT_New_Face`, which Xft
/// calls), so mapping is what Xft did before X11UI read fonts itself.
final class SharedFace {
    let face: FT_Face
    private let source: Source
    /// Kept alive while the face is: FT_Done_FreeType would free the face with it.
    private let library: FreeTypeLibrary
    let file: String
    let index: Int32

    /// How the face reads its file.
    enum Source {
        /// A `pread` stream (closed by FreeType with the face).
        case stream(UnsafeMutablePointer<FT_StreamRec>)
        /// A read-only map of the whole file, unmapped after the face is done.
        case mapping(UnsafeMutableRawPointer, Int)
    }

    /// The start of the map of the file, when it is read from one (CFF outlines).
    var mapping: UnsafeMutableRawPointer? {
        if case .mapping(let base, _) = source { return base }
        return nil
    }

    private init(face: FT_Face, source: Source, library: FreeTypeLibrary, file: String, index: Int32) {
        self.face = face
        self.source = source
        self.library = library
        self.file = file
        self.index = index
    }

    deinit {
        FT_Done_Face(face)  // closes a stream's file, and frees the sizes left
        switch source {
        case .stream(let stream): stream.deallocate()
        case .mapping(let base, let size): munmap(base, size)
        }
    }

    /// Opens face `index` of a file, from a map of it when `mapped`, else through a stream.
    fileprivate static func open(
        file path: UnsafeMutablePointer<FcChar8>, index: Int32, mapped: Bool, library: FreeTypeLibrary
    ) -> SharedFace? {
        let name = path.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
        let fd = Glibc.open(name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else {
            close(fd)
            return nil
        }
        let source: Source
        var arguments = FT_Open_Args()
        if mapped {
            let base = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0)
            close(fd)
            guard let base, base != MAP_FAILED else { return nil }
            // Read where FreeType asks, not ahead: the glyphs a text uses are scattered.
            madvise(base, Int(size), MADV_RANDOM)
            source = .mapping(base, Int(size))
            arguments.flags = FT_UInt(FT_OPEN_MEMORY)
            arguments.memory_base = UnsafePointer(base.assumingMemoryBound(to: FT_Byte.self))
            arguments.memory_size = FT_Long(size)
        } else {
            let stream = stream(reading: fd, size: Int(size))
            source = .stream(stream)
            arguments.flags = FT_UInt(FT_OPEN_STREAM)
            arguments.stream = stream
        }
        var face: FT_Face?
        guard FT_Open_Face(library.library, &arguments, FT_Long(index), &face) == 0, let face else {
            // FreeType closed a stream (and so the file) on failure.
            switch source {
            case .stream(let stream): stream.deallocate()
            case .mapping(let base, let size): munmap(base, size)
            }
            return nil
        }
        if case .mapping(let base, let size) = source {
            // The pages read while opening (the character map's validation, the indexes copied
            // into FreeType's tables) are not needed again; those a glyph needs come back.
            madvise(base, size, MADV_DONTNEED)
        }
        return SharedFace(face: face, source: source, library: library, file: name, index: index)
    }

    /// A FreeType stream reading an open file with `pread`; FreeType closes the file.
    private static func stream(reading fd: Int32, size: Int) -> UnsafeMutablePointer<FT_StreamRec> {
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
        return stream
    }
}

/// A FreeType library instance, freed when the last face opened with it is, and the faces open
/// on it, one per font file and face index.
final class FreeTypeLibrary {
    let library: FT_Library
    /// The faces open, to share; an entry whose face closed (its last font did) is dropped
    /// when the next face is asked for.
    private var faces: [Weak] = []

    private struct Weak {
        weak var face: SharedFace?
    }

    init?() {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        self.library = library
    }

    deinit { FT_Done_FreeType(library) }

    /// The face of a matched font's file, opened on first use; nil when the match names no
    /// file or FreeType cannot open it, and for a font with a transformation matrix (Xft sets
    /// the matrix on the face itself, so such a font gets a face of its own).
    func face(for match: OpaquePointer) -> SharedFace? {
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetInteger(match, "index", 0, &index)
        var matrix: UnsafeMutablePointer<FcMatrix>?
        let shares = FcPatternGetMatrix(match, "matrix", 0, &matrix) != FcResultMatch
        let name = file.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
        faces.removeAll { $0.face == nil }
        if shares, let open = faces.first(where: { $0.face?.index == index && $0.face?.file == name })?.face {
            return open
        }
        guard let shared = SharedFace.open(file: file, index: index, mapped: Self.isCFF(match), library: self)
        else { return nil }
        if shares { faces.append(Weak(face: shared)) }
        return shared
    }

    /// Whether fontconfig says the font's outlines are CFF (`fontformat`).
    static func isCFF(_ match: OpaquePointer) -> Bool {
        var format: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, "fontformat", 0, &format) == FcResultMatch, let format else { return false }
        return format.withMemoryRebound(to: CChar.self, capacity: 4) { strcmp($0, "CFF") == 0 }
    }
}
