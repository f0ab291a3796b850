/// Read-only text, wrapped at the width it is given.
///
/// ```swift
/// let label = Label("The label's tooltip shows on hover.", font: .body)
/// label.maxLines = 2      // the rest is ellipsized
/// ```
///
/// A label whose text is cut (by `maxLines`, or by a width narrower than a line that does not
/// wrap) shows its full text in a tooltip over the cut one when the pointer rests on it, as
/// macOS does (``allowsExpansionToolTips``).
@MainActor
open class Label: View {
    /// The text; explicit newlines start new lines.
    public var text: String {
        didSet {
            if !text.hasSameBytes(as: oldValue) {
                contentDidChange()
                accessibilityLabelDidChange()
            }
        }
    }
    /// The font.
    public var font: Font {
        didSet { if font != oldValue { contentDidChange() } }
    }
    /// The text colour.
    public var textColor: Color {
        didSet { if textColor != oldValue { setNeedsDisplay() } }
    }
    /// How lines sit within the label's width.
    public var alignment: TextAlignment = .leading {
        didSet { setNeedsDisplay() }
    }
    /// The most lines shown; the last one ends with an ellipsis when text is left out.
    public var maxLines: Int? {
        didSet { if maxLines != oldValue { contentDidChange() } }
    }
    /// Whether long lines wrap at the label's width (otherwise the text stays on one line, cut
    /// with an ellipsis where the label ends).
    public var wrapsText = true {
        didSet { if wrapsText != oldValue { contentDidChange() } }
    }
    /// Whether the full text shows in a tooltip over the label while its text is cut (an
    /// expansion tooltip); on by default. A label that fits shows nothing extra.
    public var allowsExpansionToolTips = true {
        didSet { expansion?.isEnabled = allowsExpansionToolTips }
    }
    /// The expansion tooltip, made the first time the pointer finds the text cut.
    var expansion: ToolTipInteraction?

    private var cachedLayout: (width: Double, fonts: Int, layout: TextLayout)?

    /// Creates a label.
    public init(_ text: String, font: Font = .body, color: Color = .label) {
        self.text = text
        self.font = font
        textColor = color
        super.init()
    }

    private func contentDidChange() {
        cachedLayout = nil
        invalidateIntrinsicSize()
        setNeedsDisplay()
    }

    /// The lines for a width (cached for the last width asked, and used for any width they
    /// serve: drawn at the width it measured, a label draws the lines it measured).
    func layout(forWidth width: Double) -> TextLayout? {
        if let cachedLayout, cachedLayout.fonts == fontGeneration,
            cachedLayout.width == width || cachedLayout.layout.serves(width: width, wrapping: wrapsText)
        {
            return cachedLayout.layout
        }
        guard let fonts = fontSet(font) else { return nil }
        let viewable = TextLayout.viewableLines(lineHeight: fonts.lineHeight)
        let layout = TextLayout(
            text: text, measurer: fonts, maxWidth: wrapsText ? width : nil,
            maxLines: wrapsText ? min(maxLines ?? viewable, viewable) : 1, truncationWidth: wrapsText ? nil : width)
        cachedLayout = (width, fontGeneration, layout)
        return layout
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        // A line that does not wrap asks for its whole width; it is cut where it is drawn.
        guard let layout = layout(forWidth: wrapsText ? proposal.width : .infinity) else { return .zero }
        let size = layout.size
        return Size(width: size.width.rounded(.up), height: size.height.rounded(.up))
    }

    open override func draw(in context: DrawContext) {
        guard let fonts = fontSet(font), let layout = layout(forWidth: bounds.width) else { return }
        context.draw(
            layout, font: fonts, color: textColor, origin: Point(x: 0, y: textTop(of: layout, in: bounds.height)),
            width: bounds.width, alignment: alignment)
    }

    /// Where the lines start, from the label's top: centred in its height.
    func textTop(of layout: TextLayout, in height: Double) -> Double {
        max(0, ((height - layout.size.height) / 2).rounded(.down))
    }

    /// Whether the text shown is cut with an ellipsis at the label's current size.
    public var isTruncated: Bool {
        guard bounds.width > 0 else { return false }
        return layout(forWidth: bounds.width)?.isTruncated ?? false
    }
}
