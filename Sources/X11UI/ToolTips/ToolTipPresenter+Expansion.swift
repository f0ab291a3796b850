/// An expansion tooltip in the tooltip window: the full text in the cut text's font, wrapped
/// as the view wraps it (or at the monitor's width), with the view's own tooltip below it, and
/// placed so that the full text lies over the cut text.
extension ToolTipPresenter {
    /// The space between the full text and the view's own tooltip below it (at 96 dpi).
    static let expansionSpacing = 6.0

    /// Puts the expansion's content in the bubble, measures it and places it.
    func layOutExpansion(_ expansion: Expansion, request: Request, frame: Frame) -> (View, ToolTipGeometry) {
        let style = frame.style
        let scale = frame.scale
        let monitors = application.screen.monitors
        let monitor = ToolTipLayout.chooseMonitor(monitors, source: request.source, pointer: nil)
        let padding = frame.padding
        let edgeMargin = ToolTipLayout.monitorMargin * scale
        let roomWidth = max(16, monitor.width - padding.horizontal - frame.shadowMargin.horizontal - 2 * edgeMargin)
        let roomHeight = max(
            16,
            min(
                style.maxHeight * scale,
                monitor.height - padding.vertical - frame.shadowMargin.vertical - 2 * edgeMargin))
        // Alone, the full text is the reused label (whose paint the window remembers); with the
        // view's own tooltip, a label of its own in a stack.
        let label = request.ownContent == nil ? expansionLabel : Label("")
        label.preferredWidth = nil
        label.text = expansion.text.string
        label.font = expansion.font
        label.textColor = style.foreground
        label.alignment = .leading
        label.wrapsText = true
        let lineHeight = application.resources.fonts.fontSet(for: expansion.font).lineHeight
        label.maxLines = max(1, Int(roomHeight / max(1, lineHeight)))
        let wrap = min(expansion.wrapWidth ?? .infinity, roomWidth)
        var ownView: View?
        if let own = request.ownContent {
            if case .text(let string) = own {
                ownView = Label(string, font: style.font, color: style.foreground)
            } else {
                ownView = contentView(for: own, style: style)
            }
        }
        let content: View =
            ownView.map { own in
                VStack(spacing: Self.expansionSpacing, alignment: .start) {
                    label; own
                }
            } ?? label
        // In the window first: text is measured with the window's fonts.
        bubble.style = style
        bubble.drawsShadow = frame.composited
        bubble.setContent(content)
        if let host = hostWindow, host.content !== bubble { host.content = bubble }
        let fitted = label.fittingSize(for: Size(width: wrap, height: roomHeight))
        let labelSize = Size(
            width: min(fitted.width, wrap).rounded(.up), height: min(fitted.height, roomHeight).rounded(.up))
        var contentSize = labelSize
        if let ownView {
            let ownLimit = Size(width: min(style.maxWidth * scale, roomWidth), height: roomHeight)
            let ownSize = ownView.fittingSize(for: ownLimit)
            // Each part keeps the width it measured: the full text wraps as the view wraps it.
            label.preferredWidth = labelSize.width / scale
            ownView.preferredWidth = min(ownSize.width, ownLimit.width).rounded(.up) / scale
            let size = content.fittingSize(for: Size(width: .infinity, height: .infinity))
            contentSize = Size(width: size.width.rounded(.up), height: min(size.height, roomHeight * 2).rounded(.up))
        }
        let anchor = label.firstLineAnchor(in: labelSize)?.point ?? .zero
        let geometry = ToolTipLayout.placeExpansion(
            ToolTipLayout.ExpansionRequest(
                body: Size(
                    width: contentSize.width + padding.horizontal, height: contentSize.height + padding.vertical),
                padding: padding, margins: frame.shadowMargin, textAnchor: expansion.anchor, contentAnchor: anchor,
                source: request.source, monitors: monitors, edgeMargin: edgeMargin))
        return (content, geometry)
    }
}
