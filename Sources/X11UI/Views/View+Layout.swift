extension View {
    /// The size the view takes for a proposal: `preferredSize` when set, else what
    /// `sizeThatFits(_:)` answers (cached until the content changes).
    ///
    /// Every size measured passes here, so it is where sizes are made valid: whatever a
    /// view's `sizeThatFits(_:)` answers (NaN, infinite, negative), the size used is finite and
    /// within the X protocol's range.
    public func fittingSize(for proposal: Size) -> Size {
        let scale = self.scale
        if let preferredSize {
            return Size(width: preferredSize.width * scale, height: preferredSize.height * scale).validated
        }
        if let cached = cachedFittingSizes[proposal] { return cached }
        var size: Size
        if let preferredWidth {
            let width = preferredWidth * scale
            size = sizeThatFits(Size(width: width, height: proposal.height))
            size.width = width
        } else {
            size = sizeThatFits(proposal)
        }
        size = size.validated
        if cachedFittingSizes.count > 16 { cachedFittingSizes.removeAll() }
        cachedFittingSizes[proposal] = size
        return size
    }

    /// The size the view takes with no constraint at all.
    public var idealSize: Size {
        fittingSize(for: Size(width: .infinity, height: .infinity))
    }

    /// Asks for `layoutSubviews()` in the next turn of the run loop.
    public func setNeedsLayout() {
        needsLayout = true
        window?.setNeedsLayout()
    }

    /// Forgets cached sizes here and in every ancestor (their sizes may depend on this one) and
    /// asks for layout: call it when content that affects the size changes.
    public func invalidateIntrinsicSize() {
        var current: View? = self
        while let view = current {
            view.cachedFittingSizes.removeAll()
            view.needsLayout = true
            current = view.superview
        }
        window?.setNeedsLayout()
    }

    /// Lays out this view and its subviews now, where needed.
    public func layoutIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        for subview in subviews { subview.layoutIfNeeded() }
    }
}
