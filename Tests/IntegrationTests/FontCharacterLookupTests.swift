import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// Characters are looked up by X11UI, not by Xft's per-font table: a font on a shared face
/// gives Xft an empty charset (so Xft builds no table of every character it has), and its
/// answers are Xft's own.
@Suite(.serialized)
@MainActor
final class FontCharacterLookupTests {
    let display: InProcessDisplay
    var connection: DisplayConnection { display.app.connection }

    init() throws {
        display = try InProcessDisplay()
    }

    /// The same font twice: on a shared face (X11UI's lookup) and opened by Xft (its table).
    private func pair(_ font: X11UI.Font) throws -> (own: FontSet, xft: FontSet) {
        let library = try #require(FreeTypeLibrary())
        let own = FontSet(font: font, scale: 1, connection: connection, library: library)
        let xft = FontSet(font: font, scale: 1, connection: connection, library: nil)
        try #require(own.fontFaces.first?.shared != nil && xft.fontFaces.first?.shared == nil)
        return (own, xft)
    }

    @Test func xftIsGivenAnEmptyCharsetAndTheFontStillHasItsCharacters() throws {
        let (own, xft) = try pair(.body)
        let ownFont = own.faces[0].pointee
        let xftFont = xft.faces[0].pointee
        #expect(FcCharSetCount(ownFont.charset) == 0, "Xft builds its character table from this")
        #expect(FcCharSetCount(xftFont.charset) > 1000)
        for scalar in "Aé€ЖΩ→" {
            #expect(own.fontFaces[0].has(scalar.unicodeScalars.first!.value))
        }
        #expect(!own.fontFaces[0].has(0xE000), "a private-use character DejaVu lacks")
        #expect(own.fontFaces[0].glyph(for: 0xE000) == 0)
    }

    @Test(arguments: [X11UI.Font.body, Font.body.withWeight(.semibold), .caption])
    func everyCharacterOfTheFirstPlanesIsAnsweredAsXftAnswersIt(font: X11UI.Font) throws {
        let (own, xft) = try pair(font)
        let mine = own.fontFaces[0]
        let theirs = xft.fontFaces[0]
        var mismatches: [UInt32] = []
        var found = 0
        // Twice: the second pass reads the cache, which characters 256 apart share a slot of.
        for _ in 0..<2 {
            for value in UInt32(0)..<0x3000
            where mine.has(value) != theirs.has(value)
                || mine.glyph(for: value) != theirs.glyph(for: value)
            {
                mismatches.append(value)
            }
            for value in [0x1F600, 0x10FFFF, 0xFFFD, 0xFB01, 0x20AC, 0x41, 0x141, 0x241] as [UInt32]
            where mine.glyph(for: value) != theirs.glyph(for: value) {
                mismatches.append(value)
            }
        }
        for value in UInt32(0)..<0x3000 where mine.glyph(for: value) != 0 { found += 1 }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
        #expect(found > 2000, "the font's glyphs were found")
    }

    @Test func textMeasuresAsWithXftsOwnLookup() throws {
        let (own, xft) = try pair(.body)
        // Latin, Greek, Cyrillic, symbols, a combining mark, Hebrew, Devanagari (a fallback
        // face) and a character no font has.
        let texts: [Substring] = [
            "The quick brown fox", "Ελληνικά и кириллица", "€ → ∞ ≠ ½", "e\u{301}te\u{301}", "שלום עולם", "नमस्ते",
            "\u{E000}x",
        ]
        for text in texts {
            #expect(own.width(of: text) == xft.width(of: text), "\(text)")
            #expect(own.inkBounds(of: text) == xft.inkBounds(of: text), "\(text)")
            #expect(own.displayEdges(of: text) == xft.displayEdges(of: text), "\(text)")
        }
        // A fallback face opened on a shared face answers for its characters too.
        let devanagari = own.faceIndex(for: "न")
        let fallback = try #require(own.fontFaces.indices.contains(devanagari) ? own.fontFaces[devanagari] : nil)
        #expect(devanagari > 0 && fallback.shared != nil)
        #expect(fallback.has(0x0928) && fallback.glyph(for: 0x0928) != 0)
    }
}
