internal import CX11

/// Measures text; the layout code depends on this and not on Xft, so it can be tested with
/// made-up metrics.
@MainActor
protocol TextMeasuring {
    /// The advance width of a run of text, in pixels.
    func width(of text: Substring) -> Double
    /// The distance from one baseline to the next.
    var lineHeight: Double { get }
    /// The distance from the top of a line to its baseline.
    var ascent: Double { get }
}

/// The open Xft fonts for one `Font`: the primary face and the fallbacks found so far.
///
/// The fallback scheme is suckless `drw.c`'s: for a character no open face has, copy the
/// primary request, add the character to its charset, and ask fontconfig for the best match;
/// keep the match if it really has the character, and remember characters nothing has so the
/// expensive match is not repeated for every paint.
@MainActor
final class FontSet: TextMeasuring {
    private let connection: DisplayConnection
    /// The request (family, size, weight) that fallbacks are derived from.
    private let request: OpaquePointer
    /// The faces, primary first; `faces` holds their Xft fonts for the drawing loops.
    private var fontFaces: [FontFace] = []
    private(set) var faces: [UnsafeMutablePointer<XftFont>] = []
    private let library: FreeTypeLibrary?
    /// Face index per Unicode scalar, for scalars seen before; -1: no face has it.
    private var faceCache: [UInt32: Int32] = [:]
    /// Face index of ASCII scalars (they are nearly all text); -2: not looked up yet.
    private var asciiFaces = [Int8](repeating: -2, count: 128)

    let ascent: Double
    let descent: Double
    let lineHeight: Double

    /// Opens the primary face. When fontconfig matches nothing at all (no fonts installed), the
    /// set has no faces: text measures zero and draws nothing, and a warning says why.
    init(font: Font, scale: Double, connection: DisplayConnection, library: FreeTypeLibrary?) {
        self.connection = connection
        self.library = library
        let pixelSize = max(1, (font.size * scale).rounded())
        let pattern = FcPatternCreate()!
        FcPatternAddString(pattern, "family", font.family)
        FcPatternAddDouble(pattern, "pixelsize", pixelSize)
        FcPatternAddInteger(pattern, "weight", font.weight.fontconfigValue)
        request = pattern
        if let primary = FontFace.open(pattern: pattern, connection: connection, library: library) {
            fontFaces = [primary]
            faces = [primary.font]
            ascent = Double(primary.font.pointee.ascent)
            descent = Double(primary.font.pointee.descent)
        } else {
            Log.warning("\(X11UIError.fontUnavailable(pattern: "\(font.family) \(pixelSize)px"))")
            ascent = (pixelSize * 0.8).rounded()
            descent = (pixelSize * 0.2).rounded()
        }
        lineHeight = ascent + descent
    }

    isolated deinit {
        FcPatternDestroy(request)
    }

    // MARK: - Choosing a face per character

    /// The face that draws `scalar`, opening a fallback when needed; 0 when nothing has it.
    func faceIndex(for scalar: Unicode.Scalar) -> Int {
        guard !faces.isEmpty else { return -1 }
        let value = scalar.value
        if value < 128 {
            let cached = asciiFaces[Int(value)]
            if cached >= 0 { return Int(cached) }
            let index = lookUpFace(for: value)
            asciiFaces[Int(value)] = Int8(index)
            return index
        }
        if let cached = faceCache[value] { return cached < 0 ? 0 : Int(cached) }
        let index = lookUpFace(for: value)
        faceCache[value] = Int32(index)
        return max(0, index)
    }

    private func lookUpFace(for value: UInt32) -> Int {
        if let index = faces.firstIndex(where: { XftCharExists(connection.display, $0, value) != 0 }) {
            return index
        }
        guard connection.isUsable, let face = openFallback(for: value) else { return -1 }
        fontFaces.append(face)
        faces.append(face.font)
        return faces.count - 1
    }

    private func openFallback(for value: UInt32) -> FontFace? {
        guard let charset = FcCharSetCreate(), let pattern = FcPatternDuplicate(request) else { return nil }
        defer {
            FcCharSetDestroy(charset)
            FcPatternDestroy(pattern)
        }
        FcCharSetAddChar(charset, value)
        FcPatternAddCharSet(pattern, "charset", charset)
        FcPatternAddBool(pattern, "scalable", 1)
        guard let face = FontFace.open(pattern: pattern, connection: connection, library: library) else { return nil }
        return XftCharExists(connection.display, face.font, value) != 0 ? face : nil
    }

    // MARK: - Runs

    /// Calls `body` for each maximal run of `text` drawn with one face, with the run's UTF-8
    /// bytes. Characters that draw nothing (controls, joiners, variation selectors) are left
    /// out; a tab becomes a space.
    func forEachRun(in text: Substring, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var current = -1
        for var scalar in text.unicodeScalars {
            if scalar == "\t" { scalar = " " }
            if Self.drawsNothing(scalar) { continue }
            var face = faceIndex(for: scalar)
            if face < 0 { continue }
            // A combining mark stays with its base when the base's face has it.
            if face != current, current >= 0, scalar.properties.generalCategory == .nonspacingMark,
                XftCharExists(connection.display, faces[current], scalar.value) != 0
            {
                face = current
            }
            if face != current, !bytes.isEmpty {
                bytes.withUnsafeBufferPointer { body(current, $0) }
                bytes.removeAll(keepingCapacity: true)
            }
            current = face
            bytes.append(contentsOf: UTF8.encode(scalar)!)
        }
        if !bytes.isEmpty { bytes.withUnsafeBufferPointer { body(current, $0) } }
    }

    /// Scalars Xft would draw as a box or that have no advance in plain text rendering.
    nonisolated static func drawsNothing(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7f && v < 0xa0) { return true }
        switch v {
        case 0x200b...0x200f, 0x2028...0x202e, 0x2060...0x206f, 0xfe00...0xfe0f, 0xfeff, 0xfff9...0xfffb,
            0xe0000...0xe0fff:
            return true
        default:
            return false
        }
    }

    func width(of text: Substring) -> Double {
        var total = 0
        forEachRun(in: text) { face, bytes in
            var extents = XGlyphInfo()
            XftTextExtentsUtf8(connection.display, faces[face], bytes.baseAddress, Int32(bytes.count), &extents)
            total += Int(extents.xOff)
        }
        return Double(total)
    }

    /// Draws `text` with its baseline at `(x, y)` of an Xft drawable.
    func draw(_ text: Substring, on draw: OpaquePointer, color: UnsafePointer<XftColor>, x: Double, y: Double) {
        var penX = Int32(x.rounded())
        let baseline = Int32(y.rounded())
        forEachRun(in: text) { face, bytes in
            XftDrawStringUtf8(draw, color, faces[face], penX, baseline, bytes.baseAddress, Int32(bytes.count))
            var extents = XGlyphInfo()
            XftTextExtentsUtf8(connection.display, faces[face], bytes.baseAddress, Int32(bytes.count), &extents)
            penX += Int32(extents.xOff)
        }
    }
}

/// The font sets opened on one display, shared by every view.
@MainActor
final class FontCache {
    private let connection: DisplayConnection
    private var sets: [Font: FontSet] = [:]
    /// The FreeType instance faces are opened with (through read streams, not mmap).
    private let library = FreeTypeLibrary()
    /// The scale applied to font sizes (`Xft.dpi` / 96).
    let scale: Double

    init(connection: DisplayConnection) {
        self.connection = connection
        scale = connection.dpi / 96
        Self.disableUnreferencedFontCache(connection)
    }

    /// Makes Xft free a font as soon as its last user closes it, instead of keeping up to 16
    /// unreferenced fonts until the display closes.
    ///
    /// Xft frees those cached fonts from its close-display hook, which runs after Xrender's
    /// own hook has already dropped Xrender's record of the display; freeing the fonts' glyph
    /// sets then makes Xrender record the closing display afresh, and that record outlives the
    /// `Display*`. A connection opened later at the same address inherits it and sends requests
    /// with a stale extension opcode. (Seen when a host closes a display X11UI drew text on and
    /// opens another.) The defaults kept are the display's own, from its X resources.
    private static func disableUnreferencedFontCache(_ connection: DisplayConnection) {
        guard connection.isUsable, let defaults = FcPatternCreate() else { return }
        XftDefaultSubstitute(connection.display, connection.screen, defaults)
        FcPatternDel(defaults, "maxunreffonts")
        FcPatternAddInteger(defaults, "maxunreffonts", 0)
        XftDefaultSet(connection.display, defaults)  // takes the pattern
    }

    /// The font set for a font, opened on first use.
    func fontSet(for font: Font) -> FontSet {
        if let set = sets[font] { return set }
        let set = FontSet(font: font, scale: scale, connection: connection, library: library)
        sets[font] = set
        return set
    }

    func removeAll() { sets.removeAll() }
}
