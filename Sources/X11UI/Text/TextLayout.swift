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

    /// The width the lines were wrapped at (after any narrower second wrapping for ink), and the
    /// width offered; nil when the lines were not wrapped.
    private(set) var wrappedWidth: Double?
    private(set) var offeredWidth: Double?

    /// Whether laying the same text out again at `width`, with the same line limit, gives these
    /// lines: a width from the layout's own width up to the one it wrapped at. Every line fits
    /// it, and the word after each line did not fit the wider width, so greedy breaking breaks
    /// where it broke (a cut word and an ellipsized line keep their length the same way).
    func wrapsTheSame(at width: Double) -> Bool {
        guard let wrappedWidth, width.isFinite else { return false }
        return size.width <= width && width <= wrappedWidth
    }

    /// Whether these lines serve for `width`: they wrap the same there (`wrapsTheSame(at:)`),
    /// or, when ink made the layout wrap a second time narrower, `width` lies between the
    /// layout's own width and the width offered, which the lines and their ink fit. A label
    /// measures at the width offered and draws at the width that measured, rounded up: it
    /// draws the lines it measured, and lays the text out once (a 100,000-character tooltip
    /// was laid out twice per show, and drawn in lines other than those measured when the
    /// second layout wrapped differently).
    func serves(width: Double) -> Bool {
        guard let offeredWidth, width.isFinite else { return false }
        return size.width <= width && width <= offeredWidth
    }

    /// Whether these lines serve for `width` in a label that wraps (`serves(width:)`) or not:
    /// a line that is not wrapped serves any width it fits uncut.
    func serves(width: Double, wrapping: Bool) -> Bool {
        wrapping ? serves(width: width) : !isCutAtWidth && size.width <= width
    }

    /// The size the lines and their ink cover.
    var size: Size {
        Size(
            width: (lines.map { max($0.width, $0.wrapWidth) }.max() ?? 0) + inkInsets.horizontal,
            height: Double(lines.count) * lineHeight + inkInsets.vertical)
    }

    /// The widest and tallest area of text that can ever show: the largest window side
    /// (`XProtocolLimits.largestWindowSide`). Text laid out beyond it never shows, so it is not laid out.
    static let maximumExtent = XProtocolLimits.largestWindowSide

    /// The most lines that show in `maximumExtent` of height: views that lay out text with no
    /// line limit of their own (labels, text views) stop there, so a 10 MB label costs the
    /// lines that can show, not ten megabytes of measuring.
    static func viewableLines(lineHeight: Double) -> Int {
        lineHeight > 0 ? Int(maximumExtent / lineHeight) + 1 : 1024
    }

    /// The width an unwrapped line is cut at (see `init`).
    private var truncationWidth: Double?
    /// Whether the line was cut at `truncationWidth` (the lines then serve that width only).
    private(set) var isCutAtWidth = false

    /// The ellipsis appended to a truncated last line.
    static let ellipsis: Substring = "…"

    /// Lays out `text`.
    ///
    /// - Parameters:
    ///   - maxWidth: the width to wrap at; nil (or not positive) keeps each paragraph on one line.
    ///   - maxLines: the most lines to produce; nil for no limit.
    ///   - truncationWidth: for text that is not wrapped (`maxWidth` nil), the width at which
    ///     its line is cut with an ellipsis; nil lets it run on.
    @MainActor
    init(
        text: String, measurer: some TextMeasuring, maxWidth: Double?, maxLines: Int? = nil,
        truncationWidth: Double? = nil
    ) {
        lineHeight = measurer.lineHeight
        ascent = measurer.ascent
        // Lines are never broken wider than text can show.
        let width = maxWidth.flatMap { $0.isFinite && $0 > 0 ? min($0, Self.maximumExtent) : nil }
        offeredWidth = width
        if width == nil, let cut = truncationWidth, cut.isFinite, cut >= 0 { self.truncationWidth = cut }
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
        wrappedWidth = maxWidth
        lines = []
        isTruncated = false
        isCutAtWidth = false
        var breaker = LineBreaker(text: text[...], measurer: measurer, maxWidth: maxWidth)
        while let line = breaker.next() {
            if lines.count == limit {
                isTruncated = true
                ellipsizeLastLine(measurer: measurer, maxWidth: maxWidth ?? truncationWidth)
                isCutAtWidth = maxWidth == nil && truncationWidth != nil
                break
            }
            lines.append(line)
        }
        // A line that is not wrapped is cut where its box ends.
        if !isTruncated, let cut = truncationWidth, let last = lines.last, last.wrapWidth > cut {
            isTruncated = true
            isCutAtWidth = true
            ellipsizeLastLine(measurer: measurer, maxWidth: cut)
        }
        if lines.isEmpty { lines = [Line(text: "", width: 0)] }
        orderForDisplay(text: text, measurer: measurer)
        measureInk(measurer: measurer)
    }

    /// Finds how far glyphs reach out of the lines: at each line's two ends (a combining mark
    /// hanging past its letter) and above the first line and below the last (stacked marks).
    /// Whole lines are measured only for the first and the last, and for lines in display order
    /// (a letter of a shaped Arabic word has its ink only in its word), so this costs two
    /// clusters a left-to-right line.
    @MainActor
    private mutating func measureInk(measurer: some TextMeasuring) {
        var insets = EdgeInsets(all: 0)
        for (index, line) in lines.enumerated() {
            let text = line.displayText
            guard let first = text.indices.first else { continue }
            let last = text.index(before: text.endIndex)
            let start = line.isRightToLeft && line.isEllipsized ? measurer.width(of: Self.ellipsis) : 0
            if line.visual != nil {
                let whole = measurer.inkBounds(of: text)
                insets.left = max(insets.left, -(start + whole.minX))
                insets.right = max(insets.right, start + whole.maxX - line.width)
                if index == 0 { insets.top = max(insets.top, -whole.minY) }
                if index == lines.count - 1 { insets.bottom = max(insets.bottom, whole.maxY - lineHeight) }
                continue
            }
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
        // Asked only of text with letters that join: it may load a shaping engine.
        let shapesJoiningScripts =
            lines.contains { $0.text.unicodeScalars.contains(where: FontSet.joinsRightToLeft) }
            && measurer.shapesJoiningScripts
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
            guard
                let visual = Bidi.visualLine(
                    lines[index].text, paragraphIsRightToLeft: rightToLeft, joinsArabic: !shapesJoiningScripts)
            else {
                continue
            }
            // Joined Arabic forms can measure differently from the letters wrapping measured.
            lines[index].visual = visual
            lines[index].displayEdges = measurer.displayEdges(of: visual.text[...])
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
                width = measurer.readingWidth(of: text)
            }
        }
        while let last = text.last, last.isWhitespace {
            text.removeLast()
            width = measurer.readingWidth(of: text)
        }
        line.text = text
        line.width = width + ellipsisWidth
        line.wrapWidth = line.width
        line.isEllipsized = true
        lines.append(line)
    }
}

extension String {
    /// Whether two strings hold the same bytes. `==` compares canonical equivalents, and for text
    /// that is not ASCII Swift normalises both sides to do so: 2 million instructions for a
    /// 100,000-character Hindi tooltip, against a pass over the bytes. Enough to tell whether
    /// text changed (text that changed only to an equivalent form lays out again).
    func hasSameBytes(as other: String) -> Bool {
        var lhs = self
        var rhs = other
        return lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
    }
}

/// A string whose equality is byte equality (see `String.hasSameBytes(as:)`), for records of
/// what was drawn.
struct BytewiseString: Equatable {
    var string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.string.hasSameBytes(as: rhs.string) }
}
