import Testing

@testable import X11UI

/// Right-to-left text in display order (FriBidi, line by line): reordering, numbers and Latin
/// words inside it, mirrored brackets, Arabic joining, and what the layout does with it.
@Suite struct BidiTests {
    /// The visual text of a line, or nil when it is left as it is.
    static func visual(_ text: String) -> String? { Bidi.visualLine(text[...])?.text }

    @Test(arguments: ["", "Hello, world", "Grüße ✓ 툴팁 ❤️", "ツールチップ", "12 + 3 = 15"])
    func linesWithoutRightToLeftTextAreLeftAlone(text: String) {
        #expect(Bidi.visualLine(text[...]) == nil)
    }

    @Test func hebrewReadsFromTheRight() throws {
        let line = try #require(Bidi.visualLine("שלום עולם"))
        #expect(line.text == "םלוע םולש")
        #expect(line.isRightToLeft)
    }

    @Test func numbersAndLatinWordsInsideHebrewKeepTheirOrder() {
        #expect(Self.visual("עמוד 12 מתוך 30") == "30 ךותמ 12 דומע")
        #expect(Self.visual("גרסה X11UI חדשה") == "השדח X11UI הסרג")
    }

    @Test func hebrewInsideAnEnglishLineIsReversedInPlace() throws {
        let line = try #require(Bidi.visualLine("Say שלום to everyone"))
        #expect(line.text == "Say םולש to everyone")
        #expect(!line.isRightToLeft)
    }

    @Test func bracketsMirrorInRightToLeftText() {
        // Logically "(" opens the parenthesis; drawn from the right it must still face inwards.
        #expect(Self.visual("(שלום)") == "(םולש)")
    }

    @Test func arabicLettersJoinAndReadFromTheRight() throws {
        // سلام: seen, lam, alef, meem. Joined: initial seen, medial lam, final alef (alef does
        // not join onwards), isolated meem; drawn right to left.
        let line = try #require(Bidi.visualLine("سلام"))
        #expect(line.isRightToLeft)
        let scalars = line.text.unicodeScalars.map(\.value)
        #expect(scalars.allSatisfy { (0xFE70...0xFEFF).contains($0) }, "presentation forms: \(scalars)")
        #expect(scalars.first == 0xFEE1, "the isolated meem is leftmost")
        #expect(scalars.last == 0xFEB3, "the initial seen is rightmost")
    }

    @Test func combiningMarksStayWithTheirBase() throws {
        // Hebrew with niqqud: each point must follow its letter in the visual string too.
        let line = try #require(Bidi.visualLine("שָׁלוֹם"))
        let scalars = Array(line.text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar.properties.generalCategory == .nonspacingMark {
            #expect(index > 0)
            #expect(scalars[index - 1].properties.generalCategory != .spaceSeparator)
        }
        #expect(scalars.first == "ם")
    }
}

/// Made-up metrics: every scalar 10 px wide (so Arabic forms measure like letters), lines 16.
private struct TenPixelMeasurer: TextMeasuring {
    var lineHeight: Double { 16 }
    var ascent: Double { 12 }
    func width(of text: Substring) -> Double { Double(text.unicodeScalars.count * 10) }
}

@MainActor
@Suite struct BidiLayoutTests {
    @Test func wrappingIsLogicalAndEachLineIsReorderedOnItsOwn() {
        // Words wrap in reading order: the first words read come first, each line from the right.
        let layout = TextLayout(text: "אחת שתיים שלוש", measurer: TenPixelMeasurer(), maxWidth: 100)
        #expect(layout.lines.map { String($0.text) } == ["אחת שתיים", "שלוש"])
        #expect(layout.lines.map { String($0.displayText) } == ["םייתש תחא", "שולש"])
        #expect(layout.lines.allSatisfy { $0.isRightToLeft })
        #expect(layout.lines.map(\.width) == [90, 40])
    }

    @Test func leftToRightLinesHaveNoVisualForm() {
        let layout = TextLayout(text: "one two", measurer: TenPixelMeasurer(), maxWidth: 100)
        #expect(layout.lines.allSatisfy { $0.visual == nil && !$0.isRightToLeft })
        #expect(layout.lines[0].displayText == "one two")
    }

    @Test func aTruncatedRightToLeftLineKeepsItsFirstWordsAndIsEllipsized() throws {
        let layout = TextLayout(
            text: "אחת שתיים שלוש ארבע חמש", measurer: TenPixelMeasurer(), maxWidth: 100, maxLines: 1)
        #expect(layout.isTruncated)
        let line = try #require(layout.lines.first)
        #expect(line.isEllipsized && line.isRightToLeft)
        #expect(line.text.hasPrefix("אחת"))
        #expect(line.displayText.hasSuffix("תחא"), "the first word read is rightmost")
        #expect(line.width <= 100)
    }
}

/// Arabic letters 12 px wide alone, 8 px joined (their presentation forms), like a real font
/// whose joined forms are narrower.
private struct JoiningMeasurer: TextMeasuring {
    var lineHeight: Double { 16 }
    var ascent: Double { 12 }
    func width(of text: Substring) -> Double {
        text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.value {
            case 0x0600...0x06FF: total + 12
            case 0xFE70...0xFEFF: total + 8
            default: total + 6
            }
        }
    }
}

@MainActor
@Suite struct BidiSizingTests {
    @Test func textLaidOutAtItsOwnSizeWrapsNoFurther() {
        // A label sizes itself to its text, then lays the text out at that width: the width
        // must cover the letters as wrapping measures them, not only as they are drawn.
        let measurer = JoiningMeasurer()
        let natural = TextLayout(text: "عربي عربي", measurer: measurer, maxWidth: nil)
        #expect(natural.lines.count == 1)
        let line = natural.lines[0]
        #expect(line.width == 8 * 8 + 6, "drawn joined")
        #expect(line.wrapWidth == 8 * 12 + 6, "wrapped as single letters")
        #expect(natural.size.width == 102)
        let again = TextLayout(text: "عربي عربي", measurer: measurer, maxWidth: natural.size.width)
        #expect(again.lines.count == 1)
        #expect(again.lines[0].text == line.text)
    }
}
