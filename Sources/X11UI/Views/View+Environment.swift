extension View {
    /// The scale factor of the display the view is on (the desktop's dpi, else `Xft.dpi`, over
    /// 96), 1 when not in a window. It changes when the desktop's does: the view's window then
    /// measures, lays out and draws everything again.
    public var scale: Double { window?.application?.scale ?? 1 }

    /// The font set for `font` on this view's display; nil when the view is in no window yet.
    func fontSet(_ font: Font) -> FontSet? {
        window?.application?.resources.fonts.fontSet(for: font)
    }

    /// Which fonts text is measured with (it counts up when the scale or the rendering
    /// changes): a layout measured with an older generation is measured again.
    var fontGeneration: Int { window?.application?.resources.fonts.generation ?? -1 }
}
