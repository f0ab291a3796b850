/// A point in a two-dimensional coordinate space, in pixels.
///
/// X grows to the right and y grows downwards, as in X11.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate.
    public var y: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// The point moved by the given amounts.
    public func offsetBy(dx: Double, dy: Double) -> Point { Point(x: x + dx, y: y + dy) }

    /// Whether both coordinates are finite numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }

    public var description: String { "(\(x.compact), \(y.compact))" }
}

/// A width and a height, in pixels.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates a size from its extents.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size of zero by zero.
    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width.compact)×\(height.compact)" }
}

/// Insets on each side of a rectangle, in pixels.
public struct EdgeInsets: Hashable, Sendable {
    /// The inset from the top edge.
    public var top: Double
    /// The inset from the left edge.
    public var left: Double
    /// The inset from the bottom edge.
    public var bottom: Double
    /// The inset from the right edge.
    public var right: Double

    /// Creates insets with a value for each side.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Creates insets that are equal on every side.
    public init(all value: Double) {
        self.init(top: value, left: value, bottom: value, right: value)
    }

    /// Creates insets with one value for the left and right sides and one for top and bottom.
    public init(horizontal: Double, vertical: Double) {
        self.init(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
    }

    /// No inset on any side.
    public static let zero = EdgeInsets(all: 0)

    /// The sum of the left and right insets.
    public var horizontal: Double { left + right }
    /// The sum of the top and bottom insets.
    public var vertical: Double { top + bottom }

    /// The insets multiplied by a factor (for DPI scaling).
    public func scaled(by factor: Double) -> EdgeInsets {
        EdgeInsets(top: top * factor, left: left * factor, bottom: bottom * factor, right: right * factor)
    }
}

/// An axis-aligned rectangle given by its origin (top-left corner) and size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The extents.
    public var size: Size

    /// Creates a rectangle from its origin and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its coordinates and extents.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width.
    public var width: Double { size.width }
    /// The height.
    public var height: Double { size.height }
    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }

    /// Whether the rectangle has no area (or is not a valid rectangle at all).
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Whether every coordinate and extent is a finite number.
    public var isFinite: Bool {
        origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
    }

    /// Whether the point lies inside; the left and top edges are inside, the right and bottom
    /// edges are not, so adjacent rectangles never both contain a point.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// Whether `other` lies entirely inside this rectangle.
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// Whether the two rectangles share some area.
    public func intersects(_ other: Rect) -> Bool {
        !intersection(other).isEmpty
    }

    /// The area both rectangles cover; empty (`.zero`-sized) when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: x0, y: y0, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle that covers both; an empty rectangle adds nothing.
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX)
        let y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The rectangle moved by the given amounts.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(origin: origin.offsetBy(dx: dx, dy: dy), size: size)
    }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom
    /// (grown when negative).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: size.width - 2 * dx, height: size.height - 2 * dy)
    }

    /// The rectangle shrunk by the given insets.
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: minX + insets.left, y: minY + insets.top,
            width: size.width - insets.horizontal, height: size.height - insets.vertical)
    }

    /// The smallest rectangle on whole pixels that covers this one.
    public var integral: Rect {
        let x0 = minX.rounded(.down)
        let y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    public var description: String {
        "[\(minX.compact), \(minY.compact), \(width.compact), \(height.compact)]"
    }
}

extension Double {
    /// The number without a fractional part when it has none ("12" rather than "12.0").
    package var compact: String {
        if self.isFinite, self == self.rounded(), abs(self) < 1e15 { return String(Int(self)) }
        return String(self)
    }
}

// MARK: - Validation at the public boundary

/// The X protocol's ranges: coordinates are signed 16-bit, extents unsigned 16-bit (and at
/// most 32767 for a window to be addressable by its coordinates).
package enum XProtocolLimits {
    package static let coordinate = -32768.0...32767.0
    package static let extent = 0.0...32767.0
    /// The largest window side X11UI makes: a window's back buffer is as big as the window
    /// (8192 × 8192 at 32 bits is 256 MB on the server), and no screen is wider.
    package static let largestWindowSide = 8192.0
}

extension Double {
    /// The value as the X protocol can carry it: NaN becomes `fallback`, anything else
    /// (infinities included) is clamped to `range`. Every number that reaches the server from
    /// a program goes through here first, so no conversion to a C integer can trap.
    package func clamped(to range: ClosedRange<Double>, nan fallback: Double = 0) -> Double {
        isNaN ? fallback : Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}

extension Point {
    /// The point with each coordinate finite and within the X protocol's range (NaN is 0).
    package var validated: Point {
        Point(x: x.clamped(to: XProtocolLimits.coordinate), y: y.clamped(to: XProtocolLimits.coordinate))
    }
}

extension Size {
    /// The size with each extent finite and within the X protocol's range (NaN and negative
    /// values are 0).
    package var validated: Size {
        Size(width: width.clamped(to: XProtocolLimits.extent), height: height.clamped(to: XProtocolLimits.extent))
    }
}

extension Rect {
    /// The rectangle with its origin and size validated.
    package var validated: Rect { Rect(origin: origin.validated, size: size.validated) }
}
