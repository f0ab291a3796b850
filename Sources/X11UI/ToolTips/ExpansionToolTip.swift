/// A view's cut text made whole: what an expansion tooltip shows, and where the cut text is so
/// that the full text can continue it (the font, the wrapping width, the first line's start at
/// its baseline).
///
/// A view with a tooltip of its own whose text is cut shows both in one bubble: the full text
/// over the cut one, and the view's own tooltip below it. Neither hides the other: the full
/// text is what the pointer cannot read, the view's tooltip what the program wants said about
/// it, and one bubble keeps the rule of one tooltip at a time.
struct ExpansionToolTip {
    /// The full text.
    var text: String
    /// The view's font for it.
    var font: Font
    /// The width the view wraps the text at; nil when it keeps it on one line.
    var wrapWidth: Double?
    /// Where the cut text's first line starts, at its baseline, in the view's coordinates: its
    /// left end, or its right end for a right-to-left line.
    var anchor: Point
    /// Whether that line runs right to left.
    var isRightToLeft: Bool
    /// The view's own tooltip at the point asked, shown below the full text.
    var own: ToolTipConfiguration.Content?

    /// Whether two expansions show the same text in the same place (their own tooltips aside).
    func hasSamePlacement(as other: ExpansionToolTip) -> Bool {
        text.hasSameBytes(as: other.text) && font == other.font && wrapWidth == other.wrapWidth
            && anchor == other.anchor && isRightToLeft == other.isRightToLeft
    }
}

/// A view that may cut its text with an ellipsis, and then offers the full text in an
/// expansion tooltip: a ``Label``, a ``Button``'s title.
@MainActor
protocol ExpandingText: View {
    /// The label whose text is cut now, when it is and expansion tooltips are allowed.
    var cutLabel: Label? { get }
    /// Whether the view offers its full text when it is cut.
    var allowsExpansionToolTips: Bool { get }
    /// The view's expansion tooltip, once made (``expansionToolTip``).
    var expansion: ToolTipInteraction? { get set }
}

extension ExpandingText {
    /// The view's expansion tooltip (made when first asked for).
    var expansionToolTip: ToolTipInteraction {
        if let expansion { return expansion }
        let made = ToolTipInteraction(expanding: self)
        made.isEnabled = allowsExpansionToolTips
        expansion = made
        return made
    }

    /// The expansion tooltip's configuration at `point`: the full text of the cut label,
    /// placed over it, with the view's own hover tooltip at that point below it; nil when the
    /// text is not cut.
    func expansionConfiguration(at point: Point) -> ToolTipConfiguration? {
        guard let label = cutLabel, let first = label.firstLineAnchor(in: label.bounds.size) else { return nil }
        var own: ToolTipConfiguration.Content?
        if let interaction = toolTipInteraction, interaction.isEnabled,
            let configuration = interaction.configuration(at: point), configuration.hasContent
        {
            own = configuration.content
        }
        var configuration = ToolTipConfiguration(toolTip: label.text)
        configuration.expansion = ExpansionToolTip(
            text: label.text, font: label.font, wrapWidth: label.wrapsText ? label.bounds.width : nil,
            anchor: convertFromWindow(label.convertToWindow(first.point)), isRightToLeft: first.isRightToLeft,
            own: own)
        return configuration
    }
}
