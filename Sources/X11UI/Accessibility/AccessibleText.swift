/// A view whose text AT-SPI2's Text interface offers: a text view (selectable, with a caret at
/// the selection's end), or read-only text that labels draw, never selected: a label, or the
/// tooltip (its content's labels, their texts joined by spaces as the tooltip's name is, for a
/// text tooltip the one label that draws it; once hidden, those of the tooltip shown last).
@MainActor
enum AccessibleText {
    case textView(TextView)
    /// Labels drawn in `view` (the label itself, or the tooltip's content), in reading order.
    case labels(View, [Label])

    init?(_ node: AccessibleNode) {
        switch node {
        case .view(let view as TextView): self = .textView(view)
        case .view(let label as Label): self = .labels(label, [label])
        case .toolTip(let application):
            // A tooltip has shown (so its window exists) and its content is still in it.
            guard application.accessibility?.lastToolTipText != nil,
                let content = application.toolTips.presenter.content
            else { return nil }
            self = .labels(content, ToolTipPresenter.textLabels(in: content))
        default: return nil
        }
    }

    var view: View {
        switch self {
        case .textView(let view): view
        case .labels(let view, _): view
        }
    }

    var text: String {
        switch self {
        case .textView(let view): view.text
        case .labels(_, let labels):
            labels.count == 1 ? labels[0].spokenText : labels.map(\.spokenText).joined(separator: " ")
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

    /// Selects a range (nil: none); false for labels, whose text is not selectable.
    func select(_ range: Range<String.Index>?) -> Bool {
        guard case .textView(let view) = self else { return false }
        view.select(range)
        return true
    }

    /// Each label with the scalar offset its text starts at in `text` and where it is in `view`.
    private func segments(_ container: View, _ labels: [Label]) -> [(label: Label, start: Int, origin: Point)] {
        let base = container.convertToWindow(Point.zero)
        var start = 0
        return labels.map { label in
            let inWindow = label.convertToWindow(Point.zero)
            // A tooltip's shortcut is spoken in parentheses: its text starts after the first.
            let affixes = label.spokenAffixes
            defer { start += (affixes.prefix + label.text + affixes.suffix).unicodeScalars.count + 1 }
            return (
                label, start + affixes.prefix.unicodeScalars.count,
                Point(x: inWindow.x - base.x, y: inWindow.y - base.y)
            )
        }
    }

    /// The rectangles covering a range of the text as drawn, in the view's coordinates.
    func rects(covering range: Range<String.Index>) -> [Rect] {
        switch self {
        case .textView(let view): return view.rects(covering: range)
        case .labels(let container, let labels):
            let scalars = text.unicodeScalars
            let lower = scalars.distance(from: scalars.startIndex, to: range.lowerBound)
            let upper = scalars.distance(from: scalars.startIndex, to: range.upperBound)
            return segments(container, labels).flatMap { label, start, origin -> [Rect] in
                let own = label.text.unicodeScalars
                let from = max(0, lower - start)
                let to = min(own.count, upper - start)
                // An empty range (a caret's place) belongs to the label it is in.
                guard from < to || (lower == upper && (start...(start + own.count)).contains(lower)),
                    let placed = label.placedLayout
                else { return [] }
                let covered = own.index(own.startIndex, offsetBy: from)..<own.index(own.startIndex, offsetBy: to)
                return placed.layout.rects(
                    covering: covered, measurer: placed.fonts, width: label.bounds.width, alignment: label.alignment
                ).map { $0.offsetBy(dx: origin.x, dy: origin.y + placed.top) }
            }
        }
    }

    /// The index of the text nearest to a point in the view.
    func index(at point: Point) -> String.Index {
        switch self {
        case .textView(let view): return view.index(at: point)
        case .labels(let container, let labels):
            let all = segments(container, labels)
            let text = self.text
            // The label the point is in, or the nearest one above or below it.
            func distance(_ segment: (label: Label, start: Int, origin: Point)) -> Double {
                let top = segment.origin.y
                let bottom = top + segment.label.bounds.height
                let left = segment.origin.x
                let right = left + segment.label.bounds.width
                return max(0, top - point.y, point.y - bottom) * 4 + max(0, left - point.x, point.x - right)
            }
            guard let (label, start, origin) = all.min(by: { distance($0) < distance($1) }),
                let placed = label.placedLayout
            else { return text.startIndex }
            let inLabel = placed.layout.position(
                at: Point(x: point.x - origin.x, y: point.y - origin.y - placed.top), measurer: placed.fonts,
                width: label.bounds.width, alignment: label.alignment
            ).index
            let offset = start + label.text.unicodeScalars.distance(from: label.text.startIndex, to: inLabel)
            return text.unicodeScalars.index(text.startIndex, offsetBy: min(offset, text.unicodeScalars.count))
        }
    }

    /// What the text is drawn with, for its text attributes.
    var style: AccessibilityBridge.TextStyle {
        let view = self.view
        // Named colours as they are drawn: in the application's appearance.
        let appearance = view.window?.application?.appearance ?? .light
        var background: Color?
        var ancestor: View? = view
        while let current = ancestor, background == nil {
            if let color = current.backgroundColor?.resolved(in: appearance), color.alpha > 0 { background = color }
            if let bubble = current as? ToolTipBubbleView { background = bubble.style.background }
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
        case .labels(let view, let labels):
            // The first label's: a tooltip's items may differ in weight, the rest is shared.
            guard let label = labels.first ?? (view as? Label) else {
                (font, color) = (.body, .label)
                break
            }
            (font, color, alignment, wraps) = (label.font, label.textColor, label.alignment, label.wrapsText)
        }
        return AccessibilityBridge.TextStyle(
            text: text, font: font, color: color.resolved(in: appearance),
            background: (background ?? .windowBackground).resolved(in: appearance),
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
