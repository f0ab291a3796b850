extension View {
    /// The scale factor of the display the view is on (`Xft.dpi` / 96), 1 when not in a window.
    public var scale: Double { window?.application?.scale ?? 1 }

    /// The font set for `font` on this view's display; nil when the view is in no window yet.
    func fontSet(_ font: Font) -> FontSet? {
        window?.application?.resources.fonts.fontSet(for: font)
    }
}
