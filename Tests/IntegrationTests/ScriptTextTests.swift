import Testing
import X11TestSupport

@testable import X11UI

/// Thai, Arabic with its marks, and emoji sequences in narrow labels and a text view on a
/// private Xvfb: lines break between words, every glyph lies inside the view's frame, and
/// selection takes whole grapheme clusters.
@Suite(.serialized)
@MainActor
final class ScriptTextTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    nonisolated static let thai = "ภาษาไทยเป็นภาษาที่ต้องใช้พจนานุกรมในการตัดคำ"
    /// The words of `thai`, as a Thai reader divides them.
    nonisolated static let thaiWords = [
        "ภาษา", "ไทย", "เป็น", "ภาษา", "ที่", "ต้อง", "ใช้", "พจนานุกรม", "ใน", "การ", "ตัด", "คำ",
    ]
    nonisolated static let arabic = "بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ"
    nonisolated static let emoji = "नमस्ते 👨‍👩‍👧 🇰🇷 👍🏽 क्षत्रिय 1️⃣ ❤️"

    var fonts: FontSet { display.app.resources.fonts.fontSet(for: .body) }

    /// Shows `view` alone, `width` wide, with a 24 px margin all round, in a window at the top left.
    func show(_ view: View, width: Double) -> X11UI.Window {
        view.preferredWidth = width
        let window = Window(
            title: "Scripts", size: Size(width: width + 48, height: 240),
            content: VStack(alignment: .start, padding: 24) { view }, application: display.app)
        display.show(window)
        return window
    }

    @Test(arguments: [thai, arabic, emoji], [130.0, 170])
    func narrowLabelsDrawEveryGlyphInsideTheirFrame(text: String, width: Double) throws {
        let label = Label(text)
        let window = show(label, width: width)
        let frame = try #require(label.frameOnScreen)
        #expect(frame.width <= width + 0.5)
        if width < 150 { #expect(frame.height > fonts.lineHeight, "\(text) wraps at \(width) px") }
        var result = (inside: 0, outside: [(Int, Int)]())
        #expect(
            display.run(until: {
                result = self.display.ink(of: window, around: frame); return result.inside > 50
            }))
        #expect(result.outside.isEmpty, "ink outside \(frame): \(result.outside.prefix(8))")
        // Every glyph was found: the text's own ink, laid out alone, is all there.
        let layout = try #require(label.layout(forWidth: label.bounds.width))
        #expect(layout.lines.map { String($0.text) }.joined().filter { $0 != " " } == text.filter { $0 != " " })
    }

    @Test(arguments: [130.0, 170, 216])
    func thaiWrapsBetweenWords(width: Double) throws {
        try #require(ThaiBreaker.shared != nil, "libthai (make deps)")
        #expect(fonts.faceIndex(for: "ภ") >= 0 && fonts.faceIndex(for: "ภ") != 0, "a Thai fallback font (make deps)")
        let label = Label(Self.thai)
        _ = show(label, width: width)
        let layout = try #require(label.layout(forWidth: label.bounds.width))
        #expect(layout.lines.count >= 2)
        #expect(layout.lines.map { String($0.text) }.joined() == Self.thai)
        var boundaries: Set<Int> = [0]
        var offset = 0
        for word in Self.thaiWords {
            offset += word.count
            boundaries.insert(offset)
        }
        for line in layout.lines {
            let end = Self.thai.distance(from: Self.thai.startIndex, to: line.text.endIndex)
            #expect(boundaries.contains(end), "\"\(line.text)\" ends inside a word at \(width) px")
            #expect(line.width + layout.inkInsets.horizontal <= label.bounds.width + 0.5)
        }
    }

    @Test func arabicMarksOnALinesLastLetterWidenTheLayoutInsteadOfOverflowing() throws {
        // The measured advances end where the ink of the line's first letter's kasra begins.
        let layout = TextLayout(text: Self.arabic, measurer: fonts, maxWidth: 130)
        let ink = layout.lines.map { fonts.inkBounds(of: $0.displayText) }
        for (line, box) in zip(layout.lines, ink) {
            #expect(box.minX >= -layout.inkInsets.left - 0.5, "\(line.text): ink at \(box.minX)")
            #expect(box.maxX <= line.width + layout.inkInsets.right + 0.5, "\(line.text): ink to \(box.maxX)")
        }
        #expect(layout.size.width <= 130)
    }

    /// A text view of Thai, Arabic and emoji: no glyph outside it, double-click takes a Thai
    /// word, and a selection made by dragging or from code takes whole clusters.
    @Test func aTextViewSelectsWholeClusters() throws {
        let family = "👨‍👩‍👧"
        let content = "🇰🇷\(family) ok ฉันรักคุณ \(Self.arabic) क्षत्रिय"
        let text = TextView(content)
        let window = show(text, width: 160)
        let frame = try #require(text.frameOnScreen)
        let local = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height)
        var result = (inside: 0, outside: [(Int, Int)]())
        #expect(
            display.run(until: {
                result = self.display.ink(of: window, around: local); return result.inside > 50
            }))
        #expect(result.outside.isEmpty, "ink outside the text view: \(result.outside.prefix(8))")

        // From code: a range ending inside the family grows to the whole family.
        let inside = content.unicodeScalars.index(content.unicodeScalars.startIndex, offsetBy: 3)
        text.select(content.startIndex..<inside)
        #expect(text.selectedText == "🇰🇷\(family)")
        let flagWidth = fonts.width(of: "🇰🇷")
        let familyWidth = fonts.width(of: family[...])
        let rect = try #require(text.selectionRects.first)
        #expect(abs(rect.width - (flagWidth + familyWidth)) < 1, "the highlight covers both glyphs: \(rect)")

        // By dragging: from the left edge to a third into the family glyph.
        let y = Int(frame.minY + text.padding + fonts.lineHeight / 2)
        let left = Int(frame.minX + text.padding)
        probe.movePointer(to: left + 1, y)
        display.settle()
        probe.button(1, down: true)
        probe.movePointer(to: left + Int(flagWidth + familyWidth / 3), y)
        display.settle()
        probe.button(1, down: false)
        #expect(display.run(until: { text.selectedText == "🇰🇷" }), "dragged: \(text.selectedText)")
        probe.movePointer(to: left + Int(flagWidth + familyWidth * 2 / 3), y)
        display.settle()
        #expect(text.selectedText == "🇰🇷", "the release ended the drag")

        // Double-click on a Thai word selects the dictionary's word.
        try #require(ThaiBreaker.shared != nil)
        let rak = content.range(of: "รัก")!
        text.select(rak)
        let word = try #require(text.selectionRects.first)
        text.select(nil)
        // Far from the drag's press (past the double-click distance, across the flag and the
        // family or on another line), these two are a new double click whenever they come.
        probe.movePointer(to: Int(frame.minX + word.midX), Int(frame.minY + word.midY))
        display.settle()
        probe.click()
        probe.click()
        #expect(display.run(until: { text.selectedText == "รัก" }), "double-clicked: \(text.selectedText)")
    }
}
