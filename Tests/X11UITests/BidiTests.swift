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

/// UAX #9 rules P1–P3: a paragraph's direction is that of its first strong character, and
/// every line of the paragraph runs in it.
@MainActor
@Suite struct BidiParagraphTests {
    @Test(arguments: [
        ("שלום", true), ("Hello", false), ("", false), ("123 + 4", false), ("123 שלום world", true),
        ("(Hello) שלום", false), ("\u{2067}Hello\u{2069} שלום", true), ("\u{2066}שלום\u{2069} Hello", false),
        ("שלום\nHello", true), ("123\nשלום", false), ("123\u{2028}שלום", true), ("«عربي»", true),
    ])
    func aParagraphTakesTheDirectionOfItsFirstStrongCharacter(text: String, rightToLeft: Bool) {
        #expect(Bidi.paragraphIsRightToLeft(text[...]) == rightToLeft)
    }

    @Test func aLatinLineOfAHebrewParagraphRunsRightToLeft() {
        // "שלום hello" fills the first line; "world." wraps onto a line of its own.
        let layout = TextLayout(text: "שלום hello world.", measurer: TenPixelMeasurer(), maxWidth: 100)
        #expect(layout.lines.map { String($0.text) } == ["שלום hello", "world."])
        #expect(layout.lines.allSatisfy { $0.isRightToLeft })
        #expect(layout.lines[0].displayText == "hello םולש")
        // The full stop ends the sentence, at its left end.
        #expect(layout.lines[1].displayText == ".world")
    }

    @Test func aHebrewLineOfAnEnglishParagraphRunsLeftToRight() {
        let layout = TextLayout(text: "Hello שלום עולם", measurer: TenPixelMeasurer(), maxWidth: 100)
        #expect(layout.lines.map { String($0.text) } == ["Hello שלום", "עולם"])
        #expect(layout.lines.allSatisfy { !$0.isRightToLeft })
        #expect(layout.lines[1].displayText == "םלוע")
        #expect(layout.lines[1].lineOffset(in: 100, alignment: .leading) == 0)
    }

    @Test func eachParagraphHasItsOwnDirection() {
        let layout = TextLayout(text: "שלום עולם\nHello עולם\n\n12 עולם", measurer: TenPixelMeasurer(), maxWidth: nil)
        #expect(layout.lines.map(\.isRightToLeft) == [true, false, false, true])
        #expect(layout.lines[2].visual == nil, "an empty paragraph is left alone")
    }

    @Test func textWithoutRightToLeftCharactersIsLeftAlone() {
        let layout = TextLayout(text: "one two\nthree", measurer: TenPixelMeasurer(), maxWidth: 50)
        #expect(layout.lines.allSatisfy { $0.visual == nil })
    }
}

/// Selection and caret geometry on lines holding right-to-left text: rectangles over the glyphs
/// as drawn, and carets from points the way a reader expects.
@MainActor
@Suite struct BidiSelectionTests {
    private let measurer = TenPixelMeasurer()

    func range(_ text: String, _ lower: Int, _ upper: Int) -> Range<String.Index> {
        text.index(text.startIndex, offsetBy: lower)..<text.index(text.startIndex, offsetBy: upper)
    }

    @Test func theFirstHebrewWordIsSelectedAtTheRight() {
        let text = "אבג דה"
        let layout = TextLayout(text: text, measurer: measurer, maxWidth: nil)
        // In a box 100 wide the 60 px line starts at the right edge; its first word is rightmost.
        #expect(
            layout.rects(covering: range(text, 0, 3), measurer: measurer, width: 100) == [
                Rect(x: 70, y: 0, width: 30, height: 16)
            ])
        #expect(
            layout.rects(covering: range(text, 4, 6), measurer: measurer, width: 100) == [
                Rect(x: 40, y: 0, width: 20, height: 16)
            ])
    }

    @Test func aRangeAcrossADirectionChangeIsTwoRectangles() {
        // Drawn "ab גבא cd": logical "b א" is b and the space (x 10–30) and א (x 50–60).
        let text = "ab אבג cd"
        let layout = TextLayout(text: text, measurer: measurer, maxWidth: nil)
        #expect(layout.lines[0].displayText == "ab גבא cd")
        #expect(
            layout.rects(covering: range(text, 1, 4), measurer: measurer) == [
                Rect(x: 10, y: 0, width: 20, height: 16), Rect(x: 50, y: 0, width: 10, height: 16),
            ])
    }

    @Test func aSelectionRunningOnPastARightToLeftLineCoversTheBreakAtItsLeft() {
        let text = "אבג\nabc"
        let layout = TextLayout(text: text, measurer: measurer, maxWidth: nil)
        let rects = layout.rects(covering: range(text, 1, 5), measurer: measurer, width: 30)
        // ב and א (x 0–20 of the line drawn "גבא"), the break a space wide left of it, then "a".
        #expect(
            rects == [
                Rect(x: 0, y: 0, width: 20, height: 16), Rect(x: -10, y: 0, width: 10, height: 16),
                Rect(x: 0, y: 16, width: 10, height: 16),
            ])
    }

    @Test(arguments: [
        "אבג דה", "ab אבג cd", "שלום, 123 עולם!", "«עברית» and English", "سلام عليكم", "x (א) y", "שָׁלוֹם עולם",
    ])
    func everyRangeIsCoveredByExactlyItsGlyphs(text: String) {
        // Every scalar is 10 px wide, so the rectangles of a range add up to 10 px per scalar in
        // it, whatever the order they are drawn in, and never overlap.
        let layout = TextLayout(text: text, measurer: measurer, maxWidth: nil)
        #expect(layout.lines.count == 1)
        let indices = Array(text.indices) + [text.endIndex]
        for lower in indices.indices {
            for upper in indices.indices where upper > lower {
                let selected = indices[lower]..<indices[upper]
                let rects = layout.rects(covering: selected, measurer: measurer, width: 400)
                let total = rects.reduce(0) { $0 + $1.width }
                #expect(total == Double(text[selected].unicodeScalars.count * 10), "\(text[selected])")
                let sorted = rects.sorted { $0.minX < $1.minX }
                for (left, right) in zip(sorted, sorted.dropFirst()) {
                    #expect(left.maxX <= right.minX, "\(text[selected]): \(rects)")
                }
            }
        }
    }

    @Test func aPointOnAHebrewLetterPutsTheCaretOnTheSideItIsReadFrom() {
        // "אבג" is drawn "גבא" from x 0 to 30: א, read first, is rightmost.
        let text = "אבג"
        let layout = TextLayout(text: text, measurer: measurer, maxWidth: nil)
        func caret(_ x: Double) -> Int {
            text.distance(from: text.startIndex, to: layout.position(at: Point(x: x, y: 4), measurer: measurer).index)
        }
        #expect(caret(29) == 0, "the right half of א is before it")
        #expect(caret(21) == 1, "its left half is after it")
        #expect(caret(14) == 2)
        #expect(caret(1) == 3)
        #expect(caret(-5) == 3, "left of a right-to-left line is its end")
        #expect(caret(45) == 0, "right of it is its start")
    }

    @Test func aCaretNeverSplitsACharacter() {
        // ש with its two points is one character of three scalars.
        let text = "שָׁל"
        let layout = TextLayout(text: text, measurer: measurer, maxWidth: nil)
        for x in stride(from: -5.0, through: 45, by: 1) {
            let index = layout.position(at: Point(x: x, y: 4), measurer: measurer).index
            #expect(index.samePosition(in: text) != nil && text.indices.contains(index) || index == text.endIndex)
        }
    }
}
