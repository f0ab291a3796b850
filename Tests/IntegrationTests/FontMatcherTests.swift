import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// Primary faces of one family and weight at several sizes are scored against the installed
/// fonts once, and still open exactly the pattern `XftFontMatch` gives for each size.
@Suite(.serialized)
@MainActor
final class FontMatcherTests {
    let display: InProcessDisplay
    var connection: DisplayConnection { display.app.connection }

    init() throws {
        display = try InProcessDisplay()
    }

    /// The request FontSet makes for a font.
    private func request(_ family: String, _ pixelSize: Double, weight: X11UI.Font.Weight = .regular) -> OpaquePointer {
        let pattern = FcPatternCreate()!
        FcPatternAddString(pattern, "family", family)
        FcPatternAddDouble(pattern, "pixelsize", pixelSize)
        FcPatternAddInteger(pattern, "weight", weight.fontconfigValue)
        return pattern
    }

    /// Whether the matcher's pattern for the request is the one XftFontMatch gives.
    private func matchesXft(_ matcher: FontMatcher, _ pattern: OpaquePointer) -> Bool {
        var result = FcResultNoMatch
        guard let ours = matcher.match(pattern),
            let xft = XftFontMatch(connection.display, connection.screen, pattern, &result)
        else { return false }
        defer {
            FcPatternDestroy(ours)
            FcPatternDestroy(xft)
        }
        return FcPatternEqual(ours, xft) != 0
    }

    @Test func sizesOfOneFamilyAndWeightAreScoredOnceAndMatchXft() {
        let matcher = FontMatcher(connection: connection)
        let requests = [13.0, 11, 17, 6, 40].map { request("sans-serif", $0) }
        defer { requests.forEach { FcPatternDestroy($0) } }
        for pattern in requests { #expect(matchesXft(matcher, pattern)) }
        #expect(matcher.scoredMatches == 1)
        // The sizes after the first found the choice without copying their requests.
        #expect(matcher.copiedKeys == 1)
        // Another weight is another choice.
        let bold = request("sans-serif", 13, weight: .semibold)
        defer { FcPatternDestroy(bold) }
        #expect(matchesXft(matcher, bold))
        #expect(matcher.scoredMatches == 2)
    }

    @Test func sizeRulesOfTheFontStillApply() throws {
        // Debian's 20-unhint-small-dejavu-sans.conf turns hinting off below 7.5 pixels: the
        // choice made at 13 pixels, reused at 6, is prepared for 6.
        let matcher = FontMatcher(connection: connection)
        let large = request("DejaVu Sans", 13)
        let small = request("DejaVu Sans", 6)
        defer {
            FcPatternDestroy(large)
            FcPatternDestroy(small)
        }
        let first = try #require(matcher.match(large))
        FcPatternDestroy(first)
        let prepared = try #require(matcher.match(small))
        defer { FcPatternDestroy(prepared) }
        #expect(matcher.scoredMatches == 1)
        var hinting: FcBool = 1
        #expect(FcPatternGetBool(prepared, "hinting", 0, &hinting) == FcResultMatch)
        #expect(hinting == 0)
        #expect(matchesXft(matcher, small))
    }

    @Test func familiesWithSizesOfTheirOwnAreScoredEveryTime() {
        // Noto Color Emoji is a bitmap font (a pixel size of its own): its score depends on the
        // size asked for, so nothing is remembered for it.
        let matcher = FontMatcher(connection: connection)
        let requests = [13.0, 30].map { request("Noto Color Emoji", $0) }
        defer { requests.forEach { FcPatternDestroy($0) } }
        for pattern in requests { #expect(matchesXft(matcher, pattern)) }
        #expect(matcher.scoredMatches == 2)
    }

    @Test func theApplicationsFontsShareTheirChoices() {
        let fonts = display.app.resources.fonts
        let before = fonts.matcher.scoredMatches
        _ = fonts.fontSet(for: X11UI.Font.body.withSize(21))
        _ = fonts.fontSet(for: X11UI.Font.body.withSize(23))
        _ = fonts.fontSet(for: X11UI.Font.body.withSize(25))
        #expect(fonts.matcher.scoredMatches - before <= 1)
    }
}
