/// Where an expansion tooltip goes: over the cut text itself, so that the full line continues
/// where the cut one was (same font, same baseline, same start), the bubble's padding outside
/// the text; shifted onto the monitor when it would leave it. Pure geometry.
extension ToolTipLayout {
    /// The inputs of an expansion tooltip's placement, in pixels on the screen.
    package struct ExpansionRequest: Equatable {
        /// The body's size (content plus padding).
        package var body: Size
        /// The padding between the body's edge and its content.
        package var padding: EdgeInsets
        /// Extra room around the bubble inside the window (for a shadow).
        package var margins: EdgeInsets = .zero
        /// Where the cut text's first line starts, at its baseline (screen coordinates): its
        /// left end, or its right end for a right-to-left line.
        package var textAnchor: Point
        /// The same point of the full text, from the content's top-left corner.
        package var contentAnchor: Point
        /// The view whose text is cut (for choosing the monitor).
        package var source: Rect
        package var monitors: [Rect]
        /// The least room between the bubble and the monitor's edge.
        package var edgeMargin = 0.0

        /// Field for field (a memberwise initializer is at most internal; X11UI builds these).
        package init(
            body: Size, padding: EdgeInsets, margins: EdgeInsets = .zero, textAnchor: Point, contentAnchor: Point,
            source: Rect, monitors: [Rect], edgeMargin: Double = 0
        ) {
            self.body = body
            self.padding = padding
            self.margins = margins
            self.textAnchor = textAnchor
            self.contentAnchor = contentAnchor
            self.source = source
            self.monitors = monitors
            self.edgeMargin = edgeMargin
        }
    }

    /// Places an expansion tooltip: its content's anchor on the text's, then shifted onto the
    /// monitor (`edgeMargin` from its edges; a body larger than the monitor keeps its top-left
    /// corner on it). It has no arrow, and it lies under the pointer by design: it is the
    /// text the pointer rests on, made whole.
    package static func placeExpansion(_ request: ExpansionRequest) -> ToolTipGeometry {
        let monitor = chooseMonitor(request.monitors, source: request.source, pointer: nil)
        let anchor = request.textAnchor.isFinite ? request.textAnchor : monitor.center
        let content = request.contentAnchor.isFinite ? request.contentAnchor : .zero
        let margins = request.margins
        let body = request.body
        // Whole pixels: the text's baseline and start are whole in the label, and the content's
        // anchor holds the same fraction (the same font's ascent), so this rounds nothing away.
        var x = (anchor.x - content.x - request.padding.left).rounded()
        var y = (anchor.y - content.y - request.padding.top).rounded()
        x = clamp(
            x, low: monitor.minX + max(margins.left, request.edgeMargin),
            high: monitor.maxX - max(margins.right, request.edgeMargin) - body.width)
        y = clamp(
            y, low: monitor.minY + max(margins.top, request.edgeMargin),
            high: monitor.maxY - max(margins.bottom, request.edgeMargin) - body.height)
        let window = Rect(
            x: x - margins.left, y: y - margins.top, width: body.width + margins.horizontal,
            height: body.height + margins.vertical
        ).integral
        return ToolTipGeometry(
            edge: .bottom, windowFrame: window,
            body: Rect(x: x - window.minX, y: y - window.minY, width: body.width, height: body.height), arrow: nil,
            monitor: monitor)
    }
}
