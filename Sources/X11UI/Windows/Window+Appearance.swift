/// A change of the application's appearance, as a window takes it: one repaint.
extension Window {
    /// The appearance in force changed: the X background pixel takes the new window background
    /// (what the server shows between a map or a resize and X11UI's paint), the views hear of
    /// it, and the whole window repaints into the back buffer and is copied out in this turn,
    /// with no clear in between (no flicker). A foreign window's owner paints it.
    func appearanceDidChange() {
        guard drawsContent else { return }
        if let pixel = backgroundPixel { native?.setBackground(pixel: pixel) }
        rootView.notifyAppearanceChange()
        invalidate(bounds)
    }
}

extension View {
    /// Tells this view and every view inside it that the appearance changed.
    func notifyAppearanceChange() {
        appearanceDidChange()
        for subview in subviews { subview.notifyAppearanceChange() }
    }
}
