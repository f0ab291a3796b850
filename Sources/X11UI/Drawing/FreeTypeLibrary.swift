internal import CX11
internal import Glibc

/// A FreeType library instance, freed when the last face opened with it is, and the faces and
/// font files open on it, one face per font file and face index.
final class FreeTypeLibrary {
    let library: FT_Library
    /// The faces open, to share; an entry whose face closed (its last font did) is dropped
    /// when the next face is asked for.
    private var faces: [Weak<SharedFace>] = []
    /// The font files open, by path, for the same.
    private var files: [String: Weak<FontFile>] = [:]

    private struct Weak<Object: AnyObject> {
        weak var object: Object?
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
        faces.removeAll { $0.object == nil }
        if shares, let open = faces.first(where: { $0.object?.index == index && $0.object?.fontFile === file })?.object
        {
            return open
        }
        guard let shared = SharedFace.open(file: file, index: index, mapped: mapped, shares: shares, library: self)
        else { return nil }
        if shares { faces.append(Weak(object: shared)) }
        return shared
    }

    /// The font file at `path`, opened on first use; nil when it cannot be read.
    private func file(_ path: String) -> FontFile? {
        if let open = files[path]?.object { return open }
        files = files.filter { $0.value.object != nil }
        guard let file = FontFile(path: path) else { return nil }
        files[path] = Weak(object: file)
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
final class FontFile {
    let path: String
    let descriptor: Int32
    let size: Int

    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let size = lseek(descriptor, 0, SEEK_END)
        guard size > 0 else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.descriptor = descriptor
        self.size = Int(size)
    }

    deinit { close(descriptor) }
}
