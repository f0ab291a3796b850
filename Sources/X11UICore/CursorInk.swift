/// The part of the pointer's cursor the user sees: the bounds of its visible (not fully
/// transparent) pixels, relative to its hot spot. A tooltip keeps clear of it, whatever the
/// cursor's size: a 96 pixel arrow reaches some 80 pixels below the pointer.
package struct CursorInk: Equatable, Sendable {
    /// The visible pixels' bounds, with the hot spot at the origin.
    package var box: Rect

    /// The X server's own arrow (the cursor font's, 16 pixels), which hangs below and to the
    /// right of its hot spot: what the layout assumes when told nothing.
    package static let standard = CursorInk(box: Rect(x: -1, y: -1, width: 12, height: 17))

    /// The most a cursor can reach from its hot spot (an image of up to 1024 pixels a side, as
    /// libXcursor allows); anything beyond is not believed.
    package static let largestSide = 1024

    /// A guess from the cursor theme's nominal size alone, when the shown cursor cannot be
    /// read: a square of that size a sixth of it above and to the left of the hot spot (an
    /// arrow's ink lies inside it; GTK 3 uses the same square).
    package static func estimated(size: Int) -> CursorInk {
        let side = Double(min(max(size, 16), largestSide))
        let back = (side / 6).rounded()
        return CursorInk(box: Rect(x: -back, y: -back, width: side, height: side))
    }

    /// The ink of an image `width` × `height` pixels of premultiplied ARGB, row by row, whose
    /// hot spot is at `hotSpot`; nil for an image with no visible pixel or a size that cannot
    /// be (none of a cursor's pixels is then believed).
    ///
    /// - Complexity: O(`width` × `height`).
    package init?<Pixels: RandomAccessCollection>(
        width: Int, height: Int, hotSpot: (x: Int, y: Int), pixels: Pixels
    ) where Pixels.Element == UInt32, Pixels.Index == Int {
        guard width > 0, height > 0, width <= Self.largestSide, height <= Self.largestSide,
            pixels.count >= width * height
        else { return nil }
        var (minX, minY, maxX, maxY) = (width, height, -1, -1)
        let start = pixels.startIndex
        for y in 0..<height {
            let row = start + y * width
            for x in 0..<width where pixels[row + x] >> 24 != 0 {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        let hot = (
            x: Double(min(max(hotSpot.x, 0), width - 1)), y: Double(min(max(hotSpot.y, 0), height - 1))
        )
        box = Rect(
            x: Double(minX) - hot.x, y: Double(minY) - hot.y, width: Double(maxX - minX + 1),
            height: Double(maxY - minY + 1))
    }

    package init(box: Rect) { self.box = box }

    /// The ink on the screen with the hot spot at `pointer`.
    package func onScreen(at pointer: Point) -> Rect { box.offsetBy(dx: pointer.x, dy: pointer.y) }
}
