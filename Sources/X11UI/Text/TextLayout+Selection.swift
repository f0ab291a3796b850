extension TextLayout {
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
