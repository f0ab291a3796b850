internal import CX11
internal import Glibc

/// A FreeType library instance, freed when the last face opened with it is, and the faces and
/// font files open on it, one face per font file and face index.
final class FreeTypeLibrary {
    let library: FT_Library
    /// The faces open, to share; an entry whose face closed (its last font did) is dropped
    /// when the next face is asked for.
    private var faces: [WeakFace] = []
    /// The font files open, for the same. (Neither is generic nor a dictionary: the runtime
    /// would look up their types' conformances at start, 0.3 million instructions.)
    private var files: [WeakFile] = []

    private struct WeakFace {
        weak var face: SharedFace?
    }

    private struct WeakFile {
        weak var file: FontFile?
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
        var path: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(match, "file", 0, &path) == FcResultMatch, let path else { return nil }
        _ = FcPatternGetInteger(match, "index", 0, &index)
        var matrix: UnsafeMutablePointer<FcMatrix>?
        let shares = FcPatternGetMatrix(match, "matrix", 0, &matrix) != FcResultMatch
        let name = path.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
        guard let file = file(name) else { return nil }
        return face(file: file, index: index, mapped: Self.isCFF(match), shares: shares)
    }

    /// The face `index` of an open font file, opened on first use (from a map of the file when
    /// `mapped`); when it `shares`, the face the file's other fonts use, if one is open. Fonts
    /// open their face again with it after letting it go (`FontFace.releaseFace()`).
    func face(file: FontFile, index: Int32, mapped: Bool, shares: Bool) -> SharedFace? {
        faces.removeAll { $0.face == nil }
        if shares, let open = faces.first(where: { $0.face?.index == index && $0.face?.fontFile === file })?.face {
            return open
        }
        guard let shared = SharedFace.open(file: file, index: index, mapped: mapped, shares: shares, library: self)
        else { return nil }
        if shares { faces.append(WeakFace(face: shared)) }
        return shared
    }

    /// The font file at `path`, opened on first use; nil when it cannot be read.
    private func file(_ path: String) -> FontFile? {
        files.removeAll { $0.file == nil }
        if let open = files.first(where: { $0.file?.path == path })?.file { return open }
        guard let file = FontFile(path: path) else { return nil }
        files.append(WeakFile(file: file))
        return file
    }

    /// Whether fontconfig says the font's outlines are CFF (`fontformat`).
    static func isCFF(_ match: OpaquePointer) -> Bool {
        var format: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, "fontformat", 0, &format) == FcResultMatch, let format else { return false }
        return format.withMemoryRebound(to: CChar.self, capacity: 4) { strcmp($0, "CFF") == 0 }
    }
}

/// A font file open for reading, by the faces read from it and by the fonts that may open a
/// face of it again (`FontFace.releaseFace()`): a face opened again reads the file that was
/// read first, even after a package upgrade replaced or removed it.
///
/// The path may come from the font store, a file in the user's folders that anyone who can
/// write there can forge: it opens only a regular file of at most ``largestSize`` bytes,
/// without blocking (see `FileBytes.openRegular`), so a FIFO or a device named as a font is
/// refused at once.
final class FontFile {
    let path: String
    let descriptor: Int32
    let size: Int

    /// The largest font file opened: 1 GiB (Noto Sans CJK's collection, among the largest, is
    /// 20 MB).
    static let largestSize = 1 << 30

    init?(path: String) {
        guard let (descriptor, size) = FileBytes.openRegular(path, atMost: Self.largestSize) else { return nil }
        guard size > 0 else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.descriptor = descriptor
        self.size = size
    }

    /// Whether the file at `path` is one `init(path:)` would open (a regular file of a sane
    /// size), checked the same way: before a path is handed to a library that opens it itself.
    static func isOpenable(_ path: String) -> Bool {
        guard let (descriptor, size) = FileBytes.openRegular(path, atMost: largestSize) else { return false }
        close(descriptor)
        return size > 0
    }

    deinit { close(descriptor) }
}
