internal import CX11

/// What X11UI knows of the cursor the server shows: its ink, read once and kept until XFixes
/// says the cursor changed (a CursorNotify on the root, asked for at the first read), so a
/// tooltip shown where the cursor is the same as at the last show costs no round trip.
struct ShownCursor {
    /// The ink read since the last change, if any.
    var ink: CursorInk?
    /// Whether X11UI asked the server for the cursor's changes.
    var watched = false

    mutating func changed() { ink = nil }
}

/// The cursor the user sees, for the tooltips that keep clear of it.
extension Application {
    /// The ink of the cursor the server shows now: kept from the last read while the cursor
    /// has not changed, else read back through XFixes (one round trip; the image is at most
    /// ``CursorInk/largestSide`` pixels a side, else not believed); without XFixes, or for an
    /// image with nothing visible, a guess from the cursor theme's size.
    func shownCursorInk() -> CursorInk {
        if let ink = shownCursor.ink { return ink }
        guard connection.isUsable, connection.extensions.xfixesEventBase != nil,
            let xfixes = ExtensionLibraries.xfixes?.functions
        else { return estimatedCursorInk() }
        if !shownCursor.watched {
            // Changes of the cursor shown anywhere on the screen, from now on.
            xfixes.select_cursor_input(connection.display, connection.root, UInt(XFixesDisplayCursorNotifyMask))
            shownCursor.watched = true
        }
        let ink = readCursorInk(xfixes)
        shownCursor.ink = ink
        return ink
    }

    private func readCursorInk(_ xfixes: cx11_xfixes) -> CursorInk {
        if let image = xfixes.get_cursor_image(connection.display) {
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
        return estimatedCursorInk()
    }

    /// A guess from the cursor theme's size.
    private func estimatedCursorInk() -> CursorInk {
        CursorInk.estimated(size: cursorStore?.theme.size ?? cursorTheme(library: nil).size)
    }
}
