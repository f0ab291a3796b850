internal import Glibc

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

        /// For a line in display order (`visual` set): the left edge of each scalar of the
        /// display text from the text's start, and its right end last; measured once, here,
        /// for selection and hit testing.
        var displayEdges: [Double] = []

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

    /// How far the glyphs reach beyond the lines' advances and the line boxes (a mark past the
    /// end of a line's last letter, a stack of Thai marks above the first line): the text is
    /// drawn inset by this much, so that its ink stays inside `size`.
    private(set) var inkInsets = EdgeInsets(all: 0)

    /// The size the lines and their ink cover.
    var size: Size {
        Size(
            width: (lines.map { max($0.width, $0.wrapWidth) }.max() ?? 0) + inkInsets.horizontal,
            height: Double(lines.count) * lineHeight + inkInsets.vertical)
    }

    /// The widest and tallest area of text that can ever show: the largest window side
    /// (`XRange.largestWindowSide`). Text laid out beyond it never shows, so it is not laid out.
    static let maximumExtent = XRange.largestWindowSide

    /// The most lines that show in `maximumExtent` of height: views that lay out text with no
    /// line limit of their own (labels, text views) stop there, so a 10 MB label costs the
    /// lines that can show, not ten megabytes of measuring.
    static func viewableLines(lineHeight: Double) -> Int {
        lineHeight > 0 ? Int(maximumExtent / lineHeight) + 1 : 1024
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
        // Lines are never broken wider than text can show.
        let width = maxWidth.flatMap { $0.isFinite && $0 > 0 ? min($0, Self.maximumExtent) : nil }
        breakLines(text: text, measurer: measurer, maxWidth: width, maxLines: maxLines)
        // Ink beyond the lines needs room beside them: wrap again, narrower by that much.
        if let width, size.width > width, inkInsets.horizontal > 0, width > inkInsets.horizontal {
            let insets = inkInsets
            breakLines(text: text, measurer: measurer, maxWidth: width - insets.horizontal, maxLines: maxLines)
            inkInsets = EdgeInsets(
                top: max(insets.top, inkInsets.top), left: max(insets.left, inkInsets.left),
                bottom: max(insets.bottom, inkInsets.bottom), right: max(insets.right, inkInsets.right))
        }
    }

    @MainActor
    private mutating func breakLines(text: String, measurer: some TextMeasuring, maxWidth: Double?, maxLines: Int?) {
        let limit = max(1, maxLines ?? .max)
        lines = []
        isTruncated = false
        var breaker = LineBreaker(text: text[...], measurer: measurer, maxWidth: maxWidth)
        while let line = breaker.next() {
            if lines.count == limit {
                isTruncated = true
                ellipsizeLastLine(measurer: measurer, maxWidth: maxWidth)
                break
            }
            lines.append(line)
        }
        if lines.isEmpty { lines = [Line(text: "", width: 0)] }
        orderForDisplay(text: text, measurer: measurer)
        measureInk(measurer: measurer)
    }

    /// Finds how far glyphs reach out of the lines: at each line's two ends (a combining mark
    /// hanging past its letter) and above the first line and below the last (stacked marks).
    /// Whole lines are measured only for the first and the last, so this costs two clusters a
    /// line.
    @MainActor
    private mutating func measureInk(measurer: some TextMeasuring) {
        var insets = EdgeInsets(all: 0)
        for (index, line) in lines.enumerated() {
            let text = line.displayText
            guard let first = text.indices.first else { continue }
            let last = text.index(before: text.endIndex)
            let start = line.isRightToLeft && line.isEllipsized ? measurer.width(of: Self.ellipsis) : 0
            let head = measurer.inkBounds(of: text[first...first])
            insets.left = max(insets.left, -(start + head.minX))
            let tailAdvance = measurer.width(of: text[last...last])
            let tail = measurer.inkBounds(of: text[last...last])
            let textEnd = start + line.displayWidth(measurer: measurer)
            insets.right = max(insets.right, textEnd - tailAdvance + tail.maxX - line.width)
            if index == 0 || index == lines.count - 1 {
                let whole = measurer.inkBounds(of: text)
                if index == 0 { insets.top = max(insets.top, -whole.minY) }
                if index == lines.count - 1 { insets.bottom = max(insets.bottom, whole.maxY - lineHeight) }
            }
        }
        inkInsets = EdgeInsets(
            top: insets.top.rounded(.up), left: insets.left.rounded(.up), bottom: insets.bottom.rounded(.up),
            right: insets.right.rounded(.up))
    }

    /// Puts the lines holding right-to-left text, and every line of a right-to-left paragraph,
    /// in display order, each in its paragraph's direction. Text without right-to-left
    /// characters, nearly all of it, costs one scan of the laid-out lines.
    @MainActor
    private mutating func orderForDisplay(text: String, measurer: some TextMeasuring) {
        guard lines.contains(where: { $0.text.unicodeScalars.contains(where: Bidi.isRightToLeft) }) else { return }
        var paragraphStart = text.startIndex
        var paragraphIsRightToLeft: Bool?
        for index in lines.indices {
            if index > 0, lines[index - 1].text.endIndex <= lines[index].text.startIndex {
                // Lines are slices of `text`; a paragraph separator between two starts a paragraph.
                let gap = text.unicodeScalars[lines[index - 1].text.endIndex..<lines[index].text.startIndex]
                if gap.contains(where: Bidi.isParagraphSeparator) {
                    paragraphStart = lines[index].text.startIndex
                    paragraphIsRightToLeft = nil
                }
            }
            let rightToLeft = paragraphIsRightToLeft ?? Bidi.paragraphIsRightToLeft(text[paragraphStart...])
            paragraphIsRightToLeft = rightToLeft
            guard let visual = Bidi.visualLine(lines[index].text, paragraphIsRightToLeft: rightToLeft) else {
                continue
            }
            // Joined Arabic forms measure differently from the isolated letters wrapping used.
            lines[index].visual = visual
            var x = 0.0
            lines[index].displayEdges =
                [0]
                + visual.text.unicodeScalars.map { scalar in
                    x += measurer.width(of: String(scalar)[...])
                    return x
                }
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

    /// The line index and caret position nearest to a point given relative to the top-left
    /// corner of the text (for text selection), with the lines placed in `width` (the layout's
    /// own width when nil) by `alignment`, as `DrawContext` draws them. On a line that holds
    /// right-to-left text the point is matched against the glyphs as drawn: the right half of
    /// a Hebrew letter is the caret before it.
    @MainActor
    func position(
        at point: Point, measurer: some TextMeasuring, width: Double? = nil, alignment: TextAlignment = .leading
    ) -> (line: Int, index: String.Index) {
        let y = point.y - inkInsets.top
        let lineIndex = min(lines.count - 1, max(0, Int((y / lineHeight).rounded(.down))))
        let line = lines[lineIndex]
        let start =
            inkInsets.left + line.textOffset(in: linesWidth(in: width), alignment: alignment, measurer: measurer)
        return (lineIndex, line.index(nearest: point.x - start, measurer: measurer))
    }

    /// The width lines are placed in, inside a box `width` wide (the layout's own when nil).
    func linesWidth(in width: Double?) -> Double {
        (width ?? size.width) - inkInsets.horizontal
    }

    /// The rectangles, relative to the text's top-left corner, that cover a range of the laid-out
    /// text (a selection), with the lines placed as in `position(at:measurer:width:alignment:)`.
    /// A range that runs on past a line's end also covers a space's width beyond that end, to
    /// show the line break is selected. A right-to-left run inside a line may split a range
    /// into several rectangles on that line.
    @MainActor
    func rects(
        covering range: Range<String.Index>, measurer: some TextMeasuring, width: Double? = nil,
        alignment: TextAlignment = .leading
    ) -> [Rect] {
        guard !range.isEmpty else { return [] }
        var rects: [Rect] = []
        for (index, line) in lines.enumerated() {
            let lineRange = line.text.startIndex..<line.text.endIndex
            let runsOn = range.upperBound > lineRange.upperBound && range.lowerBound <= lineRange.upperBound
            let lower = max(range.lowerBound, lineRange.lowerBound)
            let upper = min(range.upperBound, lineRange.upperBound)
            guard lower < upper || (runsOn && lower <= upper) else { continue }
            let start =
                inkInsets.left + line.textOffset(in: linesWidth(in: width), alignment: alignment, measurer: measurer)
            var spans = line.spans(showing: lower..<upper, measurer: measurer)
            if runsOn {
                // The line break is selected: a space's width past the line's end edge.
                let space = measurer.width(of: " ")
                let extent = line.displayWidth(measurer: measurer)
                spans.append(line.isRightToLeft ? (-space, 0) : (extent, extent + space))
            }
            let top = inkInsets.top + Double(index) * lineHeight
            for (x0, x1) in spans where x1 > x0 {
                rects.append(Rect(x: start + x0, y: top, width: x1 - x0, height: lineHeight))
            }
        }
        return rects
    }
}

extension TextLayout.Line {
    /// Where the line's text starts, from the left of a box `width` wide in which `alignment`
    /// places the line in its direction; a right-to-left line's ellipsis comes before it.
    @MainActor
    func textOffset(in width: Double, alignment: TextAlignment, measurer: some TextMeasuring) -> Double {
        let start = lineOffset(in: width, alignment: alignment)
        return isRightToLeft && isEllipsized ? start + measurer.width(of: TextLayout.ellipsis) : start
    }

    /// Where the line (its text and any ellipsis) starts, from the left of a box `width` wide.
    func lineOffset(in width: Double, alignment: TextAlignment) -> Double {
        switch (alignment, isRightToLeft) {
        case (.leading, false), (.trailing, true): return 0
        case (.center, _): return ((width - self.width) / 2).rounded(.down)
        case (.trailing, false), (.leading, true): return width - self.width
        }
    }

    /// The width of the line's text as drawn, without its ellipsis.
    @MainActor
    func displayWidth(measurer: some TextMeasuring) -> Double {
        width - (isEllipsized ? measurer.width(of: TextLayout.ellipsis) : 0)
    }

    /// The horizontal spans, from the text's start and left to right, of the glyphs that show
    /// `range` (a part of `text`).
    @MainActor
    func spans(showing range: Range<String.Index>, measurer: some TextMeasuring) -> [(Double, Double)] {
        guard let visual else {
            return [
                (
                    measurer.width(of: text[text.startIndex..<range.lowerBound]),
                    measurer.width(of: text[text.startIndex..<range.upperBound])
                )
            ]
        }
        let logical = Array(text.unicodeScalars.indices)
        let edges = displayEdges
        var spans: [(Double, Double)] = []
        for (position, offset) in visual.logicalOffsets.enumerated() where range.contains(logical[offset]) {
            if let last = spans.last, last.1 == edges[position] {
                spans[spans.count - 1].1 = edges[position + 1]
            } else {
                spans.append((edges[position], edges[position + 1]))
            }
        }
        return spans
    }

    /// The caret position in `text` nearest to `x`, measured from the text's start; always on a
    /// character boundary.
    @MainActor
    func index(nearest x: Double, measurer: some TextMeasuring) -> String.Index {
        guard let visual else {
            var index = text.startIndex
            var left = 0.0
            while index < text.endIndex {
                let next = text.index(after: index)
                let advance = measurer.width(of: text[index..<next])
                if x < left + advance / 2 { break }
                left += advance
                index = next
            }
            return index
        }
        let edges = displayEdges
        let count = visual.logicalOffsets.count
        // Left of the text is its start in a left-to-right line and its end in a right-to-left
        // one; right of it the other way round.
        guard count > 0, x >= 0 else { return isRightToLeft ? text.endIndex : text.startIndex }
        guard x < edges[count] else { return isRightToLeft ? text.startIndex : text.endIndex }
        var position = 0
        while position + 1 < count && edges[position + 1] <= x { position += 1 }
        let offset = visual.logicalOffsets[position]
        let leftHalf = x < (edges[position] + edges[position + 1]) / 2
        // A right-to-left glyph is read from its right: its right half is the caret before it.
        let after = visual.runsRightToLeft[offset] == leftHalf
        return characterBoundary(atScalarOffset: after ? offset + 1 : offset)
    }

    /// The character boundary in `text` at or before a scalar offset (a combining mark or a
    /// joined sequence moves the caret to its character's start).
    private func characterBoundary(atScalarOffset offset: Int) -> String.Index {
        var scalars = 0
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let nextScalars = scalars + text[index..<next].unicodeScalars.count
            if nextScalars > offset { return index }
            scalars = nextScalars
            index = next
        }
        return text.endIndex
    }
}

/// Produces lines one by one, reading the text only as far as needed.
///
/// Lines break at the opportunities of the Unicode line breaking algorithm (`LineBreakFinder`):
/// after spaces, between ideographs, after hyphens, between the words of a Thai run; a segment
/// wider than the whole line breaks between grapheme clusters.
@MainActor
struct LineBreaker<Measurer: TextMeasuring> {
    private let text: Substring
    private let measurer: Measurer
    private let maxWidth: Double?
    private var position: Substring.Index
    private var finished = false
    private let spaceWidth: Double
    private var finder: LineBreakFinder

    init(text: Substring, measurer: Measurer, maxWidth: Double?) {
        self.text = text
        self.measurer = measurer
        self.maxWidth = maxWidth
        position = text.startIndex
        spaceWidth = measurer.width(of: " ")
        finder = LineBreakFinder(text: text)
    }

    /// The next line, or nil at the end of the text.
    mutating func next() -> TextLayout.Line? {
        guard !finished else { return nil }
        let start = position
        var lineEnd = start  // end of the last segment placed on the line
        var width = 0.0
        var pendingSpaces = 0.0  // width of spaces after the last placed segment
        var lineEndIsCut = false  // the last placed segment was cut short, not ended at a break
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
            // A segment runs to the next break opportunity; its trailing spaces hang. Without a
            // width nothing wraps, and the words need not be found.
            let segment =
                maxWidth == nil
                ? (end: Self.endOfWord(in: text, from: index), isCut: false) : finder.nextSegment(after: index)
            let wordEnd = Self.trimmingSpaces(in: text, from: index, to: segment.end)
            let word = text[index..<wordEnd]
            let wordWidth = measurer.width(of: word)
            if let maxWidth, width + pendingSpaces + wordWidth > maxWidth {
                if lineEndIsCut, pendingSpaces == 0 {
                    // The rest of a long word: no break where it was cut, so fill the line.
                    let (end, fitted) = fitCharacters(of: word, into: maxWidth - width, allowingNone: true)
                    position = end
                    if end == text.endIndex { finished = true }
                    return TextLayout.Line(text: text[start..<end], width: width + fitted)
                }
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
            lineEndIsCut = segment.isCut
            index = wordEnd
            if maxWidth == nil, width > TextLayout.maximumExtent {
                // A line that does not wrap shows nothing past the widest view: the rest of its
                // paragraph is skipped unmeasured (a 10 MB line costs what can show).
                skipParagraph(from: index)
                return TextLayout.Line(text: text[start..<lineEnd], width: width)
            }
        }
        finished = true
        position = text.endIndex
        return TextLayout.Line(text: text[start..<lineEnd], width: width)
    }

    /// Moves past the rest of the paragraph that `index` is in: to just after the next
    /// paragraph break (`isParagraphBreak`). Scans the UTF-8 bytes, since a paragraph break
    /// never belongs to a longer character (`\r\n` aside): megabytes take milliseconds.
    private mutating func skipParagraph(from index: Substring.Index) {
        let utf8 = text.utf8
        let rest = utf8[index...]
        let found =
            rest.withContiguousStorageIfAvailable(Self.paragraphEnd)
            ?? Array(rest).withUnsafeBufferPointer(Self.paragraphEnd)
        if let found {
            position = utf8.index(index, offsetBy: found)
        } else {
            position = text.endIndex
            finished = true
        }
    }

    /// The offset just past the first paragraph break in UTF-8 bytes, or nil.
    private static func paragraphEnd(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        func find(_ byte: UInt8, from start: Int = 0, before end: Int) -> Int? {
            guard end > start, let hit = memchr(base + start, Int32(byte), end - start) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        // The first one-byte break (line feed, vertical tab, form feed, carriage return with
        // its line feed), found by memchr...
        var end = bytes.count
        var breakEnd: Int?
        for byte: UInt8 in [0x0A, 0x0B, 0x0C, 0x0D] {
            guard let hit = find(byte, before: end) else { continue }
            end = hit
            breakEnd = hit + (byte == 0x0D && hit + 1 < bytes.count && bytes[hit + 1] == 0x0A ? 2 : 1)
        }
        // ...then a next line (C2 85), line or paragraph separator (E2 80 A8, E2 80 A9) before it.
        var from = 0
        while let lead = find(0xC2, from: from, before: end) {
            if lead + 1 < bytes.count, bytes[lead + 1] == 0x85 {
                end = lead
                breakEnd = lead + 2
                break
            }
            from = lead + 1
        }
        from = 0
        while let lead = find(0xE2, from: from, before: end) {
            if lead + 2 < bytes.count, bytes[lead + 1] == 0x80, bytes[lead + 2] == 0xA8 || bytes[lead + 2] == 0xA9 {
                return lead + 3
            }
            from = lead + 1
        }
        return breakEnd
    }

    /// As many characters of `word` as fit (at least one, so layout always moves on, unless
    /// `allowingNone`).
    private func fitCharacters(
        of word: Substring, into maxWidth: Double, allowingNone: Bool = false
    ) -> (Substring.Index, Double) {
        var end = word.startIndex
        var width = 0.0
        while end < word.endIndex {
            let next = word.index(after: end)
            let advance = measurer.width(of: word[end..<next])
            if width + advance > maxWidth, end > word.startIndex || allowingNone { break }
            width += advance
            end = next
        }
        return (end, width)
    }

    static func isParagraphBreak(_ character: Character) -> Bool {
        // "\r\n" is one Character in Swift.
        character == "\n" || character == "\r" || character == "\r\n" || character == "\u{2028}"
            || character == "\u{2029}" || character == "\u{0B}" || character == "\u{0C}" || character == "\u{85}"
    }

    /// The end of the word at `start` (up to a space or a paragraph break), or of its first
    /// `LineBreakFinder.maxSegmentLength` characters.
    static func endOfWord(in text: Substring, from start: Substring.Index) -> Substring.Index {
        var index = start
        var length = 0
        while index < text.endIndex, length < LineBreakFinder.maxSegmentLength {
            let character = text[index]
            if character == " " || character == "\t" || isParagraphBreak(character) { break }
            length += 1
            index = text.index(after: index)
        }
        return index
    }

    /// The end of `start..<end` without its trailing spaces and tabs (never before `start`).
    static func trimmingSpaces(
        in text: Substring, from start: Substring.Index, to end: Substring.Index
    )
        -> Substring.Index
    {
        var end = end
        while end > start {
            let before = text.index(before: end)
            guard text[before] == " " || text[before] == "\t" else { break }
            end = before
        }
        return end
    }
}
