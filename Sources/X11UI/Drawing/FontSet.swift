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
    /// The box the glyphs of `text` cover when drawn from the top-left corner of a line (the
    /// pen at `(0, ascent)`): a combining mark can reach out of its letter's advance, and a
    /// tall stack of marks above the line.
    func inkBounds(of text: Substring) -> Rect
}

extension TextMeasuring {
    /// Glyphs that stay inside their advances and the line.
    func inkBounds(of text: Substring) -> Rect {
        Rect(x: 0, y: 0, width: width(of: text), height: lineHeight)
    }
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
    /// HarfBuzz fonts by face index, made when a face first shapes a run, and the size each
    /// was last synced to.
    private var shapingFonts: [Int: (font: OpaquePointer, xScale: Int)] = [:]
    /// Colour face index per scalar shown in emoji presentation; -1: no colour face has it.
    private var colorFaceCache: [UInt32: Int32] = [:]
    /// Advance of each ASCII character in its face; -1: not measured yet.
    private var asciiAdvances = [Double](repeating: -1, count: 128)
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
        // Shaping fonts exist only if HarfBuzz was loaded, so this never loads it.
        if !shapingFonts.isEmpty, let harfBuzz = HarfBuzz.shared {
            for shaping in shapingFonts.values { cx11_shaping_font_destroy(&harfBuzz.functions, shaping.font) }
        }
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
        return adopt(face)
    }

    /// Adds an opened fallback face to the set; returns its index.
    private func adopt(_ face: FontFace) -> Int {
        fontFaces.append(face)
        faces.append(face.font)
        return faces.count - 1
    }

    private func openFallback(for value: UInt32, color: Bool = false) -> FontFace? {
        guard let charset = FcCharSetCreate(), let pattern = FcPatternDuplicate(request) else { return nil }
        defer {
            FcCharSetDestroy(charset)
            FcPatternDestroy(pattern)
        }
        FcCharSetAddChar(charset, value)
        FcPatternAddCharSet(pattern, "charset", charset)
        if color {
            FcPatternAddBool(pattern, "color", 1)
        } else {
            FcPatternAddBool(pattern, "scalable", 1)
        }
        guard let face = FontFace.open(pattern: pattern, connection: connection, library: library) else { return nil }
        guard XftCharExists(connection.display, face.font, value) != 0, !color || Self.isColor(face.font) else {
            return nil
        }
        return face
    }

    /// The face that draws `scalar` in emoji presentation (followed by U+FE0F, as in ❤️): a
    /// colour font that has it, opened when needed; the plain face when no colour font has it.
    func colorFaceIndex(for scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if let cached = colorFaceCache[value] { return cached < 0 ? faceIndex(for: scalar) : Int(cached) }
        var index = faces.firstIndex { Self.isColor($0) && XftCharExists(connection.display, $0, value) != 0 } ?? -1
        if index < 0, connection.isUsable, let face = openFallback(for: value, color: true) { index = adopt(face) }
        colorFaceCache[value] = Int32(index)
        return index < 0 ? faceIndex(for: scalar) : index
    }

    /// Whether a face is a colour font (colour emoji).
    static func isColor(_ font: UnsafeMutablePointer<XftFont>) -> Bool {
        var color: FcBool = 0
        return FcPatternGetBool(font.pointee.pattern, "color", 0, &color) == FcResultMatch && color != 0
    }

    // MARK: - Runs

    /// A run of text drawn with one face.
    struct Run: Equatable {
        /// The face's index in `faces`.
        var face: Int
        /// Whether the run is shaped with HarfBuzz (it holds clusters that need it: Indic
        /// syllables, emoji sequences) rather than drawn one glyph per character by Xft.
        var isShaped: Bool
    }

    /// Calls `body` for each maximal run of `text` drawn with one face, with the run's UTF-8
    /// bytes. Characters that draw nothing (controls, joiners, variation selectors) are left
    /// out, except inside a cluster that is shaped (a joiner is what makes 👨‍👩‍👧 one family); a
    /// tab becomes a space. A cluster that needs shaping is drawn whole with the face of its
    /// first visible character (a colour face when the cluster asks for emoji presentation).
    ///
    /// Runs are at most about `RunBuilder.maxBytes` long (a longer one is handed over in
    /// pieces, between characters), so that no single Xft call gets more than an X request
    /// can carry, and drawing can stop at the clip. `body` returns false to stop early.
    func forEachRun(in text: Substring, _ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) {
        var runs = RunBuilder(capacity: min(text.utf8.count, 2 * RunBuilder.maxBytes))
        if text.unicodeScalars.contains(where: Self.needsShaping) {
            for character in text {
                if runs.isStopped { return }
                guard character.unicodeScalars.contains(where: Self.needsShaping) else {
                    for scalar in character.unicodeScalars { appendPlain(scalar, to: &runs, body) }
                    continue
                }
                let kept = character.unicodeScalars.filter { !Self.isControl($0) }
                guard let base = kept.first(where: { !Self.drawsNothing($0) }) else { continue }
                let face = kept.contains("\u{FE0F}") ? colorFaceIndex(for: base) : faceIndex(for: base)
                if face < 0 { continue }
                runs.breakIfLong(body)
                for scalar in kept { runs.append(scalar, in: Run(face: face, isShaped: true), body) }
            }
        } else {
            for scalar in text.unicodeScalars {
                if runs.isStopped { return }
                appendPlain(scalar, to: &runs, body)
            }
        }
        runs.finish(body)
    }

    /// Adds a character drawn one glyph per character to its face's run.
    private func appendPlain(
        _ scalar: Unicode.Scalar, to runs: inout RunBuilder, _ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        let scalar = scalar == "\t" ? " " : scalar
        if Self.drawsNothing(scalar) { return }
        var face = faceIndex(for: scalar)
        if face < 0 { return }
        // A combining mark stays with its base when the base's face has it.
        let current = runs.current
        if face != current.face, current.face >= 0, !current.isShaped,
            scalar.properties.generalCategory == .nonspacingMark,
            XftCharExists(connection.display, faces[current.face], scalar.value) != 0
        {
            face = current.face
        } else if !current.isShaped {
            runs.breakIfLong(body)
        }
        runs.append(scalar, in: Run(face: face, isShaped: false), body)
    }

    /// Collects the UTF-8 bytes of the current run and hands each run over when the next starts.
    private struct RunBuilder {
        /// The longest run handed over in one piece. Xft sends a run's glyphs in one Render
        /// request, and an X request is limited in size (a 256 KiB line ended the connection);
        /// 512 bytes are a few hundred glyphs, wider than any window.
        static let maxBytes = 512

        var bytes: [UInt8] = []
        var current = Run(face: -1, isShaped: false)
        /// Set when `body` asked to stop.
        private(set) var isStopped = false

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        mutating func append(
            _ scalar: Unicode.Scalar, in run: Run, _ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool
        ) {
            if run != current { hand(body) }
            current = run
            bytes.append(contentsOf: UTF8.encode(scalar)!)
        }

        /// Hands the run over so far when it is long; called only between characters.
        mutating func breakIfLong(_ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) {
            if bytes.count >= Self.maxBytes { hand(body) }
        }

        private mutating func hand(_ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) {
            guard !bytes.isEmpty, !isStopped else { return }
            if !bytes.withUnsafeBufferPointer({ body(current, $0) }) { isStopped = true }
            bytes.removeAll(keepingCapacity: true)
        }

        mutating func finish(_ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) { hand(body) }
    }

    /// Scalars Xft would draw as a box or that have no advance in plain text rendering.
    nonisolated static func drawsNothing(_ scalar: Unicode.Scalar) -> Bool {
        if isControl(scalar) { return true }
        switch scalar.value {
        case 0x200b...0x200f, 0x2028...0x202e, 0x2060...0x206f, 0xfe00...0xfe0f, 0xfeff, 0xfff9...0xfffb,
            0xe0000...0xe0fff:
            return true
        default:
            return false
        }
    }

    /// C0 and C1 control characters.
    nonisolated static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7f && scalar.value < 0xa0)
    }

    /// Scalars whose clusters need shaping to look right: the Indic and Southeast Asian scripts
    /// (conjuncts, vowel signs drawn before their consonant), and what builds emoji sequences
    /// (the zero width joiner, the keycap, the emoji presentation selector, regional indicator
    /// pairs for flags, skin tones, tag sequences for subdivision flags). Everything else is
    /// drawn one glyph per character.
    nonisolated static func needsShaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala
        case 0x0900...0x0DFF,
            0x0E00...0x0FFF,  // Thai, Lao, Tibetan
            0x1000...0x109F,  // Myanmar
            0x1780...0x17FF,  // Khmer
            0xA8E0...0xA8FF,  // Devanagari Extended
            0x200D, 0x20E3, 0xFE0F,  // zero width joiner, combining enclosing keycap, emoji presentation
            0x1F1E6...0x1F1FF,  // regional indicators
            0x1F3FB...0x1F3FF,  // skin tone modifiers
            0xE0020...0xE007F:  // tags
            return true
        default:
            return false
        }
    }

    /// One glyph of a shaped run, in pixels.
    struct ShapedGlyph: Equatable {
        var glyph: UInt32
        var advance: Double
        var offset: Point
    }

    /// Shapes a run with its face (HarfBuzz). A bitmap face (colour emoji) takes its advances
    /// from the scaled Xft font, as its own are those of its fixed-size strike. Without
    /// HarfBuzz the run's characters are laid out one glyph each, as Xft would.
    func shape(_ bytes: UnsafeBufferPointer<UInt8>, face: Int) -> [ShapedGlyph] {
        guard face >= 0, face < faces.count, !bytes.isEmpty, bytes.count < Int(Int32.max) / 2 else { return [] }
        guard let harfBuzz = HarfBuzz.shared else { return unshaped(bytes, face: face) }
        let font = faces[face]
        guard let ftFace = XftLockFace(font) else { return [] }
        defer { XftUnlockFace(font) }
        var shaping: (font: OpaquePointer, xScale: Int)
        if let cached = shapingFonts[face] {
            shaping = cached
        } else {
            guard let font = cx11_shaping_font(&harfBuzz.functions, ftFace) else { return unshaped(bytes, face: face) }
            shaping = (font, 0)
        }
        defer { shapingFonts[face] = shaping }
        var capacity = bytes.count + 8
        while true {
            var glyphs = [UInt32](repeating: 0, count: capacity)
            var advances = [Int32](repeating: 0, count: capacity)
            var xOffsets = [Int32](repeating: 0, count: capacity)
            var yOffsets = [Int32](repeating: 0, count: capacity)
            var scalable: Int32 = 1
            let count = bytes.withMemoryRebound(to: CChar.self) { text in
                cx11_shape(
                    &harfBuzz.functions, shaping.font, ftFace, &shaping.xScale, text.baseAddress, Int32(text.count),
                    &glyphs, &advances, &xOffsets, &yOffsets, Int32(capacity), &scalable)
            }
            guard count >= 0 else { return [] }
            if Int(count) > capacity {
                capacity = Int(count)
                continue
            }
            return (0..<Int(count)).map { index in
                guard scalable == 0 else {
                    return ShapedGlyph(
                        glyph: glyphs[index], advance: Double(advances[index]) / 64,
                        offset: Point(x: Double(xOffsets[index]) / 64, y: Double(yOffsets[index]) / 64))
                }
                var glyph = FT_UInt(glyphs[index])
                var extents = XGlyphInfo()
                XftGlyphExtents(connection.display, font, &glyph, 1, &extents)
                return ShapedGlyph(glyph: glyphs[index], advance: Double(extents.xOff), offset: .zero)
            }
        }
    }

    /// One glyph per character, for when HarfBuzz cannot be loaded.
    private func unshaped(_ bytes: UnsafeBufferPointer<UInt8>, face: Int) -> [ShapedGlyph] {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.compactMap { scalar in
            guard !Self.drawsNothing(scalar) else { return nil }
            var glyph = XftCharIndex(connection.display, faces[face], scalar.value)
            var extents = XGlyphInfo()
            XftGlyphExtents(connection.display, faces[face], &glyph, 1, &extents)
            return ShapedGlyph(glyph: glyph, advance: Double(extents.xOff), offset: .zero)
        }
    }

    func width(of text: Substring) -> Double {
        if let width = asciiWidth(of: text) { return width }
        var total = 0.0
        forEachRun(in: text) { run, bytes in
            total += advance(of: bytes, run: run)
            return true
        }
        return total
    }

    func inkBounds(of text: Substring) -> Rect {
        var penX = 0.0
        var ink: Rect?
        let add = { (box: Rect) in
            guard box.width > 0, box.height > 0 else { return }
            ink = ink.map { $0.union(box) } ?? box
        }
        forEachRun(in: text) { run, bytes in
            var extents = XGlyphInfo()
            if run.isShaped {
                for glyph in shape(bytes, face: run.face) {
                    var id = FT_UInt(glyph.glyph)
                    XftGlyphExtents(connection.display, faces[run.face], &id, 1, &extents)
                    add(Self.box(extents, x: penX + glyph.offset.x, baseline: ascent - glyph.offset.y))
                    penX += glyph.advance
                }
                return true
            }
            XftTextExtentsUtf8(connection.display, faces[run.face], bytes.baseAddress, Int32(bytes.count), &extents)
            add(Self.box(extents, x: penX, baseline: ascent))
            penX += Double(extents.xOff)
            return true
        }
        return ink ?? Rect(x: 0, y: 0, width: penX, height: lineHeight)
    }

    /// The ink box of glyph extents drawn with the pen at `(x, baseline)`.
    private static func box(_ extents: XGlyphInfo, x: Double, baseline: Double) -> Rect {
        Rect(
            x: x - Double(extents.x), y: baseline - Double(extents.y), width: Double(extents.width),
            height: Double(extents.height))
    }

    /// The width of text that is all ASCII, from cached advances; nil for other text.
    ///
    /// Xft's extents of unshaped text are the sum of its glyphs' advances (it neither kerns nor
    /// shapes), so adding cached advances gives the same width without building runs: wrapping
    /// a long text measures each word, and most words are ASCII.
    private func asciiWidth(of text: Substring) -> Double? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Double? in
            var total = 0.0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                total += asciiAdvance(byte)
            }
            return total
        } ?? nil
    }

    /// The advance of an ASCII character as `forEachRun` draws it: a tab as a space, other
    /// controls as nothing.
    private func asciiAdvance(_ byte: UInt8) -> Double {
        let cached = asciiAdvances[Int(byte)]
        if cached >= 0 { return cached }
        var advance = 0.0
        let scalar = Unicode.Scalar(byte == 0x09 ? 0x20 : byte)
        if !Self.drawsNothing(scalar) {
            let face = faceIndex(for: scalar)
            if face >= 0 {
                var glyph = XftCharIndex(connection.display, faces[face], scalar.value)
                var extents = XGlyphInfo()
                XftGlyphExtents(connection.display, faces[face], &glyph, 1, &extents)
                advance = Double(extents.xOff)
            }
        }
        asciiAdvances[Int(byte)] = advance
        return advance
    }

    /// The advance width of one run's bytes.
    private func advance(of bytes: UnsafeBufferPointer<UInt8>, run: Run) -> Double {
        if run.isShaped { return shape(bytes, face: run.face).reduce(0) { $0 + $1.advance } }
        var extents = XGlyphInfo()
        XftTextExtentsUtf8(connection.display, faces[run.face], bytes.baseAddress, Int32(bytes.count), &extents)
        return Double(extents.xOff)
    }

    /// Draws `text` with its baseline at `(x, y)` of an Xft drawable, only the runs that
    /// overlap `visible` (a horizontal span in the drawable's pixels).
    ///
    /// Runs left of the span are measured and skipped, drawing stops at its right end, and
    /// X coordinates stay within the protocol's 16-bit range: a line of a megabyte costs
    /// what its visible part costs, plus measuring what lies before it.
    func draw(
        _ text: Substring, on draw: OpaquePointer, color: UnsafePointer<XftColor>, x: Double, y: Double,
        visible: ClosedRange<Double>
    ) {
        var penX = x.rounded()
        let baseline = y.rounded()
        // A glyph reaches at most this far beyond its pen position (italic overhangs, wide
        // marks); runs closer to the span than that are drawn.
        let slack = lineHeight * 2
        guard baseline.isFinite, abs(baseline) < 30_000 else { return }
        forEachRun(in: text) { run, bytes in
            guard penX < visible.upperBound + slack else { return false }
            let font = faces[run.face]
            if run.isShaped {
                let glyphs = shape(bytes, face: run.face)
                let width = glyphs.reduce(0) { $0 + $1.advance }
                defer { penX += width }
                guard penX + width > visible.lowerBound - slack else { return true }
                var specs: [XftGlyphSpec] = []
                var glyphX = penX
                for glyph in glyphs {
                    specs.append(
                        XftGlyphSpec(
                            glyph: FT_UInt(glyph.glyph), x: Int16(clamping: Int((glyphX + glyph.offset.x).rounded())),
                            y: Int16(clamping: Int((baseline - glyph.offset.y).rounded()))))
                    glyphX += glyph.advance
                }
                XftDrawGlyphSpec(draw, color, font, specs, Int32(specs.count))
                return true
            }
            var extents = XGlyphInfo()
            XftTextExtentsUtf8(connection.display, font, bytes.baseAddress, Int32(bytes.count), &extents)
            defer { penX += Double(extents.xOff) }
            guard penX + Double(extents.xOff) > visible.lowerBound - slack else { return true }
            XftDrawStringUtf8(
                draw, color, font, Int32(clamping: Int(penX)), Int32(clamping: Int(baseline)), bytes.baseAddress,
                Int32(bytes.count))
            return true
        }
    }
}

/// HarfBuzz, opened the first time a text needs shaping and kept for the process's life (it
/// is a library, not a per-display resource). Most programs never load it.
@MainActor
final class HarfBuzz {
    var functions = cx11_harfbuzz()

    private init?() {
        guard cx11_harfbuzz_load(&functions) != 0 else {
            Log.warning(
                "HarfBuzz (libharfbuzz.so.0) cannot be loaded: complex scripts and emoji sequences are drawn unshaped")
            return nil
        }
    }

    /// The library, loaded on first use; nil when it is missing.
    static let shared = HarfBuzz()
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
