/// The window manager's frame around a top-level window: what it adds on each side (its title
/// bar and borders), as it publishes them in `_NET_FRAME_EXTENTS`.
struct FrameExtents: Equatable, Sendable {
    var left = 0.0
    var right = 0.0
    var top = 0.0
    var bottom = 0.0

    /// No frame.
    static let none = FrameExtents()

    /// The most a frame's side is believed to add (a window manager that says more is wrong).
    static let largestSide = 1000

    /// The extents from the property's four values (left, right, top, bottom); nil for fewer
    /// values or a side that is negative or larger than ``largestSide``.
    init?(values: [Int]) {
        guard values.count >= 4, values.prefix(4).allSatisfy({ (0...Self.largestSide).contains($0) }) else {
            return nil
        }
        (left, right, top, bottom) = (Double(values[0]), Double(values[1]), Double(values[2]), Double(values[3]))
    }

    init() {}

    /// The frame around a window whose own rectangle is `rect`.
    func around(_ rect: Rect) -> Rect {
        Rect(
            x: rect.minX - left, y: rect.minY - top, width: rect.width + left + right,
            height: rect.height + top + bottom)
    }

    /// The window's size for which its frame fits `room`: `size` made smaller where the frame
    /// would not fit (never larger, never below one pixel).
    func fitting(_ size: Size, in room: Rect) -> Size {
        Size(
            width: max(1, min(size.width, room.width - left - right)),
            height: max(1, min(size.height, room.height - top - bottom)))
    }
}
