/// A text tooltip's content when its view has a keyboard shortcut: the text, and the shortcut
/// dimmed beside its first line at the bubble's trailing edge, as macOS menus, VS Code and
/// Figma show theirs ("Save        Ctrl+S"); at the leading (left) edge for right-to-left text.
///
/// The text wraps in the width the shortcut leaves; the shortcut sits on the first line, on
/// its baseline (both are drawn in the style's font). Screen readers and `_NET_WM_NAME` get
/// the two as one text, the shortcut in parentheses: "Save (Ctrl+S)".
@MainActor
final class ToolTipShortcutContent: View {
    /// The shortcut, in the style's secondary colour.
    let shortcutLabel = Label("")
    /// The tooltip's text: the tooltip window's label, lent while this content shows.
    private(set) var textLabel: Label?
    /// Whether the text runs right to left (the direction of its first paragraph).
    private(set) var isRightToLeft = false

    /// The room between the text and the shortcut, at 96 dpi.
    static let spacing = 24.0
    /// The least width the text keeps beside a long shortcut, at 96 dpi.
    static let minimumTextWidth = 80.0

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        shortcutLabel.wrapsText = false
        shortcutLabel.identifier = "tooltip-shortcut"
        addSubview(shortcutLabel)
    }

    /// Shows `label` (the tooltip's text) with `shortcut` beside it.
    func show(_ label: Label, shortcut: String, font: Font, color: Color) {
        if let old = textLabel, old !== label, old.superview === self { old.removeFromSuperview() }
        if label.superview !== self { insertSubview(label, at: 0) }  // read first
        textLabel = label
        shortcutLabel.text = shortcut
        shortcutLabel.font = font
        shortcutLabel.textColor = color
        isRightToLeft = Bidi.paragraphIsRightToLeft(label.text[...], limit: 4096)
        invalidateIntrinsicSize()
        setNeedsLayout()
    }

    /// The gap and the shortcut's size at the current scale.
    private var shortcutMetrics: (gap: Double, size: Size) {
        ((Self.spacing * scale).rounded(), shortcutLabel.idealSize)
    }

    override func sizeThatFits(_ proposal: Size) -> Size {
        guard let textLabel else { return .zero }
        let (gap, shortcut) = shortcutMetrics
        return Self.size(
            within: proposal, shortcut: shortcut, gap: gap, minimumTextWidth: Self.minimumTextWidth * scale
        ) { textLabel.fittingSize(for: Size(width: $0, height: proposal.height)) }
    }

    override func layoutSubviews() {
        guard let textLabel else { return }
        let (gap, shortcut) = shortcutMetrics
        let bounds = self.bounds
        let frames = Self.frames(in: bounds.size, shortcut: shortcut, gap: gap, rightToLeft: isRightToLeft) {
            textLabel.fittingSize(for: Size(width: $0, height: bounds.height)).height
        }
        textLabel.frame = frames.text
        shortcutLabel.frame = frames.shortcut
    }

    // MARK: - Layout, as pure functions

    /// The content's size within `proposal`: the text, wrapped in the width the shortcut and
    /// the gap leave (never less than `minimumTextWidth`), then the gap and the shortcut.
    /// `text` measures the text at a width.
    static func size(
        within proposal: Size, shortcut: Size, gap: Double, minimumTextWidth: Double, text: (Double) -> Size
    ) -> Size {
        let measured = text(max(minimumTextWidth, proposal.width - gap - shortcut.width))
        return Size(width: measured.width + gap + shortcut.width, height: max(measured.height, shortcut.height))
    }

    /// Where the text and the shortcut go in content of size `size`: the shortcut at the
    /// trailing edge (the right; the left when `rightToLeft`) at the top, on the text's first
    /// line; the text in the rest of the width, as tall as `textHeight` says at that width.
    static func frames(
        in size: Size, shortcut: Size, gap: Double, rightToLeft: Bool, textHeight: (Double) -> Double
    ) -> (text: Rect, shortcut: Rect) {
        let width = max(0, size.width - gap - shortcut.width)
        let height = min(size.height, textHeight(width))
        return (
            Rect(x: rightToLeft ? size.width - width : 0, y: 0, width: width, height: height),
            Rect(x: rightToLeft ? 0 : size.width - shortcut.width, y: 0, width: shortcut.width, height: shortcut.height)
        )
    }
}

extension Label {
    /// What the label says to a screen reader and in a tooltip's name: its text, or for a
    /// tooltip's keyboard shortcut the text in parentheses, so that "Save Ctrl+S" is read as
    /// "Save (Ctrl+S)".
    var spokenText: String {
        let affixes = spokenAffixes
        return affixes.prefix + text + affixes.suffix
    }

    /// What `spokenText` puts before and after the text.
    var spokenAffixes: (prefix: String, suffix: String) {
        (superview as? ToolTipShortcutContent)?.shortcutLabel === self ? ("(", ")") : ("", "")
    }
}
