/// A shape outline made of lines and circular arcs, for custom drawing.
///
/// ```swift
/// var path = Path()
/// path.addRoundedRect(Rect(x: 0, y: 0, width: 80, height: 24), radius: 6)
/// context.fill(path, color: .blue)
/// ```
public struct Path: Hashable, Sendable {
    /// One drawing instruction.
    public enum Element: Hashable, Sendable {
        /// Starts a new subpath at a point.
        case move(Point)
        /// A straight line to a point.
        case line(Point)
        /// A circular arc around `center` from `startAngle` to `endAngle` (radians, clockwise in
        /// screen coordinates, where y grows downwards).
        case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double)
        /// Closes the current subpath with a line to its start.
        case close
    }

    /// The instructions, in order.
    public private(set) var elements: [Element] = []

    /// Creates an empty path.
    public init() {}

    /// Starts a new subpath at `point`.
    public mutating func move(to point: Point) { elements.append(.move(point)) }

    /// Adds a straight line to `point`.
    public mutating func line(to point: Point) { elements.append(.line(point)) }

    /// Adds a circular arc (clockwise on screen).
    public mutating func arc(center: Point, radius: Double, from startAngle: Double, to endAngle: Double) {
        elements.append(.arc(center: center, radius: max(0, radius), startAngle: startAngle, endAngle: endAngle))
    }

    /// Closes the current subpath.
    public mutating func close() { elements.append(.close) }

    /// Adds a rectangle with rounded corners; the radius is limited to half the shorter side.
    public mutating func addRoundedRect(_ rect: Rect, radius: Double) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        let halfPi = Double.pi / 2
        move(to: Point(x: rect.minX + r, y: rect.minY))
        arc(center: Point(x: rect.maxX - r, y: rect.minY + r), radius: r, from: -halfPi, to: 0)
        arc(center: Point(x: rect.maxX - r, y: rect.maxY - r), radius: r, from: 0, to: halfPi)
        arc(center: Point(x: rect.minX + r, y: rect.maxY - r), radius: r, from: halfPi, to: .pi)
        arc(center: Point(x: rect.minX + r, y: rect.minY + r), radius: r, from: .pi, to: 3 * halfPi)
        close()
    }

    /// Adds a full circle.
    public mutating func addCircle(center: Point, radius: Double) {
        move(to: Point(x: center.x + max(0, radius), y: center.y))
        arc(center: center, radius: radius, from: 0, to: 2 * .pi)
        close()
    }
}
