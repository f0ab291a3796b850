import Testing
import X11TestSupport

@testable import X11UI

/// Arabic shaped by HarfBuzz on a private Xvfb with the fonts `make deps` installs (DejaVu Sans
/// has Arabic): lam-alef is one glyph, marks (harakat) are placed by the font, and measuring,
/// wrapping, drawing and selection agree on where the glyphs are.
@Suite(.serialized)
@MainActor
final class ArabicShapingTests {
    let display: InProcessDisplay

    init() throws {
        display = try InProcessDisplay()
    }

    var fonts: FontSet { display.app.resources.fonts.fontSet(for: .body) }

    nonisolated static let phrase = "مَرْحَبًا بِالْعَالَم"

    /// The runs `forEachRun` hands over for text in display order, with their shaped glyphs.
    func runs(_ text: Substring) -> [(run: FontSet.Run, glyphs: [FontSet.ShapedGlyph])] {
        var runs: [(FontSet.Run, [FontSet.ShapedGlyph])] = []
        fonts.forEachRun(in: text) { run, bytes in
            runs.append((run, run.isShaped ? fonts.shape(bytes, run: run) : []))
            return true
        }
        return runs
    }

    @Test func lamAlefIsOneGlyph() throws {
        try #require(fonts.shapesJoiningScripts, "HarfBuzz (libharfbuzz0b)")
        let line = TextLayout(text: "لا", measurer: fonts, maxWidth: nil).lines[0]
        #expect(line.displayText.unicodeScalars.map(\.value) == [0x627, 0x644], "letters left for HarfBuzz to join")
        let runs = runs(line.displayText)
        #expect(runs.count == 1)
        #expect(runs.first?.run.isRightToLeft == true)
        #expect(runs.first?.glyphs.count == 1, "lam-alef is one ligature glyph: \(runs)")
        // The caret and selection split the ligature between its two letters.
        #expect(line.displayEdges.count == 3)
        #expect(abs(line.displayEdges[1] * 2 - line.displayEdges[2]) < 0.01)
        #expect(abs(line.displayEdges[2] - line.width) < 0.01)
    }

    @Test func marksArePlacedByTheFontAndTheLineMeasuresWhatIsDrawn() throws {
        try #require(fonts.shapesJoiningScripts, "HarfBuzz (libharfbuzz0b)")
        let layout = TextLayout(text: Self.phrase, measurer: fonts, maxWidth: nil)
        #expect(layout.lines.count == 1)
        let line = layout.lines[0]
        #expect(line.isRightToLeft)
        let display = line.displayText
        #expect(!display.unicodeScalars.contains { (0xFB50...0xFEFF).contains($0.value) }, "no presentation forms")
        let runs = runs(display)
        #expect(runs.filter(\.run.isRightToLeft).count == 2, "one shaped run a word: \(runs.map(\.run))")
        let glyphs = runs.flatMap(\.glyphs)
        let marks = glyphs.filter { $0.advance == 0 }
        let harakat = Self.phrase.unicodeScalars.filter { $0.properties.generalCategory == .nonspacingMark }
        #expect(marks.count == harakat.count, "each haraka is a glyph of its own")
        #expect(marks.allSatisfy { $0.offset != .zero }, "placed on its letter by the font")
        // Drawn, measured, wrapped and selected widths agree.
        let drawn = glyphs.reduce(0) { $0 + $1.advance } + fonts.width(of: " ")
        #expect(abs(line.width - drawn) < 0.01)
        #expect(abs(fonts.width(of: display) - drawn) < 0.01)
        #expect(abs(line.wrapWidth - drawn) < 0.01, "wrapping measured the words as drawn")
        #expect(abs((line.displayEdges.last ?? 0) - drawn) < 0.01)
        #expect(line.displayEdges.count == display.unicodeScalars.count + 1)
        // The ink stays inside the measured frame.
        let ink = fonts.inkBounds(of: display)
        let size = layout.size
        #expect(ink.minX + layout.inkInsets.left >= -0.5)
        #expect(ink.maxX + layout.inkInsets.left <= size.width + 0.5)
        #expect(ink.minY + layout.inkInsets.top >= -0.5, "marks above the letters: \(ink)")
        #expect(ink.maxY + layout.inkInsets.top <= size.height + 0.5, "marks below the letters: \(ink)")
    }

    @Test(arguments: [nil, 60.0])
    func aLabelDrawsEveryGlyphInsideItsFrame(width: Double?) throws {
        try #require(fonts.shapesJoiningScripts, "HarfBuzz (libharfbuzz0b)")
        let label = Label(Self.phrase)
        if let width { label.preferredWidth = width }
        let window = Window(
            title: "Arabic", size: Size(width: 200, height: 120),
            content: VStack(alignment: .start, padding: 24) { label }, application: display.app)
        display.show(window)
        let frame = try #require(label.frameOnScreen)
        if width != nil { #expect(frame.height > fonts.lineHeight, "the phrase wraps at 60 px") }
        var result = (inside: 0, outside: [(Int, Int)]())
        #expect(
            display.run(until: {
                result = self.display.ink(of: window, around: frame)
                return result.inside > 50
            }))
        #expect(result.outside.isEmpty, "ink outside \(frame): \(result.outside.prefix(8))")
        window.close()
    }

    @Test func aSelectedWordCoversItsGlyphs() throws {
        try #require(fonts.shapesJoiningScripts, "HarfBuzz (libharfbuzz0b)")
        let text = Self.phrase
        let layout = TextLayout(text: text, measurer: fonts, maxWidth: nil)
        let words = text.split(separator: " ")
        var boxes: [Rect] = []
        for word in words {
            let rects = layout.rects(covering: word.startIndex..<word.endIndex, measurer: fonts)
            let rect = try #require(rects.count == 1 ? rects.first : nil, "\(word): \(rects)")
            boxes.append(rect)
            #expect(abs(rect.width - fonts.readingWidth(of: word)) < 0.01, "\(word) is as wide as drawn")
            // The word's own glyphs, drawn alone from the rectangle's left: inside it, but for a
            // mark that may hang a pixel past its letter's advance.
            let ink = fonts.inkBounds(of: String(word.reversed())[...])
            #expect(ink.minX >= -1.5, "\(word): ink \(ink) in \(rect)")
            #expect(ink.maxX <= rect.width + 1.5, "\(word): ink \(ink) in \(rect)")
            // A click in the word puts the caret in it.
            let caret = layout.position(at: Point(x: rect.midX, y: rect.midY), measurer: fonts)
            #expect(word.startIndex <= caret.index && caret.index <= word.endIndex)
        }
        #expect(boxes[0].minX > boxes[1].maxX, "the first word read is on the right")
    }

    /// In a text view on screen: the selection rectangles of the phrase's two words cover the
    /// drawn glyphs, and the caret for a point in each word is in it.
    @Test func aTextViewSelectsTheGlyphsOfAWord() throws {
        try #require(fonts.shapesJoiningScripts, "HarfBuzz (libharfbuzz0b)")
        let text = TextView(Self.phrase)
        text.preferredWidth = 200
        let window = Window(
            title: "Arabic", size: Size(width: 248, height: 120),
            content: VStack(alignment: .start, padding: 24) { text }, application: display.app)
        display.show(window)
        let frame = try #require(text.frameOnScreen)
        var result = (inside: 0, outside: [(Int, Int)]())
        #expect(
            display.run(until: {
                result = self.display.ink(of: window, around: frame)
                return result.inside > 50
            }))
        #expect(result.outside.isEmpty, "ink outside the text view: \(result.outside.prefix(8))")
        // The columns with ink, in the view's coordinates (the view's background is the window's
        // inside its border: take the text's own dark pixels).
        let width = Int(frame.width)
        let height = Int(frame.height)
        let all = display.probe.pixels(Int(frame.minX), Int(frame.minY), width, height)
        try #require(all.count == width * height)
        var inked: [Int] = []
        for x in 0..<width {
            let column = (0..<height).map { all[$0 * width + x] }
            if column.contains(where: { ($0 >> 16) & 0xff < 0x80 && ($0 >> 8) & 0xff < 0x80 && $0 & 0xff < 0x80 }) {
                inked.append(x)
            }
        }
        try #require(inked.count > 20, "the phrase is drawn")
        var covered: [Rect] = []
        for word in Self.phrase.split(separator: " ") {
            text.select(word.startIndex..<word.endIndex)
            let rects = text.selectionRects
            let rect = try #require(rects.count == 1 ? rects.first : nil, "\(word): \(rects)")
            covered.append(rect)
            #expect(inked.contains { Double($0) >= rect.minX && Double($0) < rect.maxX }, "\(word) has ink")
            text.select(nil)
            let caret = text.index(at: Point(x: rect.midX, y: rect.midY))
            #expect(word.startIndex <= caret && caret <= word.endIndex, "a click in \(word) puts the caret in it")
        }
        // Every inked column lies under one of the words' rectangles (a mark may hang a pixel
        // past its letter).
        let stray = inked.filter { x in !covered.contains { Double(x) >= $0.minX - 1.5 && Double(x) < $0.maxX + 1.5 } }
        #expect(stray.isEmpty, "ink outside the words' selection: \(stray), words at \(covered)")
        window.close()
    }

    /// A word of more than 512 bytes (the length runs are otherwise cut at) is shaped as one:
    /// it is cut only before a letter that does not join the next (here after each alef, in
    /// reading order), so its glyphs are exactly those of the whole word shaped at once.
    @Test func aLongWordIsShapedAsOne() throws {
        try #require(fonts.shapesJoiningScripts, "HarfBuzz (libharfbuzz0b)")
        let word = String(repeating: "بالعالم", count: 100)
        #expect(word.utf8.count > 2 * 512)
        let display = String(word.reversed())
        let runs = runs(display[...])
        #expect(runs.count > 1, "cut somewhere past 512 bytes")
        #expect(runs.allSatisfy { $0.run.isRightToLeft })
        let face = try #require(runs.first?.run.face)
        let whole = Array(word.utf8).withUnsafeBufferPointer { fonts.shape($0, face: face, rightToLeft: true) }
        let pieces = runs.flatMap(\.glyphs)
        let sameGlyphs = pieces.map(\.glyph) == whole.map(\.glyph)
        let samePlaces = pieces.map(\.advance) == whole.map(\.advance) && pieces.map(\.offset) == whole.map(\.offset)
        #expect(sameGlyphs, "the same glyphs as the word shaped whole (\(pieces.count) and \(whole.count))")
        #expect(samePlaces, "placed as in the word shaped whole")

        // Letters that all join both ways are one run up to 4,096 bytes, then cut.
        let joined = String(repeating: "ب", count: 1_000)
        #expect(self.runs(String(joined.reversed())[...]).count == 1)
        let tooLong = String(repeating: "ب", count: 3_000)
        #expect(self.runs(String(tooLong.reversed())[...]).count == 2)
    }

    @Test func latinTextIsNotShaped() {
        let runs = runs("Grüße, naïve café — 1234 ok?")
        #expect(!runs.isEmpty)
        #expect(runs.allSatisfy { !$0.run.isShaped })
    }

    /// A 100,000-character text laid out and measured: Latin, and Arabic with harakat. The
    /// times are printed, not asserted (they depend on the machine and its load).
    @Test(arguments: ["latin", "arabic"])
    func aLongTextLaysOut(script: String) {
        let word = script == "latin" ? "tooltips " : "مَرْحَبًا "
        let text = String(repeating: word, count: 100_000 / word.count)
        let clock = ContinuousClock()
        var layout: TextLayout?
        let elapsed = clock.measure {
            layout = TextLayout(text: text, measurer: fonts, maxWidth: 400, maxLines: 2_000)
        }
        print("100,000 characters of \(script) laid out in 400 px: \(elapsed)")
        #expect(layout?.lines.allSatisfy { $0.width <= 400 } == true)
    }
}
