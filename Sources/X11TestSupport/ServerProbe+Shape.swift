import CX11

/// What a window itself holds and where it takes the pointer, as the server sees them.
extension ServerProbe {
    /// The window's own pixels (not the screen's), 0xAARRGGBB for a 32-bit window, row by row,
    /// read in one request; empty when the window cannot be read.
    public func windowPixels(_ window: UInt, width: Int, height: Int) -> [UInt32] {
        guard width > 0, height > 0,
            let image = XGetImage(display, window, 0, 0, UInt32(width), UInt32(height), UInt(0xffffffff), ZPixmap)
        else { return [] }
        defer { _ = image.pointee.f.destroy_image(image) }
        var result: [UInt32] = []
        result.reserveCapacity(width * height)
        for row in 0..<height {
            for column in 0..<width {
                result.append(UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, Int32(column), Int32(row))))
            }
        }
        return result
    }

    /// The rectangles of the window's input region (where it takes the pointer), in the
    /// window's coordinates; the whole window when it has no input shape of its own.
    public func inputRectangles(_ window: UInt) -> [(x: Int, y: Int, width: Int, height: Int)] {
        var count: Int32 = 0
        var ordering: Int32 = 0
        guard let rectangles = XShapeGetRectangles(display, window, ShapeInput, &count, &ordering) else { return [] }
        defer { XFree(rectangles) }
        return (0..<Int(count)).map {
            let r = rectangles[$0]
            return (Int(r.x), Int(r.y), Int(r.width), Int(r.height))
        }
    }

    /// Whether a point of the window (its coordinates) is in its input region.
    public func takesPointer(_ window: UInt, at x: Int, _ y: Int) -> Bool {
        inputRectangles(window).contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
    }
}
