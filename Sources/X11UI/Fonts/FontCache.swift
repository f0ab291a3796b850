internal import CX11
internal import Glibc

/// The font sets opened on one display, shared by every view.
@MainActor
final class FontCache {
    private let connection: DisplayConnection
    private var sets: [Font: FontSet] = [:]
    /// The FreeType instance faces are opened with (see `SharedFace`).
    private let library = FreeTypeLibrary()
    /// Fontconfig's choices of primary faces, shared by the sizes of a family and weight.
    let matcher: FontMatcher
    /// Fontconfig's answers of earlier runs (nil without a cache folder).
    let matchStore: FontMatchStore?
    /// The scale applied to font sizes (the desktop's dpi, else `Xft.dpi`, over 96).
    private(set) var scale: Double
    /// How glyphs are rendered, as the desktop asks.
    private(set) var options = FontRenderingOptions()
    /// Counts the changes of scale or options: text measured with an older generation's fonts
    /// is measured again.
    private(set) var generation = 0

    init(connection: DisplayConnection) {
        self.connection = connection
        scale = connection.dpi / 96
        matcher = FontMatcher(connection: connection)
        matchStore = FontMatchStore.shared
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
        let set = FontSet(
            font: font, scale: scale, options: options, connection: connection, library: library, matcher: matcher,
            store: matchStore)
        sets[font] = set
        return set
    }

    func removeAll() { sets.removeAll() }

    /// Lets the FreeType faces of the sets' fonts go, keeping the glyphs Xft rendered
    /// (`FontSet.releaseFaces()`): at the end of each turn of the run loop, once its text is
    /// laid out and drawn.
    ///
    /// FreeType allocates most of a face's tables below malloc's threshold for a map of their
    /// own (Noto Sans CJK: 0.45 MB of its 1 MB, DejaVu Sans all of its 0.1 MB), so freed they
    /// stay in the heap among what lives on; `malloc_trim` gives the heap's free pages back to
    /// the kernel when a face went.
    ///
    /// Fontconfig's new answers are written to the store then too, after the turn's painting.
    func releaseFaces() {
        var released = 0
        for set in sets.values { released += set.releaseFaces() }
        if released > 0 { malloc_trim(0) }
        matchStore?.saveIfNeeded()
    }

    /// Takes a new scale and rendering options; when either changed, the fonts open go (each is
    /// opened again on its next use) and the generation counts up. Returns whether it did.
    @discardableResult
    func update(scale newScale: Double, options newOptions: FontRenderingOptions) -> Bool {
        guard newScale != scale || newOptions != options else { return false }
        scale = newScale
        options = newOptions
        sets.removeAll()
        generation += 1
        return true
    }
}
