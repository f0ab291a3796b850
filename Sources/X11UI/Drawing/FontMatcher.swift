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
        guard let sizeless = FcPatternDuplicate(request) else { return nil }
        FcPatternDel(sizeless, "size")
        FcPatternDel(sizeless, "pixelsize")
        let hash = FcPatternHash(sizeless)
        if let choice = chosen.first(where: { $0.hash == hash && FcPatternEqual($0.request, sizeless) != 0 }) {
            FcPatternDestroy(sizeless)
            return FcFontRenderPrepare(nil, request, choice.font)
        }
        scoredMatches += 1
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, request, &result) else {
            FcPatternDestroy(sizeless)
            return nil
        }
        if let font = Self.installedFont(like: match), !Self.families(of: font).contains(where: sizedFamilies.contains)
        {
            FcPatternReference(font)
            chosen.append((hash, sizeless, font))
        } else {
            FcPatternDestroy(sizeless)
        }
        return match
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
