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
    /// The advance width of text in reading (logical) order, as wrapping measures words before
    /// the bidirectional algorithm puts them in display order: it differs from `width(of:)`
    /// only where a shaping engine joins right-to-left letters.
    func readingWidth(of text: Substring) -> Double
    /// Whether right-to-left letters that join (Arabic) are joined by the measurer's shaping
    /// engine, so the bidirectional algorithm must leave them as they are; when false it joins
    /// them into the font's presentation forms.
    var shapesJoiningScripts: Bool { get }
    /// For text in display order: the left edge of each of its scalars, from the text's start,
    /// and the right end last (so one more edge than scalars), for selection and hit testing.
    /// The scalars of one glyph (a letter and its marks, a ligature) share its advance.
    func displayEdges(of text: Substring) -> [Double]
}

extension TextMeasuring {
    /// Glyphs that stay inside their advances and the line.
    func inkBounds(of text: Substring) -> Rect {
        Rect(x: 0, y: 0, width: width(of: text), height: lineHeight)
    }

    func readingWidth(of text: Substring) -> Double { width(of: text) }

    var shapesJoiningScripts: Bool { false }

    func displayEdges(of text: Substring) -> [Double] { scalarEdges(of: text) }

    /// The edges of text whose every scalar is measured on its own.
    func scalarEdges(of text: Substring) -> [Double] {
        var x = 0.0
        var edges = [0.0]
        edges.reserveCapacity(text.unicodeScalars.count + 1)
        for scalar in text.unicodeScalars {
            x += width(of: String(scalar)[...])
            edges.append(x)
        }
        return edges
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
    let connection: DisplayConnection
    /// The request (family, size, weight) that fallbacks are derived from.
    let request: OpaquePointer
    /// The faces, primary first; `faces` holds their Xft fonts for the drawing loops.
    var fontFaces: [FontFace] = []
    var faces: [UnsafeMutablePointer<XftFont>] = []
    let library: FreeTypeLibrary?
    /// Where fontconfig's answers are kept between runs (fallbacks are asked for there too).
    let store: FontMatchStore?
    /// Face index per Unicode scalar, for scalars seen before; -1: no face has it.
    var faceCache: [UInt32: Int32] = [:]
    /// HarfBuzz fonts by face index, made when a face first shapes a run, and the size each
    /// was last synced to.
    var shapingFonts: [Int: (font: OpaquePointer, xScale: Int)] = [:]
    /// Colour face index per scalar shown in emoji presentation; -1: no colour face has it.
    var colorFaceCache: [UInt32: Int32] = [:]
    /// Advance of each ASCII character in its face; -1: not measured yet.
    var asciiAdvances = [Double](repeating: -1, count: 128)
    /// Face index of ASCII scalars (they are nearly all text); -1: no face has it (a miss is
    /// remembered like a hit); -2: not looked up yet.
    var asciiFaces = [Int8](repeating: -2, count: 128)
    /// How many times a scalar was searched for in the faces and fontconfig (plain and colour
    /// lookups): each scalar is searched once, whether a face has it or not.
    var faceLookups = 0
    /// The advances of runs of joining scripts (Arabic words) shaped before, up to
    /// `joinedAdvancesLimit` of them (then the cache starts again).
    var joinedAdvances: [JoinedRun: Double] = [:]
    static let joinedAdvancesLimit = 4096

    /// A run of a joining script, in reading order, and its face.
    struct JoinedRun: Hashable {
        var face: Int
        var bytes: [UInt8]
    }

    let ascent: Double
    let descent: Double
    let lineHeight: Double

    /// Opens the primary face. When fontconfig matches nothing at all (no fonts installed), the
    /// set has no faces: text measures zero and draws nothing, and a warning says why.
    init(
        font: Font, scale: Double, options: FontRenderingOptions = FontRenderingOptions(),
        connection: DisplayConnection,
        library: FreeTypeLibrary?, matcher: FontMatcher? = nil, store: FontMatchStore? = nil
    ) {
        self.connection = connection
        self.library = library
        self.store = store
        let pixelSize = max(1, (font.size * scale).rounded())
        let pattern = FcPatternCreate()!
        FcPatternAddString(pattern, "family", font.family)
        FcPatternAddDouble(pattern, "pixelsize", pixelSize)
        FcPatternAddInteger(pattern, "weight", font.weight.fontconfigValue)
        // In the request, so that the fallbacks (copies of it) render alike.
        options.apply(to: pattern)
        request = pattern
        if let primary = FontFace.open(
            pattern: pattern, connection: connection, library: library, matcher: matcher, store: store)
        {
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

    /// The Xft font of face `index` with its size made the active one of its FreeType face,
    /// which the sizes of one font file share (see `FontFace`): for every Xft call that may
    /// load glyphs or lock the face. (`faces` serves the calls that read only the font's
    /// pattern; characters are looked up with `FontFace.has(_:)` and `glyph(for:)`.)
    func activeFont(_ index: Int) -> UnsafeMutablePointer<XftFont> {
        fontFaces[index].activate()
        return faces[index]
    }

    /// `activeFont(_:)` for an Xft call that draws or measures `glyphs` and nothing else: a
    /// face let go is not opened again when Xft has rendered them all.
    func activeFont(_ index: Int, for glyphs: UnsafeBufferPointer<FT_UInt>) -> UnsafeMutablePointer<XftFont> {
        fontFaces[index].activate(for: glyphs)
        return faces[index]
    }

    /// Lets the FreeType faces of the set's fonts go (`FontFace.releaseFace()`), keeping the
    /// glyphs Xft rendered: called when a turn of the run loop has laid out and drawn its text.
    /// Not a face HarfBuzz shapes with (its runs are shaped at every measure and draw, with the
    /// face), nor a colour font (Xft counts a colour glyph's memory 256 times and gives it back
    /// often). Returns how many faces it let go.
    @discardableResult
    func releaseFaces() -> Int {
        var released = 0
        for index in fontFaces.indices where shapingFonts[index] == nil && !Self.isColor(faces[index]) {
            if fontFaces[index].releaseFace() { released += 1 }
        }
        return released
    }

    isolated deinit {
        // Shaping fonts exist only if HarfBuzz was loaded, so this never loads it.
        if !shapingFonts.isEmpty, let harfBuzz = HarfBuzz.shared {
            for shaping in shapingFonts.values { cx11_shaping_font_destroy(&harfBuzz.functions, shaping.font) }
        }
        FcPatternDestroy(request)
    }
}
