/// A change of the display's scale or font rendering (the desktop's settings), as a window
/// takes it: a new size for a top-level window, its views measured and laid out again, one
/// repaint.
extension Window {
    /// The fonts changed (a new scale, or new rendering): the views forget what they measured,
    /// a top-level window takes its size at the new scale, and the whole window lays out and
    /// repaints in this turn.
    func fontsDidChange() {
        rootView.notifyFontsChange()
        takeScale()
        setNeedsLayout()
        invalidate(bounds)
    }

    /// Gives a top-level window its size at the application's scale, as GTK keeps its
    /// windows' logical sizes: a window of 420 × 300 at 96 dpi is 840 × 600 at 192 dpi. A
    /// window that would not fit the monitor it is on is made to fit the work area there, as at
    /// its first show, and takes its whole size again at a scale where it fits. Popups and
    /// embedded windows keep theirs (the program or the host gives them in pixels).
    func takeScale() {
        guard isTopLevel, let application, let logicalSize, let size else { return }
        var newSize = Self.windowSize(logicalSize, scale: application.scale)
        if native != nil,
            let room = application.screen.room(
                for: Rect(origin: screenOrigin ?? requestedPosition ?? .zero, size: newSize))
        {
            newSize = Size(width: min(newSize.width, room.width), height: min(newSize.height, room.height))
        }
        guard newSize != size else { return }
        if let native {
            native.resize(to: newSize)
            setSizeWithoutRequest(newSize)
        } else {
            self.size = newSize
        }
    }
}

extension View {
    /// Tells this view and every view inside it that the fonts changed: sizes measured before
    /// are forgotten and each lays out again (text measures itself again: see `fontGeneration`).
    func notifyFontsChange() {
        cachedFittingSizes.removeAll()
        needsLayout = true
        for subview in subviews { subview.notifyFontsChange() }
    }
}
