internal import CX11
internal import Glibc

/// A font file's FreeType face, shared by the fonts opened from it at any size (see
/// `FontFace`), and read in the way that costs the least memory for its outline format.
///
/// - TrueType outlines (`glyf`: DejaVu, NanumGothic, Lohit) and bitmap fonts (Noto Color
///   Emoji) are read through a stream (`BlockStream`). FreeType then reads the few tables it
///   needs and each glyph when loaded. Mapped instead, every page FreeType touches brings in
///   the 64 KB around it (the kernel's fault-around): NanumGothic was 0.4 MB more resident and
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
        /// A stream reading the file through a few cached blocks (closed by FreeType with the
        /// face).
        case stream(BlockStream)
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
        if case .mapping(let base, let size) = source { munmap(base, size) }
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
            let blocks = BlockStream(file: file)
            source = .stream(blocks)
            arguments.flags = FT_UInt(FT_OPEN_STREAM)
            arguments.stream = blocks.stream
        }
        var face: FT_Face?
        guard FT_Open_Face(library.library, &arguments, FT_Long(index), &face) == 0, let face else {
            if case .mapping(let base, let size) = source { munmap(base, size) }
            return nil
        }
        if case .mapping(let base, let size) = source {
            // The pages read while opening (the character map's validation, the indexes copied
            // into FreeType's tables) are not needed again; those a glyph needs come back.
            madvise(base, size, MADV_DONTNEED)
        }
        return SharedFace(face: face, source: source, library: library, file: file, index: index, shares: shares)
    }
}

/// A FreeType stream on an open font file that reads it a block at a time and keeps the last
/// few blocks.
///
/// FreeType reads a font in many small pieces: a table directory entry of 16 bytes, a `loca`
/// offset of 2, a glyph's outline of a few hundred. One `pread` each made 720 system calls
/// before the sample scene's first paint (about 0.3 ms). Eight blocks of 4 KB, the least
/// recently used replaced, serve the same reads with about 30 (tables and glyphs of a text lie
/// close together). A read of a block or more goes to the file directly. The blocks are the
/// stream's only memory, 32 KB, whose pages become resident as blocks are read into them.
///
/// FreeType calls the read for every piece, so it works on plain memory (`State`), not on this
/// object's properties, which would cost an exclusivity check per access.
final class BlockStream {
    static let blockSize = 4096
    static let blockCount = 8

    /// A slot of the cache: the block it holds (-1: none), how many of its bytes the file has,
    /// and when it was last used.
    struct Slot {
        var number = -1
        var length = 0
        var use: UInt = 0
    }

    struct State {
        let descriptor: Int32
        let size: Int
        /// The blocks' bytes, `blockCount` × `blockSize`.
        let storage: UnsafeMutableRawPointer
        let slots: UnsafeMutablePointer<Slot>
        var clock: UInt = 0
        /// The slot used last, looked at first.
        var last = 0
        var fileReads = 0
    }

    private let state: UnsafeMutablePointer<State>
    /// The stream for `FT_Open_Face`, which reads through this object: the face must be done
    /// before this object is.
    let stream: UnsafeMutablePointer<FT_StreamRec>

    /// How many times the file was read (for tests).
    var fileReads: Int { state.pointee.fileReads }

    init(file: FontFile) {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: Self.blockCount)
        slots.initialize(repeating: Slot(), count: Self.blockCount)
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: Self.blockSize * Self.blockCount, alignment: Self.blockSize)
        state = .allocate(capacity: 1)
        state.initialize(to: State(descriptor: file.descriptor, size: file.size, storage: storage, slots: slots))
        stream = .allocate(capacity: 1)
        stream.initialize(to: FT_StreamRec())
        stream.pointee.descriptor.pointer = UnsafeMutableRawPointer(state)
        stream.pointee.size = UInt(file.size)
        stream.pointee.read = { stream, offset, buffer, count in
            guard let stream, let state = stream.pointee.descriptor.pointer else { return 0 }
            return UInt(BlockStream.read(state.assumingMemoryBound(to: State.self), Int(offset), buffer, Int(count)))
        }
    }

    deinit {
        stream.deallocate()
        state.pointee.storage.deallocate()
        state.pointee.slots.deallocate()
        state.deallocate()
    }

    /// FreeType's read: copies up to `count` bytes at `offset` into `buffer` and returns how
    /// many; a zero count is a seek, which returns 0 when `offset` is within the file.
    func read(at offset: Int, into buffer: UnsafeMutablePointer<UInt8>?, count: Int) -> Int {
        Self.read(state, offset, buffer, count)
    }

    private static func read(
        _ state: UnsafeMutablePointer<State>, _ offset: Int, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int
    ) -> Int {
        let size = state.pointee.size
        if count == 0 { return offset <= size ? 0 : 1 }
        guard let buffer, offset >= 0, offset < size else { return 0 }
        let count = min(count, size - offset)
        if count >= blockSize {
            state.pointee.fileReads += 1
            return max(0, pread(state.pointee.descriptor, buffer, count, off_t(offset)))
        }
        var copied = 0
        while copied < count {
            let position = offset + copied
            guard let (start, length) = block(position / blockSize, in: state) else { break }
            let within = position % blockSize
            guard within < length else { break }
            let piece = min(count - copied, length - within)
            UnsafeMutableRawPointer(buffer + copied).copyMemory(from: start + within, byteCount: piece)
            copied += piece
        }
        return copied
    }

    /// The bytes of block `number` and how many the file has, read into the least recently
    /// used slot unless a slot holds it; nil when the file cannot be read there.
    private static func block(_ number: Int, in state: UnsafeMutablePointer<State>) -> (UnsafeMutableRawPointer, Int)? {
        state.pointee.clock &+= 1
        let clock = state.pointee.clock
        let slots = state.pointee.slots
        let storage = state.pointee.storage
        let last = state.pointee.last
        if slots[last].number == number {
            slots[last].use = clock
            return (storage + last * blockSize, slots[last].length)
        }
        var slot = 0
        for candidate in 0..<blockCount {
            if slots[candidate].number == number {
                slots[candidate].use = clock
                state.pointee.last = candidate
                return (storage + candidate * blockSize, slots[candidate].length)
            }
            if slots[candidate].use < slots[slot].use { slot = candidate }
        }
        let start = storage + slot * blockSize
        state.pointee.fileReads += 1
        let read = pread(state.pointee.descriptor, start, blockSize, off_t(number * blockSize))
        guard read > 0 else {
            slots[slot].number = -1
            return nil
        }
        slots[slot] = Slot(number: number, length: read, use: clock)
        state.pointee.last = slot
        return (start, read)
    }
}
