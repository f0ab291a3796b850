/// A view whose text AT-SPI2's Text interface offers: a text view (selectable, with a caret at
/// the selection's end) or a label (read-only, never selected).
@MainActor
enum AccessibleText {
    case textView(TextView)
    case label(Label)

    init?(_ node: AccessibleNode) {
        switch node {
        case .view(let view as TextView): self = .textView(view)
        case .view(let view as Label): self = .label(view)
        default: return nil
        }
    }

    var view: View {
        switch self {
        case .textView(let view): view
        case .label(let label): label
        }
    }

    var text: String {
        switch self {
        case .textView(let view): view.text
        case .label(let label): label.text
        }
    }

    var caretOffset: Int {
        if case .textView(let view) = self { return view.caretOffset }
        return 0
    }

    var selectionOffsets: Range<Int>? {
        if case .textView(let view) = self { return view.selectionOffsets }
        return nil
    }

    /// Selects a range (nil: none); false for a label, whose text is not selectable.
    func select(_ range: Range<String.Index>?) -> Bool {
        guard case .textView(let view) = self else { return false }
        view.select(range)
        return true
    }

    /// The rectangles covering a range of the text as drawn, in the view's coordinates.
    func rects(covering range: Range<String.Index>) -> [Rect] {
        switch self {
        case .textView(let view): return view.rects(covering: range)
        case .label(let label):
            guard let placed = label.placedLayout else { return [] }
            return placed.layout.rects(
                covering: range, measurer: placed.fonts, width: label.bounds.width, alignment: label.alignment
            ).map { $0.offsetBy(dx: 0, dy: placed.top) }
        }
    }

    /// The index of the text nearest to a point in the view.
    func index(at point: Point) -> String.Index {
        switch self {
        case .textView(let view): return view.index(at: point)
        case .label(let label):
            guard let placed = label.placedLayout else { return label.text.startIndex }
            return placed.layout.position(
                at: Point(x: point.x, y: point.y - placed.top), measurer: placed.fonts, width: label.bounds.width,
                alignment: label.alignment
            ).index
        }
    }

    /// What the text is drawn with, for its text attributes.
    var style: AccessibilityBridge.TextStyle {
        let view = self.view
        var background: Color?
        var ancestor: View? = view
        while let current = ancestor, background == nil {
            if let color = current.backgroundColor, color.alpha > 0 { background = color }
            ancestor = current.superview
        }
        let font: Font
        let color: Color
        var alignment = TextAlignment.leading
        var wraps = true
        var margin = 0.0
        switch self {
        case .textView(let textView):
            (font, color, margin) = (textView.font, textView.textColor, textView.padding)
        case .label(let label):
            (font, color, alignment, wraps) = (label.font, label.textColor, label.alignment, label.wrapsText)
        }
        return AccessibilityBridge.TextStyle(
            text: text, font: font, color: color, background: background ?? .windowBackground,
            alignment: alignment, wraps: wraps, margin: margin, resolvedFamily: view.fontSet(font)?.primaryFamilyName)
    }
}

extension Label {
    /// The label's lines as drawn: centred vertically, `top` down from the label's top.
    fileprivate var placedLayout: (layout: TextLayout, fonts: FontSet, top: Double)? {
        guard let fonts = fontSet(font), let layout = layout(forWidth: bounds.width) else { return nil }
        return (layout, fonts, max(0, ((bounds.height - layout.size.height) / 2).rounded(.down)))
    }
}
