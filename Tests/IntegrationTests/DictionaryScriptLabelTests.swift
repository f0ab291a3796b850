import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// Lao, Khmer and Myanmar in narrow labels on a private Xvfb, with the fonts `make deps`
/// installs: the fallback finds a face with each script's letters, and lines begin where a word
/// begins (ICU's dictionary), unless a word alone is wider than the label.
@Suite(.serialized)
@MainActor
final class DictionaryScriptLabelTests {
    let display: InProcessDisplay

    init() throws {
        display = try InProcessDisplay()
    }

    var fonts: FontSet { display.app.resources.fonts.fontSet(for: .body) }

    /// Sentences of known words, `|` between words.
    nonisolated static let sentences = [
        "ສະບາຍດີ|ປະເທດ|ລາວ| |ຂ້ອຍ|ຮັກ|ປະເທດ|ລາວ| |ພາສາ|ລາວ",
        "ខ្ញុំ|ស្រលាញ់|ប្រទេស|កម្ពុជា| |ខ្ញុំ|ស្រលាញ់|ភាសា|ខ្មែរ",
        "မင်္ဂလာ|ပါ| |မြန်မာ|စာ| |မင်္ဂလာ|ပါ",
    ]

    @Test(arguments: sentences, [90.0, 130])
    func narrowLabelsBeginLinesAtWordStarts(marked: String, width: Double) throws {
        try #require(ICUBreaker.shared != nil, "ICU's libicuuc (make deps)")
        let words = marked.split(separator: "|").map(String.init)
        let text = words.joined()
        // A face with the script's letters was found (the fallback or the primary font).
        let fonts = self.fonts
        for scalar in text.unicodeScalars where scalar != " " {
            let index = fonts.faceIndex(for: scalar)
            #expect(fonts.fontFaces[index].has(scalar.value), "no font has U+\(scalar.value)")
        }
        let label = Label(text)
        label.preferredWidth = width
        let window = Window(
            title: "Scripts", size: Size(width: width + 48, height: 240),
            content: VStack(alignment: .start, padding: 24) { label }, application: display.app)
        display.show(window)
        let layout = try #require(label.layout(forWidth: label.bounds.width))
        #expect(layout.lines.count >= 2, "\(text) wraps at \(width) px")
        // Spaces that end a line hang there, out of its text.
        #expect(layout.lines.map { String($0.text) }.joined().filter { $0 != " " } == text.filter { $0 != " " })
        // Where each word starts, and the word around each UTF-8 offset.
        var starts: Set<Int> = []
        var wordAt: [Int: String] = [:]
        var offset = 0
        for word in words {
            starts.insert(offset)
            for _ in 0..<word.utf8.count {
                wordAt[offset] = word
                offset += 1
            }
        }
        for line in layout.lines {
            let start = line.text.base.utf8.distance(from: line.text.base.startIndex, to: line.text.startIndex)
            if starts.contains(start) { continue }
            // Only a word wider than the whole label may be split.
            let word = try #require(wordAt[start])
            #expect(fonts.width(of: word[...]) > label.bounds.width, "a line starts inside \(word) at \(width) px")
        }
    }
}
