/// A change of the application's appearance, as a window takes it: one repaint.
extension Window {
    /// The appearance in force changed: the X background pixel takes the new window background
    /// (what the server shows between a map or a resize and X11UI's paint), the views hear of
    /// it, and the whole window repaints into the back buffer and is copied out in this turn,
    /// with no clear in between (no flicker). A foreign window's owner paints it.
    func appearanceDidChange() {
        guard drawsContent else { return }
        takeBackgroundPixel()
        rootView.notifyAppearanceChange()
        invalidate(bounds)
    }

    /// Gives the X window the background pixel of the window background in force (one
    /// request).
    ///
    /// A window made while the desktop's appearance was still being read (its portal had not
    /// answered yet) has none until its first frame is copied or the appearance changes:
    /// the server then paints nothing at the map, so the moment until X11UI's first frame
    /// shows what was on the screen before (without a compositor) or nothing of the window
    /// (a compositor draws it from its first damage: the frame), never the light background
    /// of a desktop that turns out dark. After that the pixel is what the server shows where a
    /// resize uncovers the window before X11UI paints it.
    func takeBackgroundPixel() {
        backgroundIsDeferred = false
        if let pixel = backgroundPixel { native?.setBackground(pixel: pixel) }
    }
}

extension View {
    /// Tells this view and every view inside it that the appearance changed.
    func notifyAppearanceChange() {
        appearanceDidChange()
        for subview in subviews { subview.notifyAppearanceChange() }
    }
}
