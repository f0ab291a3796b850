/// Keyboard focus at a view, and the standard focus ring, drawn around views that take focus
/// but draw no ring of their own (an icon or a label with a click tooltip, say).
extension View {
    /// Whether the view has keyboard focus.
    public var isFocused: Bool { window?.focusedView === self }

    /// Whether to draw a focus ring: the view has focus and it came from the keyboard.
    public var showsFocusRing: Bool { isFocused && window?.isFocusVisible == true }

    /// Whether the view can have keyboard focus now: it accepts focus and is enabled.
    var canTakeFocus: Bool { acceptsFocus && isEnabledInHierarchy }

    /// The ring's distance outside the view and its width, in device pixels.
    private var focusRingMetrics: (outset: Double, width: Double) {
        ((3 * scale).rounded(), max(2, (2 * scale).rounded()))
    }

    /// The area the standard ring covers, in the view's coordinates: the bounds and the ring
    /// outside them.
    var focusRingRect: Rect {
        let (outset, width) = focusRingMetrics
        let margin = outset + width
        return bounds.insetBy(dx: -margin, dy: -margin)
    }

    /// Strokes the ring around the view; the context is translated to the view's origin.
    func drawStandardFocusRing(in context: DrawContext) {
        let (outset, width) = focusRingMetrics
        let inset = -(outset + width / 2)
        context.stroke(
            bounds.insetBy(dx: inset, dy: inset), cornerRadius: max(cornerRadius, 4 * scale) + outset,
            color: .focusRing, lineWidth: width)
    }
}
