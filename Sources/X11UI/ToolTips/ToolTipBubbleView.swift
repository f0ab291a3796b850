/// The tooltip's bubble: a rounded body with an arrow towards the source, a 1 px border and,
/// under a compositor, a soft shadow. The content sits inside the body's padding.
@MainActor
final class ToolTipBubbleView: View {
    var geometry: ToolTipGeometry?
    var style = ToolTipStyle.standard
    var drawsShadow = false
    /// The content (a label, an item row, or the caller's view).
    private(set) var content: View?

    func setContent(_ view: View) {
        guard view !== content else { return }
        // Unless the old content went into the new one (the text into a shortcut's content).
        if content?.superview === self { content?.removeFromSuperview() }
        content = view
        addSubview(view)
    }

    /// The body and arrow as one outline, inset by `inset` (half a pixel puts a 1 px border on
    /// whole pixels).
    static func outline(of geometry: ToolTipGeometry, radius: Double, inset: Double) -> Path {
        let body = geometry.body.insetBy(dx: inset, dy: inset)
        let r = max(0, min(radius, body.width / 2, body.height / 2))
        let halfPi = Double.pi / 2
        var path = Path()
        // The arrow's base points, in the order the outline passes them (clockwise).
        func arrow(on edge: ToolTipPlacement.Edge) {
            guard let arrow = geometry.arrow, geometry.edge == edge else { return }
            let points = [arrow.base1, arrow.base2]
            let ordered: [Point]
            switch edge {
            case .bottom: ordered = points.sorted { $0.x < $1.x }  // body's top side, left to right
            case .leading: ordered = points.sorted { $0.y < $1.y }  // right side, downwards
            case .top: ordered = points.sorted { $0.x > $1.x }  // bottom side, right to left
            case .trailing: ordered = points.sorted { $0.y > $1.y }  // left side, upwards
            }
            func onBody(_ p: Point) -> Point {
                Point(x: min(max(p.x, body.minX), body.maxX), y: min(max(p.y, body.minY), body.maxY))
            }
            path.line(to: onBody(ordered[0]))
            path.line(to: arrow.tip)
            path.line(to: onBody(ordered[1]))
        }
        path.move(to: Point(x: body.minX + r, y: body.minY))
        arrow(on: .bottom)
        path.arc(center: Point(x: body.maxX - r, y: body.minY + r), radius: r, from: -halfPi, to: 0)
        arrow(on: .leading)
        path.arc(center: Point(x: body.maxX - r, y: body.maxY - r), radius: r, from: 0, to: halfPi)
        arrow(on: .top)
        path.arc(center: Point(x: body.minX + r, y: body.maxY - r), radius: r, from: halfPi, to: .pi)
        arrow(on: .trailing)
        path.arc(center: Point(x: body.minX + r, y: body.minY + r), radius: r, from: .pi, to: 3 * halfPi)
        path.close()
        return path
    }

    override func draw(in context: DrawContext) {
        guard let geometry else { return }
        let radius = style.cornerRadius * context.scale
        let outline = Self.outline(of: geometry, radius: radius, inset: 0.5)
        if drawsShadow, let shadow = style.shadow {
            context.shadow(
                outline, color: shadow.color, radius: shadow.radius * context.scale,
                offset: Point(x: shadow.offset.x * context.scale, y: shadow.offset.y * context.scale))
        }
        let background = drawsShadow ? style.background : style.background.withAlpha(1)
        context.fill(outline, color: background)
        context.stroke(outline, color: style.border, lineWidth: 1)
    }

    override func layoutSubviews() {
        guard let geometry, let content else { return }
        let padding = style.padding.scaled(by: scale)
        content.frame = geometry.body.inset(by: padding)
    }

    /// Whether the content's views take pointer events (a click tooltip's do); otherwise the
    /// bubble is one surface that no view under it can be hit through.
    var contentTakesEvents = false

    override func hitTest(_ point: Point) -> View? {
        guard contentTakesEvents, let content, !content.isHidden else { return nil }
        return content.hitTest(Point(x: point.x - content.frame.minX, y: point.y - content.frame.minY))
    }
}
