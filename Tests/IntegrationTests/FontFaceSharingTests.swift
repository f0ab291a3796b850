import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// The sizes opened from one font file share its FreeType face, each with a size of its own:
/// glyphs loaded for one size in between those of another come out as with a face apiece.
@Suite(.serialized)
@MainActor
final class FontFaceSharingTests {
    let display: InProcessDisplay
    var connection: DisplayConnection { display.app.connection }

    init() throws {
        display = try InProcessDisplay()
    }

    /// A font set on `library`: sets on one library share faces, sets on two do not.
    private func fontSet(_ font: X11UI.Font, _ library: FreeTypeLibrary?) -> FontSet {
        FontSet(font: font, scale: 1, connection: connection, library: library)
    }

    @Test func sizesOfOneFileShareTheFaceAndMeasureAsWithAFaceEach() throws {
        let library = try #require(FreeTypeLibrary())
        let body = fontSet(.body, library)
        let caption = fontSet(.caption, library)
        let title = fontSet(.title, library)
        let boldBody = fontSet(Font.body.withWeight(.semibold), library)
        let shared = try #require(body.fontFaces.first?.shared)
        #expect(caption.fontFaces.first?.shared === shared)
        #expect(boldBody.fontFaces.first?.shared === title.fontFaces.first?.shared)
        #expect(boldBody.fontFaces.first?.shared !== shared)
        // The same fonts, each on a face of its own.
        let fonts = [X11UI.Font.body, .caption, .title, Font.body.withWeight(.semibold)]
        let alone = fonts.map { fontSet($0, FreeTypeLibrary()) }
        let sets = [body, caption, title, boldBody]
        for (set, own) in zip(sets, alone) {
            #expect(set.ascent == own.ascent && set.descent == own.descent)
        }
        // Glyphs loaded in turns: each character is loaded at one size, then at the others.
        for character in "Wg|AVfij@ Mixed sizes, one face." {
            let text = String(character)[...]
            for (set, own) in zip(sets, alone) {
                #expect(set.inkBounds(of: text) == own.inkBounds(of: text), "\(character)")
                #expect(set.width(of: text) == own.width(of: text), "\(character)")
            }
        }
        let sentence: Substring = "The quick brown fox jumps over the lazy dog."
        let widths = sets.map { $0.width(of: sentence) }
        #expect(widths == alone.map { $0.width(of: sentence) })
        #expect(Set(widths).count == 4, "four sizes, four widths")
    }

    @Test func shapedTextUsesItsOwnSize() throws {
        // HarfBuzz reads the face's active size: Devanagari is shaped, at two sizes in turns.
        let library = try #require(FreeTypeLibrary())
        let large = fontSet(Font(size: 20), library)
        let small = fontSet(Font(size: 10), library)
        let alone = [fontSet(Font(size: 20), FreeTypeLibrary()), fontSet(Font(size: 10), FreeTypeLibrary())]
        for word in ["नमस्ते", "हिन्दी", "क्षत्रिय"] {
            #expect(large.width(of: word[...]) == alone[0].width(of: word[...]), "\(word)")
            #expect(small.width(of: word[...]) == alone[1].width(of: word[...]), "\(word)")
        }
        #expect(large.width(of: "नमस्ते") > small.width(of: "नमस्ते"))
    }

    @Test func theFaceClosesWithItsLastFont() throws {
        let library = try #require(FreeTypeLibrary())
        var body: FontSet? = fontSet(.body, library)
        var caption: FontSet? = fontSet(.caption, library)
        weak var face = body?.fontFaces.first?.shared
        #expect(face != nil)
        #expect(caption?.width(of: "Caption") ?? 0 > 0)
        body = nil
        #expect(face != nil, "the caption still uses it")
        #expect(caption?.width(of: "Still measured") ?? 0 > 0)
        caption = nil
        #expect(face == nil)
        // Opened again for the next font.
        let again = fontSet(.body, library)
        #expect(again.fontFaces.first?.shared != nil)
        #expect(again.width(of: "Again") > 0)
    }
}
