/// A label's expansion tooltip: its full text over the cut one while the text is cut.
extension Label: ExpandingText {
    var cutLabel: Label? { allowsExpansionToolTips && isTruncated ? self : nil }

    /// Where the first line's text starts (its left end, or its right end for a right-to-left
    /// line), at its baseline, in a label of `size`: the point at which an expansion tooltip's
    /// full text lines up with the cut text.
    func firstLineAnchor(in size: Size) -> (point: Point, isRightToLeft: Bool)? {
        guard let layout = layout(forWidth: size.width), let line = layout.lines.first else { return nil }
        let width = layout.linesWidth(in: size.width)
        let x = layout.inkInsets.left + line.lineOffset(in: width, alignment: alignment)
        let y = textTop(of: layout, in: size.height) + layout.inkInsets.top + layout.ascent
        return (Point(x: x + (line.isRightToLeft ? line.width : 0), y: y), line.isRightToLeft)
    }
}
