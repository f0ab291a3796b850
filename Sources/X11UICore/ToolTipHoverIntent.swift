/// Hover intent: whether a pointer that left a tooltip's source (or the tooltip) is heading for
/// the other one. Pure geometry, in screen coordinates.
///
/// The safe region is the convex hull of the exit point, pulled a few pixels back into the rect
/// the pointer left, and the four corners of the rect it may be heading for: the triangle-like
/// area Floating UI calls `safePolygon` and Radix the grace area. A pointer that leaves away
/// from the tooltip is outside it at once; one that crosses toward it stays inside all the way.
package enum ToolTipHoverIntent {
    /// How far the exit point is pulled back into the rect it left, on each side of the exit,
    /// so that the region has some width at the pointer's end.
    package static let exitPadding = 5.0

    /// The safe region for a pointer that left `from` at `exit`, heading for `to`; nil when the
    /// geometry is not finite.
    package static func safeRegion(exit: Point, from: Rect, to: Rect, padding: Double = exitPadding) -> [Point]? {
        guard exit.isFinite, from.isFinite, to.isFinite, padding.isFinite else { return nil }
        var points = paddedExitPoints(exit, side: exitSide(exit, of: from), padding: padding)
        points += [
            Point(x: to.minX, y: to.minY), Point(x: to.maxX, y: to.minY), Point(x: to.maxX, y: to.maxY),
            Point(x: to.minX, y: to.maxY),
        ]
        return convexHull(points)
    }

    /// The side of `rect` nearest to `point`: the one the pointer crossed to leave.
    package static func exitSide(_ point: Point, of rect: Rect) -> ToolTipPlacement.Edge {
        let distances: [(ToolTipPlacement.Edge, Double)] = [
            (.top, abs(point.y - rect.minY)), (.bottom, abs(point.y - rect.maxY)),
            (.leading, abs(point.x - rect.minX)), (.trailing, abs(point.x - rect.maxX)),
        ]
        return distances.min { $0.1 < $1.1 }!.0
    }

    /// Two points beside the exit, `padding` back inside the rect that was left.
    private static func paddedExitPoints(_ p: Point, side: ToolTipPlacement.Edge, padding: Double) -> [Point] {
        switch side {
        case .top: return [Point(x: p.x - padding, y: p.y + padding), Point(x: p.x + padding, y: p.y + padding)]
        case .bottom: return [Point(x: p.x - padding, y: p.y - padding), Point(x: p.x + padding, y: p.y - padding)]
        case .leading: return [Point(x: p.x + padding, y: p.y - padding), Point(x: p.x + padding, y: p.y + padding)]
        case .trailing: return [Point(x: p.x - padding, y: p.y - padding), Point(x: p.x - padding, y: p.y + padding)]
        }
    }

    /// The convex hull, counter-clockwise (Andrew's monotone chain).
    package static func convexHull(_ points: [Point]) -> [Point] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        guard sorted.count > 2 else { return sorted }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [Point] = []
        for p in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        var upper: [Point] = []
        for p in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// Whether `point` lies in the convex polygon (its border included).
    package static func contains(_ polygon: [Point], _ point: Point) -> Bool {
        guard polygon.count >= 3, point.isFinite else { return false }
        var sign = 0.0
        for i in polygon.indices {
            let a = polygon[i]
            let b = polygon[(i + 1) % polygon.count]
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if cross == 0 { continue }
            if sign == 0 {
                sign = cross
            } else if (sign > 0) != (cross > 0) {
                return false
            }
        }
        return true
    }
}
