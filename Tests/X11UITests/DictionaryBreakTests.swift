import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Lao, Khmer and Myanmar sentences composed of known words, broken through ICU's dictionary:
/// `|` marks where a word starts. (ICU keeps some compounds whole, ភាសាខ្មែរ "the Khmer
/// language" for one: the wrapping test allows that, the boundary test avoids them.)
/// The words: Lao ສະບາຍດີ "hello", ປະເທດ "country", ລາວ "Lao",
/// ພາສາ "language"; Khmer ខ្ញុំ "I", ស្រលាញ់ "love", ប្រទេស "country", កម្ពុជា "Cambodia",
/// ភាសា "language", ខ្មែរ "Khmer"; Myanmar မြန်မာ "Myanmar", စာ "writing", မင်္ဂလာ "blessing",
/// ပါ (the polite particle).
@MainActor
@Suite struct DictionaryWordBreakTests {
    nonisolated static let sentences = [
        "ສະບາຍດີ|ປະເທດ|ລາວ",
        "ພາສາ|ລາວ",
        "ຂ້ອຍ|ຮັກ|ປະເທດ|ລາວ",
        "ខ្ញុំ|ស្រលាញ់|ប្រទេស|កម្ពុជា",
        "မြန်မာ|စာ",
        "မင်္ဂလာ|ပါ",
    ]

    @Test(arguments: sentences)
    func sentencesBreakBetweenTheirWords(marked: String) throws {
        try #require(ICUBreaker.shared != nil, "ICU's libicuuc is installed by make deps")
        let expected = marked.split(separator: "|").map(String.init)
        #expect(segments(expected.joined()) == expected)
    }

    @Test func thaiBreaksThroughICUToo() throws {
        // The second path for Thai, taken when libthai is missing.
        let icu = try #require(ICUBreaker.shared)
        let marked = "ภาษา|ไทย|เป็น|ภาษา|ที่|ต้อง|ใช้|พจนานุกรม"
        let text = marked.replacingOccurrences(of: "|", with: "")[...]
        let words = marked.split(separator: "|")
        var expected: [Substring.Index] = []
        var index = text.startIndex
        for word in words.dropLast() {
            index = text.index(index, offsetBy: word.count)
            expected.append(index)
        }
        #expect(icu.breaks(in: text, locale: "th") == expected)
        #expect(WordDictionary.backend(for: text, libthaiAvailable: false) == .icu(locale: "th"))
        #expect(WordDictionary.backend(for: text, libthaiAvailable: true) == .libthai)
    }

    @Test func utf16OffsetsMapBackToCharacters() throws {
        let icu = try #require(ICUBreaker.shared)
        // Before the run, a character of two UTF-16 units and one of three scalars: the run's
        // indices must still be those of the Substring handed in, not of a copy.
        let text = "😀e\u{301}ខ្ញុំស្រលាញ់"
        let run = text[text.index(text.startIndex, offsetBy: 2)...]
        let breaks = icu.breaks(in: run, locale: "km")
        #expect(breaks.map { String(run[..<$0]) } == ["ខ្ញុំ"])
        #expect(breaks.allSatisfy { String.Index($0, within: text) != nil })
    }

    /// A text of several sentences, with where each unit starts and ends in characters. `|`
    /// separates units; `+` joins words into a compound the dictionary may keep whole (ICU
    /// has ភាសាខ្មែរ as one word), which is then the unit that may not be split.
    nonisolated static func units(of marked: String) -> (text: String, units: [Range<Int>]) {
        var units: [Range<Int>] = []
        var offset = 0
        for unit in marked.split(separator: "|") {
            let count = unit.filter { $0 != "+" }.count
            units.append(offset..<offset + count)
            offset += count
        }
        return (marked.filter { $0 != "|" && $0 != "+" }, units)
    }

    @Test(arguments: [
        "ສະບາຍດີ|ປະເທດ|ລາວ| |ຂ້ອຍ|ຮັກ|ປະເທດ|ລາວ",
        "ខ្ញុំ|ស្រលាញ់|ប្រទេស|កម្ពុជា| |ខ្ញុំ|ស្រលាញ់|ភាសា+ខ្មែរ",
        "မင်္ဂလာ|ပါ| |မြန်မာ|စာ",
    ])
    func aNarrowWrapSplitsAWordOnlyWhenItIsWiderThanTheLine(marked: String) throws {
        try #require(ICUBreaker.shared != nil)
        let (text, words) = Self.units(of: marked)
        let measurer = SevenPixelClusters()
        for width in stride(from: 14.0, through: 120, by: 7) {
            let lines = TextLayout(text: text, measurer: measurer, maxWidth: width).lines
            // The space between sentences hangs at a line's end and is not part of its text.
            #expect(lines.map { String($0.text) }.joined().filter { $0 != " " } == text.filter { $0 != " " })
            for line in lines.dropLast() {
                // Lines end on cluster boundaries of the whole text.
                #expect(String.Index(line.text.endIndex, within: text) != nil, "inside a cluster at \(width) px")
                let end = text.distance(from: text.startIndex, to: line.text.endIndex)
                guard let word = words.first(where: { $0.lowerBound < end && end < $0.upperBound }) else { continue }
                #expect(
                    Double(word.count) * 7 > width,
                    "\"\(line.text)\" ends inside a word of \(word.count) clusters at \(width) px")
            }
        }
    }

    @Test func doubleClickWordsFollowTheDictionary() throws {
        try #require(ICUBreaker.shared != nil)
        let text = "ok ខ្ញុំស្រលាញ់ប្រទេសកម្ពុជា ok"[...]
        let inside = text.index(text.startIndex, offsetBy: 6)  // in ស្រលាញ់
        let word = try #require(WordDictionary.word(in: text, around: inside))
        #expect(text[word] == "ស្រលាញ់")
        let lao = "ສະບາຍດີປະເທດລາວ"[...]
        let last = try #require(WordDictionary.word(in: lao, around: lao.index(before: lao.endIndex)))
        #expect(lao[last] == "ລາວ")
    }
}

/// Which library a run would load, and that text of other scripts never reaches a dictionary.
@MainActor
@Suite struct DictionaryLoadingTests {
    @Test func onlyDictionaryScriptsChooseALibrary() {
        for text in ["Hello, world", "日本語のテキスト", "한국어", "नमस्ते", "مرحبا", "Ελληνικά", "👨‍👩‍👧"] {
            for index in text.indices {
                #expect(WordDictionary.backend(for: text[index...], libthaiAvailable: false) == nil, "\(text)")
            }
        }
        #expect(WordDictionary.backend(for: "ລາວ", libthaiAvailable: true) == .icu(locale: "lo"))
        #expect(WordDictionary.backend(for: "ខ្មែរ", libthaiAvailable: true) == .icu(locale: "km"))
        #expect(WordDictionary.backend(for: "မြန်မာ", libthaiAvailable: true) == .icu(locale: "my"))
    }

    @Test func theLibraryIsFoundByItsSonameAndMissingVersionsFailQuietly() throws {
        let icu = try #require(ICUBreaker.shared, "ICU's libicuuc is installed by make deps")
        #expect((60...80).contains(icu.version))
        // Only the version Debian ships: found, and its suffixed symbols with it.
        let again = try #require(ICUBreaker(versions: icu.version...icu.version))
        #expect(again.version == icu.version)
        #expect(again.breaks(in: "ພາສາລາວ", locale: "lo").count == 1)
        // None of these exists: no breaker (and a warning), so those scripts keep today's breaks.
        #expect(ICUBreaker(versions: 1...9) == nil)
    }

    @Test func latinAndCJKNeverAskTheDictionary() {
        var asked: [String] = []
        let spy: LineBreakFinder.Dictionary = { run in
            asked.append(String(run))
            return []
        }
        for text in ["The quick brown fox jumps over the lazy dog.", "日本語の文章、中文文本。한국어 문장", "a-b c/d 1,000"] {
            var finder = LineBreakFinder(text: text[...], dictionary: spy)
            var start = text.startIndex
            while start < text.endIndex { start = finder.nextBreak(after: start) }
        }
        #expect(asked.isEmpty)
        // The spy does see a Khmer run, so the check above can fail.
        var finder = LineBreakFinder(text: "ខ្ញុំស្រលាញ់"[...], dictionary: spy)
        _ = finder.nextBreak(after: "ខ្ញុំស្រលាញ់".startIndex)
        #expect(asked == ["ខ្ញុំស្រលាញ់"])
    }

    /// In a fresh process: laying out Latin and CJK text leaves libicuuc out of the address
    /// space; the first Khmer layout maps it.
    @Test func icuIsMappedOnlyOnceAKhmerRunIsBroken() async {
        await #expect(processExitsWith: .success) {
            func icuMapped() -> Bool {
                memoryMap()?.contains("libicuuc.so") ?? true
            }
            let clean = await MainActor.run { () -> Bool in
                guard !icuMapped() else { return false }
                for text in ["The quick brown fox jumps over the lazy dog", "日本語の文章を折り返す。中文文本", "한국어 문장"] {
                    _ = TextLayout(text: text, measurer: SevenPixelClusters(), maxWidth: 30)
                }
                guard !icuMapped() else { return false }
                _ = TextLayout(text: "ខ្ញុំស្រលាញ់ប្រទេសកម្ពុជា", measurer: SevenPixelClusters(), maxWidth: 30)
                return icuMapped()
            }
            if !clean { exit(1) }
        }
    }
}

/// Every grapheme cluster 7 px wide, a space 4 px.
struct SevenPixelClusters: TextMeasuring {
    var lineHeight: Double { 16 }
    var ascent: Double { 12 }
    func width(of text: Substring) -> Double {
        text.reduce(0) { $0 + ($1 == " " || $1 == "\t" ? 4 : 7) }
    }
}
