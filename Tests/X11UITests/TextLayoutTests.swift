import Testing

@testable import X11UI

/// Made-up metrics: every character (grapheme) 7 px wide, a space or tab 4 px, lines 16 px
/// with a 12 px ascent.
private struct FakeMeasurer: TextMeasuring {
    var lineHeight: Double { 16 }
    var ascent: Double { 12 }
    func width(of text: Substring) -> Double {
        text.reduce(0) { $0 + ($1 == " " || $1 == "\t" ? 4 : 7) }
    }
}

@MainActor
private func layout(_ text: String, width: Double? = nil, maxLines: Int? = nil) -> TextLayout {
    TextLayout(text: text, measurer: FakeMeasurer(), maxWidth: width, maxLines: maxLines)
}

@MainActor
private func lines(_ text: String, width: Double? = nil, maxLines: Int? = nil) -> [String] {
    layout(text, width: width, maxLines: maxLines).lines.map { String($0.text) }
}

@MainActor
@Suite struct TextLayoutWrappingTests {
    @Test func wordsWrapAtTheWidth() {
        let l = layout("aaa bbb ccc", width: 50)
        #expect(l.lines.map { String($0.text) } == ["aaa bbb", "ccc"])
        #expect(l.lines.map(\.width) == [46, 21])
        #expect(!l.isTruncated)
        #expect(l.lineHeight == 16 && l.ascent == 12)
        #expect(l.size == Size(width: 46, height: 32))
    }

    @Test func aLineExactlyAsWideAsTheLimitFits() {
        #expect(lines("aaa bbb", width: 46) == ["aaa bbb"])
        #expect(lines("aaa bbb", width: 45.9) == ["aaa", "bbb"])
    }

    @Test(arguments: [nil, 0, -10, Double.nan, Double.infinity] as [Double?])
    func noUsableWidthKeepsEachParagraphOnOneLine(width: Double?) {
        #expect(lines("aaa bbb ccc ddd eee fff", width: width) == ["aaa bbb ccc ddd eee fff"])
        #expect(lines("aaa\nbbb ccc", width: width) == ["aaa", "bbb ccc"])
    }

    @Test func spacesAtABreakVanish() {
        #expect(lines("aaa      bbb", width: 30) == ["aaa", "bbb"])
    }

    @Test(arguments: ["\n", "\r\n", "\r", "\u{2028}", "\u{2029}"])
    func explicitNewlinesAreKept(separator: String) {
        #expect(lines("one\(separator)two\(separator)three", width: 1000) == ["one", "two", "three"])
        #expect(lines("one\(separator)two") == ["one", "two"])
    }

    @Test func emptyLinesAreKept() {
        #expect(lines("a\n\nb", width: 100) == ["a", "", "b"])
        #expect(lines("\na", width: 100) == ["", "a"])
        #expect(lines("a\r\n\r\nb", width: 100) == ["a", "", "b"])
        #expect(layout("a\n\n\nb", width: 100).size.height == 64)
    }

    @Test func aLongWordBreaksBetweenCharacters() {
        #expect(lines("abcdefghij", width: 30) == ["abcd", "efgh", "ij"])
        #expect(lines("hi abcdefghij", width: 30) == ["hi", "abcd", "efgh", "ij"])
        #expect(layout("abcdefghij", width: 30).lines.map(\.width) == [28, 28, 14])
    }

    @Test func aWidthNarrowerThanOneCharacterStillMovesOn() {
        #expect(Array(lines("abc", width: 5).prefix(3)) == ["a", "b", "c"])
    }

    /// A text whose last line had to be broken (a character wider than the line, or an indent
    /// plus a word) ends with that line, not with an extra empty one.
    @Test func noEmptyLineFollowsABrokenLastLine() {
        #expect(lines("abc", width: 5) == ["a", "b", "c"])
        // Leading spaces count: 8 + 4 × 7 = 36 px does not fit in 30, so "d" wraps, and no
        // empty line follows it.
        #expect(lines("  abcd", width: 30) == ["  abc", "d"])
    }

    @Test func chineseAndJapaneseBreakBetweenCharacters() {
        #expect(lines("日本語のテキスト", width: 30) == ["日本語の", "テキスト"])
        #expect(lines("我们是朋友", width: 15) == ["我们", "是朋", "友"])
        #expect(lines("abc日本", width: 30) == ["abc日", "本"])
    }

    @Test func koreanWrapsAtSpacesLikeOtherWords() {
        #expect(lines("툴팁 도움말", width: 30) == ["툴팁", "도움말"])
    }

    @Test func combiningMarksAndEmojiCountAsOneCharacter() {
        let accented = "cafe\u{301} cafe\u{301}"
        let l = layout(accented, width: 30)
        #expect(l.lines.map { String($0.text) } == ["cafe\u{301}", "cafe\u{301}"])
        #expect(l.lines.map(\.width) == [28, 28])

        let family = "👨‍👩‍👧"
        let row = String(repeating: family, count: 10)
        let emoji = lines(row, width: 30)
        #expect(emoji.count == 3)
        #expect(emoji.map(\.count) == [4, 4, 2])
        #expect(emoji.allSatisfy { $0.allSatisfy { $0 == Character(family) } })
        #expect(layout("👍🏽 ok", width: 100).lines.first?.width == 25)  // 7 + 4 + 14
    }

    @Test func eachLineWidthIsItsMeasuredText() {
        let l = layout("The quick brown fox jumps over the lazy dog, twice.", width: 60)
        for line in l.lines {
            #expect(line.width == FakeMeasurer().width(of: line.text))
            #expect(line.width <= 60)
        }
    }

    /// An indented paragraph whose first word is wider than the line: the indent counts, and the
    /// line still fits.
    @Test func leadingSpacesBeforeALongWordCountInTheLineWidth() {
        let l = layout("    abcdefgh", width: 30)
        for line in l.lines {
            let measured = FakeMeasurer().width(of: line.text)
            #expect(line.width == measured, "\"\(line.text)\"")
            #expect(measured <= 30, "\"\(line.text)\" is \(measured) px")
        }
        #expect(l.lines.map { $0.text.filter { $0 != " " } }.joined() == "abcdefgh")
    }

    /// Random text over a small alphabet (words, spaces, tabs, newlines, CJK, emoji, combining
    /// marks) at random widths: no character is lost, duplicated or reordered.
    @Test func randomTextKeepsEveryCharacterInOrder() {
        let alphabet: [String] = ["a", "b", "c", " ", " ", "\t", "\n", "\r\n", "日", "本", "👍🏽", "e\u{301}", "툴"]
        var state: UInt64 = 99
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<500 {
            let text = (0..<(next() % 80)).map { _ in alphabet[next() % alphabet.count] }.joined()
            let width = Double(3 + next() % 60)
            let l = layout(text, width: width)
            let visible: (Character) -> Bool = { !$0.isWhitespace && !$0.isNewline }
            let laidOut = l.lines.map { String($0.text.filter(visible)) }.joined()
            #expect(laidOut == String(text.filter(visible)), "\(text.debugDescription) at \(width)")
            #expect(l.lines.allSatisfy { !$0.isEllipsized } && !l.isTruncated)
            let limited = layout(text, width: width, maxLines: 2)
            #expect(limited.lines.count <= 2)
            #expect(limited.lines.dropLast().allSatisfy { !$0.isEllipsized })
            #expect(limited.isTruncated == (l.lines.count > 2))
        }
    }
}

@MainActor
@Suite struct TextLayoutTruncationTests {
    @Test func maxLinesEndsWithAnEllipsisThatFits() {
        let l = layout("aaa bbb ccc ddd", width: 50, maxLines: 1)
        #expect(l.isTruncated)
        #expect(l.lines.count == 1)
        let line = l.lines[0]
        #expect(line.isEllipsized)
        #expect(line.text == "aaa bb")
        #expect(line.width == 39 + 7)
        #expect(line.width <= 50)
    }

    @Test func onlyTheLastLineIsEllipsized() {
        let l = layout("aaa bbb ccc ddd eee", width: 30, maxLines: 2)
        #expect(l.lines.count == 2)
        #expect(l.lines.map(\.isEllipsized) == [false, true])
        #expect(l.lines[0].text == "aaa")
        #expect(l.lines.allSatisfy { $0.width <= 30 })
    }

    @Test func noSpaceIsLeftBeforeTheEllipsis() {
        // "aaaa b" (39 px) + "…" (7) > 42: the "b" goes, then the space before it.
        let l = layout("aaaa b cccccc", width: 42, maxLines: 1)
        #expect(l.lines.map { String($0.text) } == ["aaaa"])
        #expect(l.lines[0].width == 28 + 7)
    }

    @Test func textThatFitsInMaxLinesIsNotTruncated() {
        let l = layout("aaa bbb ccc", width: 50, maxLines: 2)
        #expect(!l.isTruncated)
        #expect(l.lines.allSatisfy { !$0.isEllipsized })
        #expect(l.lines.count == 2)
    }

    @Test func explicitLinesBeyondMaxLinesAreEllipsized() {
        let l = layout("one\ntwo\nthree", maxLines: 2)
        #expect(l.lines.map { String($0.text) } == ["one", "two"])
        #expect(l.isTruncated && l.lines[1].isEllipsized)
        #expect(l.lines[1].width == 21 + 7)
    }

    @Test(arguments: [0, -5])
    func aMaxLinesBelowOneMeansOne(maxLines: Int) {
        let l = layout("one\ntwo", maxLines: maxLines)
        #expect(l.lines.count == 1)
        #expect(l.isTruncated)
    }

    @Test func emptyTextIsOneEmptyLine() {
        let l = layout("", width: 100)
        #expect(l.lines == [TextLayout.Line(text: "", width: 0)])
        #expect(l.size == Size(width: 0, height: 16))
        #expect(!l.isTruncated)
        #expect(layout("").lines.count == 1)
    }

    @Test(arguments: [" ", "     ", "\t \t", "   \n  "])
    func whitespaceOnlyTextLaysOutWithoutVisibleCharacters(text: String) {
        let l = layout(text, width: 100, maxLines: 5)
        #expect(!l.lines.isEmpty && l.lines.count <= 2)
        #expect(l.lines.allSatisfy { $0.text.allSatisfy(\.isWhitespace) })
    }

    @Test func positionFindsTheNearestCharacterBoundary() {
        let l = layout("abc\ndef", width: 100)
        let measurer = FakeMeasurer()
        #expect(l.position(at: Point(x: 0, y: 0), measurer: measurer).line == 0)
        let first = l.position(at: Point(x: 10, y: 2), measurer: measurer)
        #expect(first.line == 0 && l.lines[0].text[..<first.index] == "a")
        let second = l.position(at: Point(x: 11, y: 20), measurer: measurer)
        #expect(second.line == 1 && l.lines[1].text[..<second.index] == "de")
        let beyond = l.position(at: Point(x: 500, y: 500), measurer: measurer)
        #expect(beyond.line == 1 && beyond.index == l.lines[1].text.endIndex)
        let before = l.position(at: Point(x: -5, y: -5), measurer: measurer)
        #expect(before.line == 0 && before.index == l.lines[0].text.startIndex)
    }
}

@MainActor
@Suite struct TextLayoutHugeInputTests {
    private func timed(_ body: () -> TextLayout) -> (TextLayout, Duration) {
        let clock = ContinuousClock()
        var result: TextLayout?
        let elapsed = clock.measure { result = body() }
        return (result!, elapsed)
    }

    @Test func aMegabyteStringIsTruncatedQuickly() {
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 40_000)  // ~1 MB
        #expect(text.utf8.count >= 1_000_000)
        let (l, elapsed) = timed { TextLayout(text: text, measurer: FakeMeasurer(), maxWidth: 360, maxLines: 20) }
        #expect(l.lines.count <= 20)
        #expect(l.isTruncated)
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")
    }

    @Test func tenThousandLinesAreTruncatedQuickly() {
        let text = (1...10_000).map { "line \($0)" }.joined(separator: "\n")
        let (l, elapsed) = timed { TextLayout(text: text, measurer: FakeMeasurer(), maxWidth: 360, maxLines: 20) }
        #expect(l.lines.count == 20)
        #expect(l.lines.first?.text == "line 1")
        #expect(l.lines.last?.isEllipsized == true)
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")
    }

    @Test func tenThousandLinesWithoutALimitAreAllKept() {
        let text = (1...10_000).map { "line \($0)" }.joined(separator: "\n")
        let (l, elapsed) = timed { TextLayout(text: text, measurer: FakeMeasurer(), maxWidth: 360) }
        #expect(l.lines.count == 10_000)
        #expect(l.lines.last?.text == "line 10000")
        #expect(elapsed < .seconds(5), "took \(elapsed)")
    }

    @Test func aHundredThousandCharacterWordIsBrokenQuickly() {
        let word = String(repeating: "x", count: 100_000)
        let (l, elapsed) = timed { TextLayout(text: word, measurer: FakeMeasurer(), maxWidth: 360, maxLines: 10) }
        #expect(l.lines.count == 10)
        #expect(l.lines.allSatisfy { $0.width <= 360 })
        #expect(l.lines.first?.text.count == 51)  // 51 × 7 = 357 px
        #expect(l.isTruncated)
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")

        let (all, allElapsed) = timed { TextLayout(text: word, measurer: FakeMeasurer(), maxWidth: 360) }
        #expect(all.lines.map(\.text.count).reduce(0, +) == 100_000)
        #expect(all.lines.dropLast().allSatisfy { $0.text.count == 51 })
        #expect(allElapsed < .seconds(5), "took \(allElapsed)")
    }

    @Test func aMegabyteWordWithoutAWidthIsOneLineCutWhereNothingShows() {
        let word = String(repeating: "y", count: 1_000_000) + "\nnext"
        let (l, elapsed) = timed { TextLayout(text: word, measurer: FakeMeasurer(), maxWidth: nil, maxLines: 3) }
        #expect(l.lines.count == 2)
        // Measured up to the widest a window can be (in 256-character pieces), not further.
        #expect(l.lines[0].width > TextLayout.maximumExtent && l.lines[0].width <= TextLayout.maximumExtent + 256 * 7)
        #expect(l.lines[1].text == "next")
        #expect(elapsed < .seconds(1), "took \(elapsed)")
    }
}

/// Issue 29: a line that is not wrapped is cut with an ellipsis where its box ends.
@MainActor
@Suite struct TextLayoutWidthCutTests {
    private func cut(_ text: String, at width: Double, maxLines: Int? = 1) -> TextLayout {
        TextLayout(text: text, measurer: FakeMeasurer(), maxWidth: nil, maxLines: maxLines, truncationWidth: width)
    }

    @Test func aLineWiderThanItsBoxIsCutWithAnEllipsis() {
        let l = cut("abcdefghij", at: 50)  // 70 px of text in 50
        #expect(l.isTruncated && l.isCutAtWidth)
        #expect(l.lines.map { String($0.text) } == ["abcdef"])
        #expect(l.lines[0].isEllipsized)
        #expect(l.lines[0].width <= 50)
        #expect(!l.serves(width: 70, wrapping: false), "a cut line serves its own width only")
    }

    @Test func aLineThatFitsIsNotCut() {
        let l = cut("abcde", at: 35)
        #expect(!l.isTruncated && !l.isCutAtWidth)
        #expect(l.lines.map { String($0.text) } == ["abcde"])
        #expect(l.serves(width: 40, wrapping: false) && !l.serves(width: 30, wrapping: false))
    }

    @Test func aSecondParagraphIsCutAtTheBoxToo() {
        let l = cut("abcdefghij\nmore", at: 50)
        #expect(l.lines.count == 1 && l.isTruncated)
        #expect(l.lines[0].width <= 50)
    }

    @Test func withoutAWidthNothingIsCut() {
        let l = TextLayout(text: "abcdefghij", measurer: FakeMeasurer(), maxWidth: nil, maxLines: 1)
        #expect(!l.isTruncated && l.lines[0].width == 70)
    }
}
