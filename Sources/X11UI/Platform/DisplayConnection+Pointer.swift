internal import CX11

extension DisplayConnection {
    /// The windows that contain a point of the screen, from a child of the root down to the
    /// deepest one, each with the point in its coordinates: the windows a pointer event there
    /// would be reported to. One round trip per level (two or three under a window manager).
    func windows(at point: Point) -> [(window: UInt, location: Point)] {
        guard isUsable, point.isFinite else { return [] }
        var result: [(window: UInt, location: Point)] = []
        let x = Int32(clamping: Int(point.x.rounded(.down)))
        let y = Int32(clamping: Int(point.y.rounded(.down)))
        var parent = root
        // Deep enough for any real tree; a loop guard, not a limit anyone meets.
        for _ in 0..<32 {
            var localX: Int32 = 0
            var localY: Int32 = 0
            var child: UInt = 0
            guard XTranslateCoordinates(display, root, parent, x, y, &localX, &localY, &child) != 0 else { break }
            if parent != root { result.append((parent, Point(x: Double(localX), y: Double(localY)))) }
            guard child != 0 else { break }
            parent = child
        }
        return result
    }
}
