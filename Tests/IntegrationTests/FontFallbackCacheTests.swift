import Testing
import X11TestSupport

@testable import X11UI

/// The fallback search of a font set (its faces, then fontconfig) runs once per scalar: a
/// character no font has is remembered as missing, ASCII or not, plain or in colour, however
/// often it is measured or drawn.
@Suite(.serialized)
@MainActor
final class FontFallbackCacheTests {
    let display: InProcessDisplay

    init() throws {
        display = try InProcessDisplay()
    }

    var fonts: FontSet { display.app.resources.fonts.fontSet(for: .body) }

    /// A noncharacter and an ASCII control: no font has either.
    @Test(arguments: ["\u{10FFFE}", "\u{01}"] as [Unicode.Scalar])
    func aScalarNoFontHasIsSearchedForOnce(missing: Unicode.Scalar) {
        let set = fonts
        let before = set.faceLookups
        let first = set.faceIndex(for: missing)
        #expect(first <= 0, "no face has U+\(String(missing.value, radix: 16))")
        #expect(set.faceLookups == before + 1)
        for _ in 0..<100 { #expect(set.faceIndex(for: missing) == first) }
        #expect(set.faceLookups == before + 1, "a miss is cached: searched once, not 101 times")
    }

    @Test func measuringAndDrawingTextWithAMissingCharacterSearchesOnce() {
        let set = fonts
        let text: Substring = "a\u{10FFFD}b ü\u{10FFFD}"
        _ = set.width(of: text)
        _ = set.inkBounds(of: text)
        let warmed = set.faceLookups
        #expect(warmed > 0)
        for _ in 0..<50 {
            _ = set.width(of: text)
            _ = set.inkBounds(of: text)
        }
        #expect(set.faceLookups == warmed, "every scalar, the missing one too, was cached after the first pass")
    }

    @Test func aMissingColourCharacterIsSearchedForOnce() {
        let set = fonts
        let missing: Unicode.Scalar = "\u{10FFFB}"
        let before = set.faceLookups
        let face = set.colorFaceIndex(for: missing)
        #expect(face == 0, "no colour face has it, nor a plain one: the primary draws its box")
        #expect(set.faceLookups == before + 2, "one colour search, one plain search")
        for _ in 0..<100 { _ = set.colorFaceIndex(for: missing) }
        #expect(set.faceLookups == before + 2)
    }
}
