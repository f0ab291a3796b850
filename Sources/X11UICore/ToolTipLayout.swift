/// Where a tooltip window goes and how its bubble is drawn inside it.
package struct ToolTipGeometry: Equatable {
    /// The side actually used (the preferred one or, after a flip, its opposite).
    package var edge: ToolTipPlacement.Edge
    /// The window's frame on the screen (bubble, arrow and margins).
    package var windowFrame: Rect
    /// The bubble's body in window coordinates.
    package var body: Rect
    /// The arrow's tip and the two ends of its base, in window coordinates; nil when there is
    /// no arrow (the tooltip moved off the source to stay clear of the pointer).
    package var arrow: (tip: Point, base1: Point, base2: Point)?
    /// The monitor the tooltip lies on.
    package var monitor: Rect

    /// The bubble and arrow on the screen (the window minus its margins).
    package var visualFrame: Rect {
        var visual = body
        if let arrow {
            for p in [arrow.tip, arrow.base1, arrow.base2] {
                visual = visual.union(Rect(x: p.x, y: p.y, width: 0.001, height: 0.001))
            }
        }
        return visual.offsetBy(dx: windowFrame.minX, dy: windowFrame.minY)
    }

    package static func == (a: ToolTipGeometry, b: ToolTipGeometry) -> Bool {
        a.edge == b.edge && a.windowFrame == b.windowFrame && a.body == b.body && a.monitor == b.monitor
            && a.arrow?.tip == b.arrow?.tip && a.arrow?.base1 == b.arrow?.base1 && a.arrow?.base2 == b.arrow?.base2
    }
}

/// The placement function: pure geometry, tested over a table of cases.
package enum ToolTipLayout {
    /// The inputs of a placement, all in pixels on the screen.
    package struct Request {
        /// The body's size (content plus padding).
        package var body: Size
        /// Arrow width along the edge and length away from it; zero for none.
        package var arrow: Size
        /// Extra room around the bubble inside the window (for a shadow).
        package var margins: EdgeInsets = .zero
        /// Corner radius of the body (the arrow stays off the corners).
        package var cornerRadius: Double = 0
        /// The source rectangle.
        package var source: Rect
        package var placement: ToolTipPlacement
        /// The gap, already scaled.
        package var gap: Double
        package var monitors: [Rect]
        /// The pointer, which the tooltip must never cover; nil for keyboard tooltips.
        package var pointer: Point?
        /// The whole source view, when the source is a region of it: a side that covers none of
        /// the view beyond the region wins (any of the four, the preferred first), else of the
        /// preferred and opposite sides the one covering less, so the pointer can move on to the
        /// view's other regions without landing on the tooltip.
        package var avoid: Rect?
        /// Whether the tooltip lines up with the pointer instead of the source along its edge
        /// (a hover tooltip whose placement's anchor is `.pointer`).
        package var followsPointer = false
        /// The least room between a tooltip shifted along its edge and the monitor's edge.
        package var edgeMargin = 0.0
        /// The side a tooltip that follows the pointer is on already: kept while it fits and
        /// leaves the pointer clear, so that it flips once and not back and forth as the
        /// pointer moves about where the two sides meet.
        package var keepsEdge: ToolTipPlacement.Edge?
        /// The cursor shown at `pointer`, whose visible pixels the tooltip keeps clear of.
        package var cursor: CursorInk = .standard

        /// Field for field (a memberwise initializer is at most internal; X11UI builds these).
        package init(
            body: Size, arrow: Size, margins: EdgeInsets = .zero, cornerRadius: Double = 0, source: Rect,
            placement: ToolTipPlacement, gap: Double, monitors: [Rect], pointer: Point? = nil, avoid: Rect? = nil,
            followsPointer: Bool = false, edgeMargin: Double = 0, keepsEdge: ToolTipPlacement.Edge? = nil,
            cursor: CursorInk = .standard
        ) {
            self.body = body
            self.arrow = arrow
            self.margins = margins
            self.cornerRadius = cornerRadius
            self.source = source
            self.placement = placement
            self.gap = gap
            self.monitors = monitors
            self.pointer = pointer
            self.avoid = avoid
            self.followsPointer = followsPointer
            self.edgeMargin = edgeMargin
            self.keepsEdge = keepsEdge
            self.cursor = cursor
        }
    }

    /// The least room (at 96 dpi) between a tooltip and the monitor's edge.
    package static let monitorMargin = 4.0
    /// A source more than this many times taller (for the top and bottom edges) or wider (for
    /// the leading and trailing ones) than the tooltip needs gets a pointer-anchored tooltip
    /// next to the pointer, not beyond the source's far side.
    package static let largeSourceRatio = 3.0

    /// Places a tooltip: the preferred edge if it fits, else the opposite edge if that fits
    /// better, then shifted along the edge to stay on the monitor; if neither side of the source
    /// has room, next to the pointer instead.
    package static func place(_ request: Request) -> ToolTipGeometry {
        let pointer = request.pointer.flatMap { $0.isFinite ? $0 : nil }
        let monitor = chooseMonitor(request.monitors, source: request.source, pointer: pointer)
        let source = sanitized(request.source, within: monitor)
        let ink = pointer.map { request.cursor.onScreen(at: $0) }
        /// What the tooltip lines up with on each edge: the source, or the pointer on it;
        /// pushed past the cursor's ink where the ink reaches beyond it on that side.
        func anchor(_ edge: ToolTipPlacement.Edge) -> Rect {
            guard let pointer, let ink else { return source }
            let base =
                request.followsPointer ? pointerAnchor(request, source: source, pointer: pointer, edge: edge) : source
            return clearing(ink, from: base, request: request, edge: edge)
        }
        func acceptable(_ g: ToolTipGeometry) -> Bool {
            fits(request, source: anchor(g.edge), monitor: monitor, edge: g.edge) && !covers(g, ink)
        }
        if let kept = request.keepsEdge, kept == request.placement.edge || kept == request.placement.edge.opposite,
            fits(request, source: anchor(kept), monitor: monitor, edge: kept)
        {
            let g = layOut(request, source: anchor(kept), monitor: monitor, edge: kept, hasArrow: true)
            if acceptable(g) { return g }
        }
        let first = placeOnBestEdge(request, anchor: anchor, monitor: monitor, pointer: pointer)
        guard let pointer, !acceptable(first) else { return first }
        // The best side covers the pointer (or does not fit, and would): another side of the
        // source may not, the opposite first, then those across the other axis.
        let preferred = request.placement.edge
        for edge in [preferred.opposite] + across(preferred)
        where fits(request, source: anchor(edge), monitor: monitor, edge: edge) {
            let g = layOut(request, source: anchor(edge), monitor: monitor, edge: edge, hasArrow: true)
            if acceptable(g) { return g }
        }
        // No side of the source will do (a huge source, a tiny screen): keep clear of the
        // cursor instead, on whichever side of it has room.
        let box = request.cursor.onScreen(at: pointer)
        for edge in [preferred, preferred.opposite] + across(preferred)
        where fits(request, source: box, monitor: monitor, edge: edge) {
            let g = layOut(request, source: box, monitor: monitor, edge: edge, hasArrow: false)
            if !covers(g, box) { return g }
        }
        return placeOnBestEdge(request, anchor: { _ in box }, monitor: monitor, pointer: nil, hasArrow: false)
    }

    /// The two edges across the axis of `edge`.
    private static func across(_ edge: ToolTipPlacement.Edge) -> [ToolTipPlacement.Edge] {
        edge.isVertical ? [.trailing, .leading] : [.bottom, .top]
    }

    /// The slice of the source a pointer-anchored tooltip lines up with on `edge`: the line
    /// through the pointer (kept on the source) along the edge; across it the whole source, or,
    /// for a source much larger than the tooltip that way, the cursor next to the pointer.
    private static func pointerAnchor(
        _ request: Request, source: Rect, pointer: Point, edge: ToolTipPlacement.Edge
    ) -> Rect {
        let large = largeSourceRatio * (needed(request, edge: edge) + request.gap)
        let cursor = request.cursor.onScreen(at: pointer)
        if edge.isVertical {
            let x = clamp(pointer.x, low: source.minX, high: source.maxX)
            if source.height > large, source.contains(pointer) {
                return Rect(x: x, y: cursor.minY, width: 0, height: cursor.height)
            }
            return Rect(x: x, y: source.minY, width: 0, height: source.height)
        }
        let y = clamp(pointer.y, low: source.minY, high: source.maxY)
        if source.width > large, source.contains(pointer) {
            return Rect(x: cursor.minX, y: y, width: cursor.width, height: 0)
        }
        return Rect(x: source.minX, y: y, width: source.width, height: 0)
    }

    /// The monitor with the largest overlap with the source; without overlap, the one holding
    /// the pointer, else the nearest to the source.
    package static func chooseMonitor(_ monitors: [Rect], source: Rect, pointer: Point?) -> Rect {
        let valid = monitors.filter { $0.isFinite && !$0.isEmpty }
        guard !valid.isEmpty else { return Rect(x: 0, y: 0, width: 640, height: 480) }
        func area(_ r: Rect) -> Double { r.isEmpty ? 0 : r.width * r.height }
        let best = valid.max { area($0.intersection(source)) < area($1.intersection(source)) }!
        if area(best.intersection(source)) > 0 { return best }
        if let pointer, let holding = valid.first(where: { $0.contains(pointer) }) { return holding }
        let center = source.isFinite ? source.center : .zero
        func distance(_ r: Rect) -> Double {
            let dx = max(r.minX - center.x, 0, center.x - r.maxX)
            let dy = max(r.minY - center.y, 0, center.y - r.maxY)
            return dx * dx + dy * dy
        }
        return valid.min { distance($0) < distance($1) }!
    }

    /// A source that is not a finite, non-negative rectangle becomes the monitor's centre point.
    private static func sanitized(_ source: Rect, within monitor: Rect) -> Rect {
        guard source.isFinite, source.width >= 0, source.height >= 0 else {
            return Rect(origin: monitor.center, size: .zero)
        }
        return source
    }

    private static func placeOnBestEdge(
        _ request: Request, anchor: (ToolTipPlacement.Edge) -> Rect, monitor: Rect, pointer: Point?,
        hasArrow: Bool = true
    ) -> ToolTipGeometry {
        let preferred = request.placement.edge
        let opposite = preferred.opposite
        let preferredFits = fits(request, source: anchor(preferred), monitor: monitor, edge: preferred)
        let oppositeFits = fits(request, source: anchor(opposite), monitor: monitor, edge: opposite)
        if hasArrow, let avoid = request.avoid {
            func covered(_ g: ToolTipGeometry) -> Double {
                let overlap = g.visualFrame.intersection(avoid)
                return overlap.isEmpty ? 0 : overlap.width * overlap.height
            }
            // A side that leaves the rest of the view usable, the preferred one first.
            for edge in [preferred, opposite] + across(preferred)
            where fits(request, source: anchor(edge), monitor: monitor, edge: edge) {
                let g = layOut(request, source: anchor(edge), monitor: monitor, edge: edge, hasArrow: true)
                if covered(g) == 0, !covers(g, pointer.map { request.cursor.onScreen(at: $0) }) { return g }
            }
            if preferredFits, oppositeFits {
                let a = layOut(request, source: anchor(preferred), monitor: monitor, edge: preferred, hasArrow: true)
                let b = layOut(request, source: anchor(opposite), monitor: monitor, edge: opposite, hasArrow: true)
                return covered(b) < covered(a) ? b : a
            }
        }
        let edge: ToolTipPlacement.Edge
        if preferredFits {
            edge = preferred
        } else if oppositeFits {
            edge = opposite
        } else {
            // Neither fits: the side with more room, the preferred one on a tie.
            let a = space(request, source: anchor(preferred), monitor: monitor, edge: preferred)
            let b = space(request, source: anchor(opposite), monitor: monitor, edge: opposite)
            edge = b > a ? opposite : preferred
        }
        return layOut(request, source: anchor(edge), monitor: monitor, edge: edge, hasArrow: hasArrow)
    }

    // MARK: - Canonical frame: the tooltip below the source

    /// Maps between screen coordinates and a frame in which the tooltip always goes below
    /// the source (y grows away from the source, x runs along the edge from its start).
    struct Frame {
        let edge: ToolTipPlacement.Edge

        package func point(_ p: Point) -> Point {
            switch edge {
            case .bottom: return p
            case .top: return Point(x: p.x, y: -p.y)
            case .trailing: return Point(x: p.y, y: p.x)
            case .leading: return Point(x: p.y, y: -p.x)
            }
        }

        package func unpoint(_ p: Point) -> Point {
            switch edge {
            case .bottom: return p
            case .top: return Point(x: p.x, y: -p.y)
            case .trailing: return Point(x: p.y, y: p.x)
            case .leading: return Point(x: -p.y, y: p.x)
            }
        }

        private func normalized(_ a: Point, _ b: Point) -> Rect {
            let x0 = min(a.x, b.x)
            let y0 = min(a.y, b.y)
            return Rect(x: x0, y: y0, width: abs(a.x - b.x), height: abs(a.y - b.y))
        }

        package func rect(_ r: Rect) -> Rect {
            normalized(point(r.origin), point(Point(x: r.maxX, y: r.maxY)))
        }

        package func unrect(_ r: Rect) -> Rect {
            normalized(unpoint(r.origin), unpoint(Point(x: r.maxX, y: r.maxY)))
        }

        package func size(_ s: Size) -> Size { edge.isVertical ? s : Size(width: s.height, height: s.width) }

        /// Margins as (near the source, far from it, at the start, at the end).
        package func margins(_ m: EdgeInsets) -> (near: Double, far: Double, start: Double, end: Double) {
            switch edge {
            case .bottom: return (m.top, m.bottom, m.left, m.right)
            case .top: return (m.bottom, m.top, m.left, m.right)
            case .trailing: return (m.left, m.right, m.top, m.bottom)
            case .leading: return (m.right, m.left, m.top, m.bottom)
            }
        }
    }

    /// Room between the source (plus gap) and the monitor's edge on that side.
    private static func space(_ request: Request, source: Rect, monitor: Rect, edge: ToolTipPlacement.Edge) -> Double {
        let frame = Frame(edge: edge)
        return frame.rect(monitor).maxY - (frame.rect(source).maxY + request.gap)
    }

    private static func needed(_ request: Request, edge: ToolTipPlacement.Edge) -> Double {
        let frame = Frame(edge: edge)
        return request.arrow.height + frame.size(request.body).height + frame.margins(request.margins).far
    }

    private static func fits(_ request: Request, source: Rect, monitor: Rect, edge: ToolTipPlacement.Edge) -> Bool {
        space(request, source: source, monitor: monitor, edge: edge) >= needed(request, edge: edge)
    }

    private static func layOut(
        _ request: Request, source screenSource: Rect, monitor screenMonitor: Rect, edge: ToolTipPlacement.Edge,
        hasArrow: Bool
    ) -> ToolTipGeometry {
        let frame = Frame(edge: edge)
        let source = frame.rect(screenSource)
        let monitor = frame.rect(screenMonitor)
        let body = frame.size(request.body)
        let margins = frame.margins(request.margins)
        // An arrow never wider than the straight part of the body's side.
        let arrowWidth = hasArrow ? min(request.arrow.width, max(0, body.width - 2 * request.cornerRadius)) : 0
        let arrowLength = arrowWidth > 0 ? request.arrow.height : 0

        // Along the edge: aligned, then shifted onto the monitor.
        var x: Double
        switch request.placement.alignment {
        case .start: x = source.minX
        case .center: x = source.midX - body.width / 2
        case .end: x = source.maxX - body.width
        }
        x = clamp(
            x, low: monitor.minX + max(margins.start, request.edgeMargin),
            high: monitor.maxX - max(margins.end, request.edgeMargin) - body.width)
        // Away from the source; pulled back onto the monitor when there is no room.
        var tipY = source.maxY + request.gap
        let bottom = tipY + arrowLength + body.height + margins.far
        if bottom > monitor.maxY { tipY -= bottom - monitor.maxY }
        if tipY - margins.near < monitor.minY { tipY = monitor.minY + margins.near }
        let bodyRect = Rect(x: x, y: tipY + arrowLength, width: body.width, height: body.height)

        // The arrow points at the middle of the part of the source the body spans, kept off
        // the rounded corners.
        var arrow: (Point, Point, Point)?
        if hasArrow, arrowWidth > 0, arrowLength > 0 {
            let inset = request.cornerRadius + arrowWidth / 2
            let low = bodyRect.minX + inset
            let high = bodyRect.maxX - inset
            let overlapLow = max(source.minX, bodyRect.minX)
            let overlapHigh = min(source.maxX, bodyRect.maxX)
            let target = overlapLow <= overlapHigh ? (overlapLow + overlapHigh) / 2 : source.midX
            let tipX = low <= high ? clamp(target, low: low, high: high) : bodyRect.midX
            arrow = (
                Point(x: tipX, y: tipY), Point(x: tipX - arrowWidth / 2, y: bodyRect.minY),
                Point(x: tipX + arrowWidth / 2, y: bodyRect.minY)
            )
        }
        let window = Rect(
            x: bodyRect.minX - margins.start, y: tipY - margins.near,
            width: body.width + margins.start + margins.end,
            height: arrowLength + body.height + margins.near + margins.far)

        // Back to screen coordinates, then to the window's.
        let screenWindow = frame.unrect(window).integral
        func local(_ p: Point) -> Point {
            let s = frame.unpoint(p)
            return Point(x: s.x - screenWindow.minX, y: s.y - screenWindow.minY)
        }
        let screenBody = frame.unrect(bodyRect)
        return ToolTipGeometry(
            edge: edge, windowFrame: screenWindow,
            body: screenBody.offsetBy(dx: -screenWindow.minX, dy: -screenWindow.minY),
            arrow: arrow.map { (local($0.0), local($0.1), local($0.2)) }, monitor: screenMonitor)
    }

    package static func clamp(_ value: Double, low: Double, high: Double) -> Double {
        guard low <= high else { return low }
        return min(max(value, low), high)
    }
}
