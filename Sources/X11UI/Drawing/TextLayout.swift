/// Text broken into lines that fit a width: word wrapping, explicit newlines, and an ellipsis
/// when the text needs more lines than allowed.
///
/// Layout is pure: it depends on a `TextMeasuring` (Xft in programs, made-up metrics in tests)
/// and reads only as much of the text as the allowed lines can show, so a megabyte-long string
/// costs no more than the lines it fills.
struct TextLayout: Equatable {
    /// One laid-out line.
    struct Line: Equatable {
        /// The line's text, without the spaces it was broken at.
        var text: Substring
        /// The line's advance width as drawn.
        var width: Double
        /// The width the line was wrapped by: its characters measured one by one in reading
        /// order. It differs from `width` for right-to-left lines, whose Arabic letters join
        /// into forms of other widths; the layout's size covers both, so that laying the text
        /// out again at that size wraps it the same way.
        var wrapWidth: Double
        /// Whether the line ends with an added ellipsis.
        var isEllipsized = false
        /// The line in display order when it holds right-to-left text; nil when `text` is
        /// drawn as it is.
        var visual: Bidi.VisualLine?

        /// What is drawn, from left to right.
        var displayText: Substring { visual.map { $0.text[...] } ?? text }

        init(text: Substring, width: Double) {
            self.text = text
            self.width = width
            wrapWidth = width
        }

        /// Whether the line runs right-to-left (it then starts at the right edge, and its
        /// ellipsis is at its left end).
        var isRightToLeft: Bool { visual?.isRightToLeft ?? false }
    }

    private(set) var lines: [Line] = []
    /// Whether text was left out (and the last line ellipsized).
    private(set) var isTruncated = false
    let lineHeight: Double
    let ascent: Double

    /// The size the lines cover.
    var size: Size {
        Size(width: lines.map { max($0.width, $0.wrapWidth) }.max() ?? 0, height: Double(lines.count) * lineHeight)
    }

    /// The ellipsis appended to a truncated last line.
    static let ellipsis: Substring = "…"

    /// Lays out `text`.
    ///
    /// - Parameters:
    ///   - maxWidth: the width to wrap at; nil (or not positive) keeps each paragraph on one line.
    ///   - maxLines: the most lines to produce; nil for no limit.
    @MainActor
    init(text: String, measurer: some TextMeasuring, maxWidth: Double?, maxLines: Int? = nil) {
        lineHeight = measurer.lineHeight
        ascent = measurer.ascent
        let limit = max(1, maxLines ?? .max)
        let width = maxWidth.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        var breaker = LineBreaker(text: text[...], measurer: measurer, maxWidth: width)
        while let line = breaker.next() {
            if lines.count == limit {
                isTruncated = true
                ellipsizeLastLine(measurer: measurer, maxWidth: width)
                break
            }
            lines.append(line)
        }
        if lines.isEmpty { lines = [Line(text: "", width: 0)] }
        for index in lines.indices {
            guard let visual = Bidi.visualLine(lines[index].text) else { continue }
            // Joined Arabic forms measure differently from the isolated letters wrapping used.
            lines[index].visual = visual
            lines[index].width =
                measurer.width(of: visual.text[...])
                + (lines[index].isEllipsized ? measurer.width(of: Self.ellipsis) : 0)
        }
    }

    /// Shortens the last line until it and an ellipsis fit.
    @MainActor
    private mutating func ellipsizeLastLine(measurer: some TextMeasuring, maxWidth: Double?) {
        guard var line = lines.popLast() else { return }
        let ellipsisWidth = measurer.width(of: Self.ellipsis)
        var text = line.text
        var width = line.width
        if let maxWidth {
            while !text.isEmpty, width + ellipsisWidth > maxWidth {
                text.removeLast()
                width = measurer.width(of: text)
            }
        }
        while let last = text.last, last.isWhitespace {
            text.removeLast()
            width = measurer.width(of: text)
        }
        line.text = text
        line.width = width + ellipsisWidth
        line.wrapWidth = line.width
        line.isEllipsized = true
        lines.append(line)
    }

    /// The line index and character offset nearest to a point given relative to the top-left
    /// corner of the text (for text selection).
    @MainActor
    func position(at point: Point, measurer: some TextMeasuring) -> (line: Int, index: String.Index) {
        let lineIndex = min(lines.count - 1, max(0, Int((point.y / lineHeight).rounded(.down))))
        let line = lines[lineIndex]
        var index = line.text.startIndex
        var x = 0.0
        while index < line.text.endIndex {
            let next = line.text.index(after: index)
            let advance = measurer.width(of: line.text[index..<next])
            if point.x < x + advance / 2 { break }
            x += advance
            index = next
        }
        return (lineIndex, index)
    }
}

/// Produces lines one by one, reading the text only as far as needed.
@MainActor
struct LineBreaker<Measurer: TextMeasuring> {
    private let text: Substring
    private let measurer: Measurer
    private let maxWidth: Double?
    private var position: Substring.Index
    private var finished = false
    private let spaceWidth: Double

    init(text: Substring, measurer: Measurer, maxWidth: Double?) {
        self.text = text
        self.measurer = measurer
        self.maxWidth = maxWidth
        position = text.startIndex
        spaceWidth = measurer.width(of: " ")
    }

    /// The next line, or nil at the end of the text.
    mutating func next() -> TextLayout.Line? {
        guard !finished else { return nil }
        let start = position
        var lineEnd = start  // end of the last word placed on the line
        var width = 0.0
        var pendingSpaces = 0.0  // width of spaces after the last placed word
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if Self.isParagraphBreak(character) {
                position = text.index(after: index)
                return TextLayout.Line(text: text[start..<lineEnd], width: width)
            }
            if character == " " || character == "\t" {
                pendingSpaces += spaceWidth
                index = text.index(after: index)
                continue
            }
            let wordEnd = Self.endOfWord(in: text, from: index)
            let word = text[index..<wordEnd]
            let wordWidth = measurer.width(of: word)
            if let maxWidth, width + pendingSpaces + wordWidth > maxWidth {
                if lineEnd > start {
                    // The word starts the next line; the spaces before it vanish.
                    position = index
                    return TextLayout.Line(text: text[start..<lineEnd], width: width)
                }
                // A word wider than the whole line breaks between characters (after any spaces
                // that open the line, which stay on it).
                let (end, fitted) = fitCharacters(of: word, into: maxWidth - width - pendingSpaces)
                position = end
                if end == text.endIndex { finished = true }
                return TextLayout.Line(text: text[start..<end], width: width + pendingSpaces + fitted)
            }
            width += pendingSpaces + wordWidth
            pendingSpaces = 0
            lineEnd = wordEnd
            index = wordEnd
        }
        finished = true
        position = text.endIndex
        return TextLayout.Line(text: text[start..<lineEnd], width: width)
    }

    /// As many characters of `word` as fit (at least one, so layout always moves on).
    private func fitCharacters(of word: Substring, into maxWidth: Double) -> (Substring.Index, Double) {
        var end = word.startIndex
        var width = 0.0
        while end < word.endIndex {
            let next = word.index(after: end)
            let advance = measurer.width(of: word[end..<next])
            if width + advance > maxWidth, end > word.startIndex { break }
            width += advance
            end = next
        }
        return (end, width)
    }

    static func isParagraphBreak(_ character: Character) -> Bool {
        // "\r\n" is one Character in Swift.
        character == "\n" || character == "\r" || character == "\r\n" || character == "\u{2028}"
            || character == "\u{2029}"
    }

    /// The longest word measured in one piece; longer ones are taken in chunks so that a
    /// 100,000-character "word" costs a line's worth of work per line, not the whole word.
    static var maxWordLength: Int { 256 }

    /// The end of the word starting at `start`: up to a space or a paragraph break; ideographs
    /// and kana are words of their own, since Chinese and Japanese break between characters.
    static func endOfWord(in text: Substring, from start: Substring.Index) -> Substring.Index {
        var index = start
        var length = 0
        while index < text.endIndex, length < maxWordLength {
            length += 1
            let character = text[index]
            if character == " " || character == "\t" || isParagraphBreak(character) { break }
            if breaksAnywhere(character) {
                return index == start ? text.index(after: index) : index
            }
            index = text.index(after: index)
        }
        return index
    }

    static func breaksAnywhere(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3040...0x30ff, 0x3400...0x4dbf, 0x4e00...0x9fff, 0xf900...0xfaff, 0x20000...0x2fa1f, 0x3000...0x303f,
            0xff00...0xffef:
            return true
        default:
            return false
        }
    }
}
