/// What a tooltip says, as text: its window's name and its accessible name.
extension ToolTipPresenter {
    /// The text of every label in a view tree, in order: the tooltip's accessible name. The
    /// titles of buttons in it are actions, not part of what the tooltip says.
    static func plainText(of view: View) -> String {
        textLabels(in: view).map(\.spokenText).joined(separator: " ")
    }

    /// The labels whose text the plain text is, in order.
    static func textLabels(in view: View) -> [Label] {
        var labels: [Label] = []
        func visit(_ v: View) {
            guard !v.isHidden, !(v is Button) else { return }
            if let label = v as? Label, !label.text.isEmpty { labels.append(label) }
            for subview in v.subviews { visit(subview) }
        }
        visit(view)
        return labels
    }
}
