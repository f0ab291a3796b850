/// What a tooltip shows: its content as views, in the tooltip's style.
extension ToolTipPresenter {
    /// The view that shows `content` in the style: the text's label (with the source's
    /// shortcut beside it), an item row, or the caller's view.
    func contentView(
        for content: ToolTipConfiguration.Content, style: ToolTipStyle, shortcut: String? = nil
    ) -> View {
        switch content {
        case .text(let string):
            textLabel.text = string
            textLabel.font = style.font
            textLabel.textColor = style.foreground
            guard let shortcut else { return textLabel }
            shortcutContent.show(textLabel, shortcut: shortcut, font: style.font, color: style.secondaryForeground)
            return shortcutContent
        case .items(let items):
            let row = HStack(spacing: 12) {
                for item in items {
                    HStack(spacing: 4) {
                        if let icon = item.icon {
                            ImageView(icon, size: Size(width: 16, height: 16), tint: style.foreground)
                        }
                        Label(item.title, font: style.font.withWeight(.semibold), color: style.foreground)
                    }
                }
            }
            return row
        case .view(let build):
            let view = build()
            applyStyle(style, to: view)
            return view
        }
    }

    /// Rich content takes the tooltip's font and colour, not the source's: labels that still
    /// have the toolkit defaults get the style's.
    private func applyStyle(_ style: ToolTipStyle, to view: View) {
        if let label = view as? Label {
            if label.font == .body { label.font = style.font }
            if label.textColor == .label { label.textColor = style.foreground }
        }
        for subview in view.subviews { applyStyle(style, to: subview) }
    }
}
