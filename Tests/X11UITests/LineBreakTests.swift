import Testing

@testable import X11UI

/// The segments of `text` between its line break opportunities, as the layout sees them.
@MainActor
func segments(_ text: String, dictionary: LineBreakFinder.Dictionary? = nil) -> [String] {
    var finder =
        dictionary.map { LineBreakFinder(text: text[...], dictionary: $0) } ?? LineBreakFinder(text: text[...])
    var result: [String] = []
    var start = text.startIndex
    while start < text.endIndex {
        let end = finder.nextBreak(after: start)
        result.append(String(text[start..<end]))
        start = end
    }
    return result
}

/// Cases written from the rules of UAX #14 (the official LineBreakTest.txt is not at hand);
/// each names the rule it checks. `|` marks an opportunity.
@MainActor
@Suite struct LineBreakRuleTests {
    @Test(arguments: [
        ("hello |world", "LB18: a break after spaces, which stay with the word before"),
        ("well-|known", "LB21: no break before a hyphen, one after it"),
        ("a |(b)", "LB13, LB14: none after an opening or before a closing bracket"),
        ("end. |Next", "LB13: none before a full stop"),
        ("Quoi ! |Non", "LB13: none before an exclamation mark, even after a space"),
        ("$100.00 |and |100% |and |-5", "LB24, LB25: numbers with prefixes, suffixes and separators"),
        ("1,000,000", "LB25: digits and separators"),
        ("10\u{202F}km |and |a\u{00A0}b", "LB12: none around no-break spaces"),
        ("a\u{200B}|b", "LB8: a break after a zero width space"),
        ("日\u{2060}本", "LB11: none around a word joiner"),
        ("日|本|語", "LB31: ideographs break between any two"),
        ("日|本。|「日|本」", "LB13, LB14: no line starts with 。 or 」, none ends with 「"),
        ("カ|ッ|プ", "LB1: small kana are ideographic under normal breaking"),
        ("ノ|ー|ト", "LB1: the prolonged sound mark (CJ) is ideographic under normal breaking"),
        ("and/|or", "LB13: none before a slash, LB31 one after it"),
        ("say |\"hi\" |now", "LB19: none around quotation marks but after spaces"),
        ("foo|—|bar |——", "LB17: em dashes stay together, LB31 break around one"),
        ("a |(b", "LB18 before an opening bracket after a space"),
        ("f(x)|日", "LB30: a letter before an opening bracket stays; an ideograph after a closing one breaks"),
        ("עב-רית", "LB21a: no break after a hyphen that follows a Hebrew letter"),
        ("e\u{301}te\u{301} |x", "LB9: combining marks stay with their base"),
        ("क्षत्रिय", "LB9: a conjunct is one cluster"),
        ("👍🏽|👨‍👩‍👧|🇰🇷|🇯🇵", "LB8a, LB30a, LB30b: emoji sequences, flags and modifiers are one cluster each"),
        ("x\u{AD}|y", "LB21: a break after a soft hyphen"),
        ("a\t|b", "a tab hangs at a line's end like a space (UAX #14 makes it BA)"),
    ])
    func opportunities(marked: String, rule: String) {
        let expected = marked.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        #expect(segments(expected.joined()) == expected, "\(rule)")
    }

    @Test func aMandatoryBreakEndsASegmentBeforeIt() {
        #expect(segments("one\ntwo") == ["one", "\n", "two"])
        #expect(segments("one\r\ntwo") == ["one", "\r\n", "two"])
        #expect(segments("a\u{2029}b") == ["a", "\u{2029}", "b"])
    }

    @Test func thePairTableAgreesWithTheRules() {
        // A few pairs straight from the rules, without spaces and with them.
        #expect(!LineBreakFinder.breakAllowed(between: .op, and: .al, afterSpaces: true))  // LB14
        #expect(!LineBreakFinder.breakAllowed(between: .qu, and: .op, afterSpaces: true))  // LB15
        #expect(!LineBreakFinder.breakAllowed(between: .cp, and: .ns, afterSpaces: true))  // LB16
        #expect(!LineBreakFinder.breakAllowed(between: .b2, and: .b2, afterSpaces: true))  // LB17
        #expect(LineBreakFinder.breakAllowed(between: .al, and: .al, afterSpaces: true))  // LB18
        #expect(LineBreakFinder.breakAllowed(between: .al, and: .cb, afterSpaces: false))  // LB20
        #expect(!LineBreakFinder.breakAllowed(between: .bb, and: .al, afterSpaces: false))  // LB21
        #expect(!LineBreakFinder.breakAllowed(between: .al, and: .in, afterSpaces: false))  // LB22
        #expect(!LineBreakFinder.breakAllowed(between: .pr, and: .id, afterSpaces: false))  // LB23a
        #expect(!LineBreakFinder.breakAllowed(between: .is, and: .al, afterSpaces: false))  // LB29
        #expect(!LineBreakFinder.breakAllowed(between: .eb, and: .em, afterSpaces: false))  // LB30b
        #expect(LineBreakFinder.breakAllowed(between: .id, and: .id, afterSpaces: false))  // LB31
        #expect(LineBreakFinder.breakAllowed(between: .zw, and: .al, afterSpaces: true))  // LB8
    }

    @Test func scriptsWrittenWithoutSpacesUseTheDictionary() {
        // A made-up dictionary that splits every run after its second character.
        let dictionary: LineBreakFinder.Dictionary = { run in
            run.count > 2 ? [run.index(run.startIndex, offsetBy: 2)] : []
        }
        #expect(segments("ກຂຄງ ຈ", dictionary: dictionary) == ["ກຂ", "ຄງ ", "ຈ"])
        // Without one, a run breaks only around it.
        #expect(segments("ກຂຄງ ຈ", dictionary: { _ in [] }) == ["ກຂຄງ ", "ຈ"])
        // A break inside a cluster is never taken.
        let split: LineBreakFinder.Dictionary = { run in
            let scalars = run.unicodeScalars
            return [scalars.index(after: scalars.startIndex)]
        }
        #expect(segments("ต้อง", dictionary: split) == ["ต้อง"])
    }

    @Test func aLongSegmentIsCutSoHugeTextStaysCheap() {
        let word = String(repeating: "x", count: 1000)
        let parts = segments(word)
        #expect(parts.first?.count == LineBreakFinder.maxSegmentLength)
        #expect(parts.joined() == word)
    }
}

/// Thai sentences whose word boundaries are known, through libthai's dictionary.
@MainActor
@Suite struct ThaiWordBreakTests {
    @Test(arguments: [
        "ภาษา|ไทย",
        "ฉัน|รัก|คุณ",
        "พจนานุกรม",
        "สวัสดี|ครับ",
        "แมว|กิน|ปลา",
        "วัน|นี้|อากาศ|ดี|มาก",
        "ภาษา|ไทย|เป็น|ภาษา|ที่|ต้อง|ใช้|พจนานุกรม|ใน|การ|ตัด|คำ",
    ])
    func sentencesBreakBetweenWords(marked: String) throws {
        try #require(ThaiBreaker.shared != nil, "libthai is installed by make deps")
        let expected = marked.split(separator: "|").map(String.init)
        #expect(segments(expected.joined()) == expected)
    }

    @Test func thaiWrapsBetweenWordsNeverInsideOne() throws {
        try #require(ThaiBreaker.shared != nil)
        // 7 px a grapheme cluster (a mark joins its letter: "นุ" is one).
        let text = "ภาษาไทยเป็นภาษาที่ต้องใช้พจนานุกรม"
        let words = ["ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "ต้อง", "ใช้", "พจนานุกรม"]
        for width in stride(from: 40.0, through: 140, by: 10) {
            let lines = TextLayout(text: text, measurer: SevenPixelMeasurer(), maxWidth: width).lines.map {
                String($0.text)
            }
            #expect(lines.joined() == text)
            // Every line is a run of whole words (the longest word, 8 clusters, fits 56 px).
            var remaining = words[...]
            for line in lines where width >= 56 {
                var rest = Substring(line)
                while !rest.isEmpty, let word = remaining.first, rest.hasPrefix(word) {
                    rest = rest.dropFirst(word.count)
                    remaining = remaining.dropFirst()
                }
                #expect(rest.isEmpty, "\"\(line)\" at \(width) px ends inside a word")
            }
        }
    }

    @Test func aWordWiderThanTheLineBreaksBetweenClusters() throws {
        try #require(ThaiBreaker.shared != nil)
        let lines = TextLayout(text: "พจนานุกรม", measurer: SevenPixelMeasurer(), maxWidth: 30).lines.map {
            String($0.text)
        }
        #expect(lines.joined() == "พจนานุกรม")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 4 })
        #expect(
            !lines.contains {
                $0.first.map { $0.unicodeScalars.first!.properties.generalCategory == .nonspacingMark } ?? false
            })
    }

    @Test func doubleClickWordsFollowTheDictionary() throws {
        try #require(ThaiBreaker.shared != nil)
        let text = "ฉันรักคุณ ok"[...]
        let rak = text.index(text.startIndex, offsetBy: 2)  // ฉั น รั: the first cluster of รัก
        let word = try #require(WordDictionary.word(in: text, around: rak))
        #expect(text[word] == "รัก")
        #expect(WordDictionary.word(in: text, around: text.index(before: text.endIndex)) == nil)
    }
}

/// Every grapheme cluster 7 px wide, a space 4 px.
private struct SevenPixelMeasurer: TextMeasuring {
    var lineHeight: Double { 16 }
    var ascent: Double { 12 }
    func width(of text: Substring) -> Double {
        text.reduce(0) { $0 + ($1 == " " || $1 == "\t" ? 4 : 7) }
    }
}

/// A measurer whose "ِ" (a kasra) has no advance and draws 5 px left of its pen, and whose "^"
/// draws 3 px above the line: ink out of the advances, as Arabic marks and stacked Thai marks.
private struct OverhangingMeasurer: TextMeasuring {
    var lineHeight: Double { 16 }
    var ascent: Double { 12 }
    func width(of text: Substring) -> Double {
        text.unicodeScalars.reduce(0) { $0 + ($1 == " " ? 4 : $1 == "\u{650}" ? 0 : 7) }
    }
    func inkBounds(of text: Substring) -> Rect {
        var x = 0.0
        var ink = Rect(x: 0, y: 0, width: 0, height: lineHeight)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{650}": ink = ink.union(Rect(x: x - 5, y: 10, width: 4, height: 4))
            case "^": ink = ink.union(Rect(x: x, y: -3, width: 7, height: 6))
            default: ink = ink.union(Rect(x: x, y: 0, width: 7, height: lineHeight))
            }
            x += width(of: String(scalar)[...])
        }
        return ink
    }
}

@MainActor
@Suite struct InkExtentTests {
    @Test func inkOutOfTheAdvancesWidensTheLayoutAndInsetsTheLines() {
        // "ab" then a letter whose mark reaches 5 px left of its end (drawn over the letter
        // and 0 px beyond), and a first line that starts with a mark reaching 5 px out.
        let layout = TextLayout(text: "\u{650}ab cd", measurer: OverhangingMeasurer(), maxWidth: nil)
        #expect(layout.inkInsets == EdgeInsets(top: 0, left: 5, bottom: 0, right: 0))
        #expect(layout.size == Size(width: 5 + 32, height: 16))
        // Hit testing and selection see the lines where they are drawn, 5 px in.
        let text = "\u{650}ab cd"
        #expect(layout.position(at: Point(x: 5 + 8, y: 4), measurer: OverhangingMeasurer()).index != text.startIndex)
        let rects = layout.rects(covering: text.startIndex..<text.endIndex, measurer: OverhangingMeasurer())
        #expect(rects.first?.minX == 5)
    }

    @Test func marksAboveTheFirstLineMakeRoomAboveIt() {
        let layout = TextLayout(text: "^a", measurer: OverhangingMeasurer(), maxWidth: nil)
        #expect(layout.inkInsets.top == 3)
        #expect(layout.size.height == 19)
    }

    @Test func aWrappedLayoutWithInkStillFitsItsWidth() {
        let text = "\u{650}" + String(repeating: "abc ", count: 10)
        for width in stride(from: 30.0, through: 120, by: 7) {
            let layout = TextLayout(text: text, measurer: OverhangingMeasurer(), maxWidth: width)
            #expect(layout.size.width <= width, "\(layout.size.width) at \(width)")
            #expect(layout.inkInsets.left == 5)
        }
    }
}
