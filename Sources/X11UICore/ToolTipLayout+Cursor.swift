/// The cursor's part in a placement: a tooltip never lies under the cursor the user sees, at
/// any cursor size, whatever it is anchored to.
///
/// GTK 3 pads the widget's rectangle by `max(4, cursor size - 32)` on every side, a guess at
/// where a theme's arrow ends. Here the cursor's real ink (its visible pixels around the hot
/// spot) pushes the tooltip's anchor past it on the side the tooltip goes, and only where the
/// ink reaches beyond the source there: a small cursor inside a tall button changes nothing, a
/// 96 pixel arrow hanging below a label moves the tooltip below the arrow's tail, the gap the
/// tooltip keeps from its source kept from the tail too (GTK 3 leaves 5 to 14 pixels there).
extension ToolTipLayout {
    /// `anchor`, pushed out on `edge`'s side so that the tooltip starts the gap past where `ink`
    /// ends, when the ink starts on the anchor and reaches beyond it, where a tooltip on that
    /// edge could lie (along the edge as far as a body's length either way): the ink counts as
    /// part of the source.
    package static func clearing(_ ink: Rect, from anchor: Rect, request: Request, edge: ToolTipPlacement.Edge) -> Rect
    {
        guard ink.isFinite, !ink.isEmpty else { return anchor }
        let frame = Frame(edge: edge)
        var a = frame.rect(anchor)
        let k = frame.rect(ink)
        let along =
            frame.size(request.body).width + frame.margins(request.margins).start
            + frame.margins(request.margins).end
        // A tooltip touching the cursor's tail reads as under it: the ink keeps the source's gap.
        // A cursor beyond the anchor (the pointer off the source on that side) is not pushed
        // past: the tooltip takes another side.
        guard k.maxY > a.maxY, k.minY < a.maxY, k.maxX > a.minX - along, k.minX < a.maxX + along
        else { return anchor }
        a.size.height = k.maxY - a.minY
        return frame.unrect(a)
    }

    /// Whether the tooltip's bubble lies on any part of `ink` (nil: no pointer, nothing to
    /// cover).
    package static func covers(_ geometry: ToolTipGeometry, _ ink: Rect?) -> Bool {
        guard let ink, ink.isFinite else { return false }
        let overlap = geometry.visualFrame.intersection(ink)
        return !overlap.isEmpty
    }

    /// The tallest a tooltip's body may be on `monitor`: half of what is left beside the cursor
    /// (at least its standard size), so that it fits on one side of the pointer or the other.
    package static func maxBodyHeight(on monitor: Rect, cursor: CursorInk) -> Double {
        (monitor.height - 2 * max(16, cursor.box.height)) / 2
    }
}
