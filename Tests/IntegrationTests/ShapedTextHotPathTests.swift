import Testing
import X11TestSupport

@testable import X11UI

/// The measuring of shaped text (Indic words, emoji sequences) as a long tooltip lays it out:
/// widths summed from HarfBuzz's output as it is made agree with the glyphs `shape` returns,
/// runs are the clusters they were, and measuring again searches no font again.
@Suite(.serialized)
@MainActor
final class ShapedTextHotPathTests {
    let display: InProcessDisplay

    init() throws {
        display = try InProcessDisplay()
    }

    var fonts: FontSet { display.app.resources.fonts.fontSet(for: .body) }

    nonisolated static let words = ["नमस्ते", "क्षमा", "हिन्दी", "किताब", "👨‍👩‍👧", "विद्यालय", "🇰🇷", "👍🏽", "❤️", "1️⃣"]

    @Test(arguments: words)
    func aShapedRunsWidthIsTheSumOfItsGlyphsAdvances(word: String) {
        let set = fonts
        var runs = 0
        var total = 0.0
        set.forEachRun(in: word[...]) { run, bytes in
            runs += 1
            #expect(run.isShaped, "\(word) is shaped")
            let glyphs = set.shape(bytes, run: run)
            #expect(!glyphs.isEmpty)
            let summed = glyphs.reduce(0) { $0 + $1.advance }
            #expect(set.shapedAdvance(of: bytes, run: run) == summed)
            total += summed
            return true
        }
        #expect(runs >= 1)
        #expect(set.width(of: word[...]) == total)
    }

    @Test func aLongShapedTextIsLaidOutWithEachScalarSearchedForOnce() {
        let set = fonts
        var text = ""
        for index in 0..<2_000 { text += Self.words[index % Self.words.count] + " " }
        let first = TextLayout(text: text, measurer: set, maxWidth: 400)
        let lookups = set.faceLookups
        let second = TextLayout(text: text + "", measurer: set, maxWidth: 400)
        #expect(set.faceLookups == lookups, "no font was searched again for text measured before")
        #expect(first == second)
        #expect(first.lines.count > 10)
        for line in first.lines {
            #expect(line.width <= 400 || line.text.count == 1)
            #expect(!line.text.hasPrefix(" ") && !line.text.hasSuffix(" "))
        }
    }

    /// A label measures its text at the width offered and draws it at the width that measured:
    /// the layout is used again for any width from its own to the one it wrapped at, which
    /// must lay the text out the same. Latin with marks that reach out of their letters (the
    /// layout then wraps a second time, narrower), shaped words, a word too long for a line,
    /// and a line limit that ellipsizes.
    @Test(arguments: [false, true])
    func aLayoutIsTheOneLaidOutAgainAtEveryWidthItWrapsTheSameAt(shaped: Bool) throws {
        let set = fonts
        let latin = ["lorem", "ipsum", "dolor", "n\u{0308}\u{0308}\u{0308}", "sit", "amet", "fi\u{0301}\u{0301}"]
        var text = ""
        for index in 0..<300 { text += (shaped ? Self.words : latin)[index % 7] + " " }
        text += String(repeating: shaped ? "क" : "w", count: 200)
        for maxWidth in [96.0, 173.5, 240, 401.25] {
            for maxLines in [nil, 4] as [Int?] {
                let layout = TextLayout(text: text, measurer: set, maxWidth: maxWidth, maxLines: maxLines)
                let low = layout.size.width
                let high = try #require(layout.wrappedWidth)
                #expect(low <= maxWidth && high <= maxWidth)
                #expect(!layout.wrapsTheSame(at: high + 0.5))
                #expect(!layout.wrapsTheSame(at: low - 0.5))
                for width in [low, low.rounded(.up), (low + high) / 2, high] where width >= low && width <= high {
                    #expect(layout.wrapsTheSame(at: width) && layout.serves(width: width))
                    let again = TextLayout(text: text, measurer: set, maxWidth: width, maxLines: maxLines)
                    #expect(again.lines == layout.lines, "at \(width), from \(maxWidth), \(maxLines ?? 0) lines")
                    #expect(again.size == layout.size)
                }
                // Past the width it wrapped at (ink made it wrap narrower), up to the one
                // offered: the lines still fit, and serve.
                #expect(layout.serves(width: maxWidth) == (low <= maxWidth))
                #expect(!layout.serves(width: maxWidth + 0.5))
            }
        }
    }

    /// A label drawn at the width it measured (rounded up, as a tooltip sizes it) draws the
    /// lines it measured.
    @Test(arguments: [false, true])
    func aLabelDrawsTheLinesItMeasured(shaped: Bool) throws {
        var text = ""
        for index in 0..<400 { text += (shaped ? Self.words[index % 10] : "fi\u{0301}\u{0301} lorem ipsum") + " " }
        let label = Label(text)
        label.maxLines = 40
        let window = Window(
            title: "Label", size: Size(width: 400, height: 300), content: label, application: display.app)
        defer { window.close() }
        for offered in [150.0, 233.5, 400] {
            label.text = text + "\(offered)"
            let size = label.sizeThatFits(Size(width: offered, height: .infinity))
            let measured = try #require(label.layout(forWidth: offered))
            let drawn = try #require(label.layout(forWidth: size.width))
            #expect(drawn == measured)
            #expect(measured.serves(width: size.width))
        }
    }

    /// The paragraph-break and space tests look at a character's scalars and bytes; they agree
    /// with comparing Characters (which normalises non-ASCII text) on every case that matters.
    @Test func paragraphBreaksAndSpacesAreFoundAsCharacterComparisonFindsThem() {
        let breaks: [Character] = ["\n", "\r", "\r\n", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "\u{85}"]
        let others = [
            " ", "\t", " \u{301}", "a", "é", "e\u{301}", "कि", "👨‍👩‍👧", "\u{A0}", "\u{2027}", "\u{2030}", "\u{84}",
            "\u{86}", "\u{0E}",
        ].map { Character($0) }
        for character in breaks + others {
            let isBreak = breaks.contains(character)
            let scalars = character.unicodeScalars.map(\.value)
            #expect(LineBreaker<FontSet>.isParagraphBreak(character) == isBreak, "\(scalars)")
            let isSpace = character == " " || character == "\t"
            #expect(LineBreaker<FontSet>.isSpaceOrTab(character) == isSpace, "\(scalars)")
        }
    }
}
