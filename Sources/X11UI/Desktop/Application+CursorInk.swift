internal import CX11

/// The cursor the user sees, for the tooltips that keep clear of it.
extension Application {
    /// The ink of the cursor the server shows now, read back through XFixes (one round trip;
    /// the image is at most ``CursorInk/largestSide`` pixels a side, else not believed); without
    /// XFixes, or for an image with nothing visible, a guess from the cursor theme's size.
    func shownCursorInk() -> CursorInk {
        if connection.isUsable, connection.extensions.xfixesEventBase != nil,
            let xfixes = ExtensionLibraries.xfixes?.functions, let image = xfixes.get_cursor_image(connection.display)
        {
            defer { XFree(image) }
            let info = image.pointee
            let (width, height) = (Int(info.width), Int(info.height))
            if width > 0, height > 0, width <= CursorInk.largestSide, height <= CursorInk.largestSide,
                let start = info.pixels
            {
                // XFixes hands the pixels out as C longs, 32 bits of ARGB each.
                let pixels = UnsafeBufferPointer(start: start, count: width * height).lazy.map {
                    UInt32(truncatingIfNeeded: $0)
                }
                if let ink = CursorInk(
                    width: width, height: height, hotSpot: (Int(info.xhot), Int(info.yhot)), pixels: pixels)
                {
                    return ink
                }
            }
        }
        return CursorInk.estimated(size: cursorStore?.theme.size ?? cursorTheme(library: nil).size)
    }
}
