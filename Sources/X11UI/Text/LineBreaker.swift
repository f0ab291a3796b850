internal import Glibc

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
            if Self.isSpaceOrTab(character) {
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
            let wordWidth = measurer.readingWidth(of: word)
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
            let advance = measurer.readingWidth(of: word[end..<next])
            if width + advance > maxWidth, end > word.startIndex || allowingNone { break }
            width += advance
            end = next
        }
        return (end, width)
    }

    /// Whether a character is a paragraph break: line feed, carriage return (with its line
    /// feed: "\r\n" is one Character), vertical tab, form feed, next line, line or paragraph
    /// separator. Each is a grapheme cluster of its own, so its first scalar says; comparing
    /// Characters would compare canonical equivalents, and Swift does that by normalising both
    /// sides when the text is not ASCII (a fifth of a shaped tooltip's layout went to it).
    static func isParagraphBreak(_ character: Character) -> Bool {
        switch character.unicodeScalars.first?.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Whether a character is a space or a tab alone (a space with a combining mark is not),
    /// by its bytes (see `isParagraphBreak(_:)`).
    static func isSpaceOrTab(_ character: Character) -> Bool {
        let utf8 = character.utf8
        return utf8.count == 1 && (utf8.first == 0x20 || utf8.first == 0x09)
    }

    /// The end of the word at `start` (up to a space or a paragraph break), or of its first
    /// `LineBreakFinder.maxSegmentLength` characters.
    static func endOfWord(in text: Substring, from start: Substring.Index) -> Substring.Index {
        var index = start
        var length = 0
        while index < text.endIndex, length < LineBreakFinder.maxSegmentLength {
            let character = text[index]
            if isSpaceOrTab(character) || isParagraphBreak(character) { break }
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
            guard isSpaceOrTab(text[before]) else { break }
            end = before
        }
        return end
    }
}
