internal import CX11

/// Fontconfig's choice of font for a request, remembered for the requests that differ from it
/// only in size.
///
/// A program asks for a family at several sizes and weights (body text, captions, titles). Each
/// open went through `XftFontMatch`: the configuration's substitutions, then a score of every
/// installed font. The scoring is half the cost of opening a font (about 1 M instructions of
/// 2 on this machine's 172 fonts) and, for the same family and weight, picks the same file at
/// every size, unless a font of that family has sizes of its own (bitmap strikes, or the
/// design sizes of optical-size fonts), whose score depends on the size asked for.
///
/// So the substitutions still run for every request (some depend on the size: Debian's
/// `65-fonts-persian.conf` adds families from 24 points up), and the substituted request without
/// its size is the key. On a hit the remembered font is prepared for this request the way
/// `FcFontMatch` prepares its best font (`FcFontRenderPrepare`: the configuration's font rules,
/// such as `20-unhint-small-dejavu-sans.conf` turning hinting off below 7.5 pixels, run for
/// the new size), so the pattern Xft opens is the one `XftFontMatch` would have given.
@MainActor
final class FontMatcher {
    private let connection: DisplayConnection
    /// The choices made: the substituted request without its size (owned), its hash, and the
    /// chosen font's pattern (one of the configuration's, referenced).
    private var chosen: [(hash: UInt32, request: OpaquePointer, font: OpaquePointer)] = []
    /// Family names of the installed fonts that have sizes of their own.
    private lazy var sizedFamilies: Set<String> = Self.familiesWithSizes()
    /// How many requests were scored against every font (for tests).
    private(set) var scoredMatches = 0
    /// How many substituted requests were copied to make a key (for tests: a request whose
    /// choice is remembered needs no copy).
    private(set) var copiedKeys = 0

    init(connection: DisplayConnection) {
        self.connection = connection
    }

    isolated deinit {
        for choice in chosen {
            FcPatternDestroy(choice.request)
            FcPatternDestroy(choice.font)
        }
    }

    /// The font pattern to open for `pattern` (family, size, weight), as `XftFontMatch` gives
    /// it; nil when fontconfig matches nothing. The caller owns the result.
    func match(_ pattern: OpaquePointer) -> OpaquePointer? {
        guard connection.isUsable, let request = FcPatternDuplicate(pattern) else { return nil }
        defer { FcPatternDestroy(request) }
        FcConfigSubstitute(nil, request, FcMatchPattern)
        XftDefaultSubstitute(connection.display, connection.screen, request)
        // The key is the request without its size. The substituted request is large (the
        // configuration's family lists): rather than copied to make the key, it loses its
        // sizes while it is compared (when they are plain numbers), and gets them back.
        let sizes = Self.takeSizes(from: request)
        let sizeless: OpaquePointer
        if sizes != nil {
            sizeless = request
        } else {
            guard let copy = FcPatternDuplicate(request) else { return nil }
            copiedKeys += 1
            FcPatternDel(copy, "size")
            FcPatternDel(copy, "pixelsize")
            sizeless = copy
        }
        let hash = FcPatternHash(sizeless)
        let choice = chosen.first { $0.hash == hash && FcPatternEqual($0.request, sizeless) != 0 }
        // What is kept as the key when this request is scored.
        var key: OpaquePointer? = sizeless
        if let sizes {
            key = nil
            if choice == nil {
                key = FcPatternDuplicate(request)
                copiedKeys += 1
            }
            Self.put(sizes, back: request)
        }
        if let choice {
            if let key { FcPatternDestroy(key) }
            return FcFontRenderPrepare(nil, request, choice.font)
        }
        guard let key else { return nil }
        scoredMatches += 1
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, request, &result) else {
            FcPatternDestroy(key)
            return nil
        }
        if let font = Self.installedFont(like: match), !Self.families(of: font).contains(where: sizedFamilies.contains)
        {
            FcPatternReference(font)
            chosen.append((hash, key, font))
        } else {
            FcPatternDestroy(key)
        }
        return match
    }

    /// Takes `size` and `pixelsize` out of a pattern and returns their values, in order; nil
    /// (and the pattern as it was) unless each is a number bound strongly, as
    /// `FcPatternAddDouble` puts it back.
    private static func takeSizes(from pattern: OpaquePointer) -> [(object: String, values: [Double])]? {
        var sizes: [(object: String, values: [Double])] = []
        for object in ["size", "pixelsize"] {
            var values: [Double] = []
            var value = FcValue()
            var binding = FcValueBindingStrong
            while FcPatternGetWithBinding(pattern, object, Int32(values.count), &value, &binding) == FcResultMatch {
                guard value.type == FcTypeDouble, binding == FcValueBindingStrong else { return nil }
                values.append(value.u.d)
            }
            sizes.append((object, values))
        }
        for size in sizes { FcPatternDel(pattern, size.object) }
        return sizes
    }

    /// Puts back what `takeSizes(from:)` took.
    private static func put(_ sizes: [(object: String, values: [Double])], back pattern: OpaquePointer) {
        for size in sizes {
            for value in size.values { FcPatternAddDouble(pattern, size.object, value) }
        }
    }

    /// The installed font a match was prepared from: the same file and face index.
    private static func installedFont(like match: OpaquePointer) -> OpaquePointer? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(match, "index", 0, &index)
        for set in [FcSetSystem, FcSetApplication] {
            guard let fonts = FcConfigGetFonts(nil, set) else { continue }
            for position in 0..<Int(fonts.pointee.nfont) {
                guard let font = fonts.pointee.fonts[position] else { continue }
                var fontFile: UnsafeMutablePointer<FcChar8>?
                var fontIndex: Int32 = 0
                guard FcPatternGetString(font, "file", 0, &fontFile) == FcResultMatch, let fontFile,
                    strcmp(fontFile, file) == 0
                else { continue }
                _ = FcPatternGetInteger(font, "index", 0, &fontIndex)
                if fontIndex == index { return font }
            }
        }
        return nil
    }

    /// A font's family names (every language's).
    private static func families(of font: OpaquePointer) -> [String] {
        var names: [String] = []
        var name: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(font, "family", Int32(names.count), &name) == FcResultMatch, let name {
            names.append(name.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) })
        }
        return names
    }

    /// The families of installed fonts with a size or pixel size of their own.
    private static func familiesWithSizes() -> Set<String> {
        var sized: Set<String> = []
        var value = FcValue()
        for set in [FcSetSystem, FcSetApplication] {
            guard let fonts = FcConfigGetFonts(nil, set) else { continue }
            for position in 0..<Int(fonts.pointee.nfont) {
                guard let font = fonts.pointee.fonts[position] else { continue }
                if FcPatternGet(font, "pixelsize", 0, &value) == FcResultMatch
                    || FcPatternGet(font, "size", 0, &value) == FcResultMatch
                {
                    sized.formUnion(families(of: font))
                }
            }
        }
        return sized
    }
}
