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
    /// The file, open while the face reads it.
    let fontFile: FontFile
    var file: String { fontFile.path }
    let index: Int32
    /// Whether other fonts of the file may use the face (see `FreeTypeLibrary.face(for:)`).
    let shares: Bool

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

    private init(
        face: FT_Face, source: Source, library: FreeTypeLibrary, file: FontFile, index: Int32, shares: Bool
    ) {
        self.face = face
        self.source = source
        self.library = library
        self.fontFile = file
        self.index = index
        self.shares = shares
    }

    deinit {
        FT_Done_Face(face)  // frees the sizes left
        switch source {
        case .stream(let stream): stream.deallocate()
        case .mapping(let base, let size): munmap(base, size)
        }
    }

    /// Opens face `index` of an open file, from a map of it when `mapped`, else through a
    /// stream.
    static func open(file: FontFile, index: Int32, mapped: Bool, shares: Bool, library: FreeTypeLibrary) -> SharedFace?
    {
        let source: Source
        var arguments = FT_Open_Args()
        if mapped {
            let base = mmap(nil, file.size, PROT_READ, MAP_PRIVATE, file.descriptor, 0)
            guard let base, base != MAP_FAILED else { return nil }
            // Read where FreeType asks, not ahead: the glyphs a text uses are scattered.
            madvise(base, file.size, MADV_RANDOM)
            source = .mapping(base, file.size)
            arguments.flags = FT_UInt(FT_OPEN_MEMORY)
            arguments.memory_base = UnsafePointer(base.assumingMemoryBound(to: FT_Byte.self))
            arguments.memory_size = FT_Long(file.size)
        } else {
            let stream = stream(reading: file)
            source = .stream(stream)
            arguments.flags = FT_UInt(FT_OPEN_STREAM)
            arguments.stream = stream
        }
        var face: FT_Face?
        guard FT_Open_Face(library.library, &arguments, FT_Long(index), &face) == 0, let face else {
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
        return SharedFace(face: face, source: source, library: library, file: file, index: index, shares: shares)
    }

    /// A FreeType stream reading an open file with `pread` (the file stays open with its
    /// `FontFile`, which the face holds).
    private static func stream(reading file: FontFile) -> UnsafeMutablePointer<FT_StreamRec> {
        let stream = UnsafeMutablePointer<FT_StreamRec>.allocate(capacity: 1)
        stream.initialize(to: FT_StreamRec())
        stream.pointee.descriptor.value = Int(file.descriptor)
        stream.pointee.size = UInt(file.size)
        stream.pointee.read = { stream, offset, buffer, count in
            guard let stream else { return 0 }
            // A zero count is a seek: 0 means success.
            if count == 0 { return offset <= stream.pointee.size ? 0 : 1 }
            let read = pread(Int32(stream.pointee.descriptor.value), buffer, Int(count), off_t(offset))
            return read < 0 ? 0 : UInt(read)
        }
        return stream
    }
}
