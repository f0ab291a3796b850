import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// Text layout with real Xft metrics and fontconfig fallback on a private Xvfb: wrapped lines
/// fit the width, are as full as the next word allows, measure what their text measures, and
/// characters the first font lacks are measured with a fallback font that has them.
@Suite(.serialized)
@MainActor
final class TextMetricsTests {
    let display: InProcessDisplay

    init() throws {
        display = try InProcessDisplay()
    }

    var fonts: FontSet { display.app.resources.fonts.fontSet(for: .body) }

    nonisolated static let paragraphs = [
        "The quick brown fox jumps over the lazy dog while the tooltip waits half a second before it shows.",
        "툴팁 도움말: 여기를 누르세요. 포인터를 버튼 위에 올려 두면 도움말이 나타납니다.",
        "Grüße aus Köln: Ärger über Öl, Straße und naïve Cafés — ça va très bien, merci.",
        "Hearts ❤️ and chats 💬 sit beside words 👍🏽 in one tooltip line that has to wrap somewhere.",
    ]

    @Test(arguments: paragraphs)
    func wrappedLinesFitAndAreFull(text: String) {
        let width = 180.0
        let layout = TextLayout(text: text, measurer: fonts, maxWidth: width)
        #expect(layout.lines.count >= 2)
        for (index, line) in layout.lines.enumerated() {
            #expect(line.width <= width, "line \(index) is \(line.width) px wide")
            #expect(abs(line.width - fonts.width(of: line.text)) < 0.5)
            guard index + 1 < layout.lines.count,
                let nextWord = layout.lines[index + 1].text.split(separator: " ").first
            else { continue }
            // The next line's first word would not have fitted on this one.
            #expect(fonts.width(of: line.text) + fonts.width(of: " ") + fonts.width(of: nextWord) > width)
        }
        // Nothing is lost: the lines hold every word, in order.
        let words = layout.lines.flatMap { $0.text.split(separator: " ") }.map(String.init)
        #expect(words == text.split(separator: " ").map(String.init))
    }

    @Test func textWithoutSpacesBreaksBetweenCharactersToFit() {
        let text = "ツールチップのヘルプテキストはここに表示されますが、とても長い場合は折り返されます。"
        let layout = TextLayout(text: text, measurer: fonts, maxWidth: 120)
        #expect(layout.lines.count >= 3)
        #expect(layout.lines.allSatisfy { $0.width <= 120 && !$0.text.isEmpty })
        #expect(layout.lines.map { String($0.text) }.joined() == text)
    }

    @Test func charactersTheFirstFontLacksAreMeasuredWithAFallbackThatHasThem() {
        let set = fonts
        #expect(set.faceIndex(for: "a") == 0)
        for character in ["툴", "ツ", "é", "❤"] {
            let scalar = character.unicodeScalars.first!
            #expect(set.faceIndex(for: scalar) >= 0, "no font has \(character)")
        }
        // Hangul and kana come from fallback fonts (the default sans-serif face has neither),
        // at full width: wider than a Latin letter, as wide as each other within a pixel.
        #expect(set.faceIndex(for: "툴") > 0)
        #expect(set.width(of: "툴") > set.width(of: "a"))
        #expect(abs(set.width(of: "툴팁") - 2 * set.width(of: "툴")) <= 1)
    }

    @Test func anEllipsizedLineStillFitsItsWidth() {
        let text = String(repeating: "Tooltips wrap and then stop. ", count: 40)
        let layout = TextLayout(text: text, measurer: fonts, maxWidth: 150, maxLines: 3)
        #expect(layout.isTruncated)
        #expect(layout.lines.count == 3)
        let last = layout.lines[2]
        #expect(last.isEllipsized)
        #expect(last.width <= 150)
        #expect(abs(last.width - fonts.width(of: last.text) - fonts.width(of: TextLayout.ellipsis)) < 0.5)
    }

    @Test func rightToLeftLabelsDrawEveryLetterFromTheRight() throws {
        let font = Font(size: 15, weight: .semibold)
        let mixed = Label("עברית · عربي", font: font)
        let arabic = Label("عربي", font: font)
        let window = Window(
            title: "RTL", size: Size(width: 300, height: 80),
            content: HStack(padding: 10) {
                mixed
                arabic
            }, application: display.app)
        display.show(window)
        let probe = display.probe
        // Painted: both labels show the window's background and dark ink on the screen.
        #expect(
            display.run(until: {
                [mixed, arabic].allSatisfy { label in
                    guard let frame = label.frameOnScreen else { return false }
                    let pixels = probe.pixels(Int(frame.minX), Int(frame.minY), Int(frame.width), Int(frame.height))
                    return pixels.contains(0xf2f2f7) && pixels.contains { $0 < 0x606060 }
                }
            }))
        for label in [mixed, arabic] {
            let frame = try #require(label.frameOnScreen)
            #expect(label.frame.height < 2 * fonts.lineHeight, "one line")
            // Ink in the left and the right quarter: nothing wrapped out of sight, nothing cut.
            func ink(_ xs: Range<Int>) -> Int {
                var count = 0
                for y in Int(frame.minY)..<Int(frame.maxY) {
                    for x in xs where display.probe.pixel(x, y) < 0x606060 { count += 1 }
                }
                return count
            }
            let quarter = Int(frame.width / 4)
            #expect(ink(Int(frame.minX)..<Int(frame.minX) + quarter) > 5, "\(label.text): its left end is drawn")
            #expect(ink(Int(frame.maxX) - quarter..<Int(frame.maxX)) > 5, "\(label.text): its right end is drawn")
        }
    }

    /// The runs of a text and their shaped glyphs (empty for runs Xft draws as they are).
    func shapedRuns(_ text: String) -> [(run: FontSet.Run, glyphs: [FontSet.ShapedGlyph])] {
        var runs: [(FontSet.Run, [FontSet.ShapedGlyph])] = []
        fonts.forEachRun(in: text[...]) { run, bytes in
            runs.append((run, run.isShaped ? fonts.shape(bytes, face: run.face) : []))
            return true
        }
        return runs
    }

    func glyph(_ scalar: UInt32, face: Int) -> UInt32 {
        fonts.fontFaces[face].glyph(for: scalar)
    }

    @Test func devanagariVowelSignsAreDrawnBeforeTheirConsonantAndConjunctsJoin() throws {
        // कि: the vowel sign ि follows क in reading order but is drawn to its left.
        let ki = shapedRuns("कि")
        let run = try #require(ki.first)
        #expect(ki.count == 1 && run.run.isShaped)
        #expect(run.glyphs.map(\.glyph) == [glyph(0x093F, face: run.run.face), glyph(0x0915, face: run.run.face)])
        // क्ष (ka, virama, ssa) is one conjunct glyph, not three.
        let kssa = try #require(shapedRuns("क्ष").first)
        #expect(kssa.glyphs.count == 1, "\(kssa.glyphs)")
        #expect(kssa.glyphs.allSatisfy { $0.glyph != 0 })
        // A word measures what its glyphs advance, and a Latin word beside it is not shaped.
        let mixed = shapedRuns("नमस्ते world")
        #expect(mixed.map(\.run.isShaped) == [true, false])
        #expect(fonts.width(of: "नमस्ते") == mixed[0].glyphs.reduce(0) { $0 + $1.advance })
    }

    /// Emoji sequences (ZWJ families, flags, skin tones, keycaps, emoji presentation) are one
    /// coloured glyph; a heart without U+FE0F stays text.
    @Test func emojiSequencesAreOneGlyphWide() throws {
        let single = fonts.width(of: "👨")
        #expect(single > 8)
        for sequence in ["👨‍👩‍👧", "🇰🇷", "👍🏽", "🏳️‍🌈", "❤️", "1️⃣"] {
            let runs = shapedRuns(sequence)
            #expect(runs.count == 1 && runs[0].run.isShaped, "\(sequence)")
            #expect(runs.first.map { FontSet.isColor(fonts.faces[$0.run.face]) } == true, "\(sequence) in colour")
            #expect(runs.first?.glyphs.count == 1, "\(sequence) is one glyph: \(runs.first?.glyphs ?? [])")
            #expect(abs(fonts.width(of: sequence[...]) - single) <= 1, "\(sequence) is as wide as one emoji")
        }
        let textHeart = try #require(shapedRuns("❤").first)
        #expect(!textHeart.run.isShaped)
    }

    @Test func shapedTextIsDrawnWhereItIsMeasured() throws {
        let label = Label("कि क्ष नमस्ते 👨‍👩‍👧 🇰🇷 ❤️")
        let window = Window(
            title: "Shaping", size: Size(width: 320, height: 60), content: HStack(padding: 10) { label },
            application: display.app)
        display.show(window)
        let frame = try #require(label.frameOnScreen)
        let probe = display.probe
        // Painted: the window's background and dark ink in the label.
        #expect(
            display.run(until: {
                let pixels = probe.pixels(Int(frame.minX), Int(frame.minY), Int(frame.width), Int(frame.height))
                return pixels.contains(0xf2f2f7) && pixels.contains { $0 < 0x606060 }
            }))
        #expect(label.frame.height < 2 * fonts.lineHeight, "one line")
        var inkColumns = Set<Int>()
        for y in Int(frame.minY)..<Int(frame.maxY) {
            for x in Int(frame.minX) - 4..<Int(frame.maxX) + 4 where display.probe.pixel(x, y) != 0xf2f2f7 {
                inkColumns.insert(x)
            }
        }
        // The ink starts at the label's left edge and ends at its right edge (the heart last).
        #expect(abs((inkColumns.min() ?? 0) - Int(frame.minX)) <= 2)
        #expect(abs((inkColumns.max() ?? 0) - Int(frame.maxX)) <= 3)
    }
}
