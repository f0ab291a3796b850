/// A window's size and place, and how its view tree is laid out and painted.
extension Window {
    // MARK: - Size and position

    /// Resizes the window's inside (and the X window, once shown); the size is in pixels at
    /// 96 dpi, scaled by ``Application/scale``.
    public func resize(to newSize: Size) {
        let clamped = Self.windowSize(newSize, scale: application?.scale ?? 1)
        if isTopLevel { logicalSize = newSize.validated }
        guard clamped != size else { return }
        size = clamped
        native?.resize(to: clamped)
        setNeedsLayout()
        invalidate(bounds)
    }

    /// The largest window side X11UI makes, in pixels.
    static let maximumSide = XProtocolLimits.largestWindowSide

    /// The one rule for a window's size in pixels, from any source (the initializer, `resize`,
    /// `setFrame`, the content's ideal size): scaled, rounded, at least 1 and at most
    /// `maximumSide` on each side; NaN is 1.
    static func windowSize(_ size: Size, scale: Double) -> Size {
        func side(_ length: Double) -> Double {
            (length * scale).rounded().clamped(to: 1...maximumSide, nan: 1)
        }
        return Size(width: side(size.width), height: side(size.height))
    }

    /// Records a new size the caller has already asked the server for (or will, in the same
    /// request as a move), and repaints.
    func setSizeWithoutRequest(_ newSize: Size) {
        size = newSize
        setNeedsLayout()
        invalidate(bounds)
    }

    /// Moves the window (root coordinates for top-levels and popups; the parent's for embedded).
    public func move(to origin: Point) {
        let origin = origin.validated
        requestedPosition = origin
        if !isEmbedded { screenOrigin = origin }
        native?.move(to: origin)
    }

    // MARK: - Layout and painting

    /// Asks for layout in the next turn.
    func setNeedsLayout() {
        needsLayout = true
        application?.setNeedsUpdate(self)
    }

    /// Adds a rectangle (window coordinates) to the area repainted in the next turn.
    func invalidate(_ rect: Rect) {
        dirty = dirty.union(rect.intersection(bounds))
        application?.setNeedsUpdate(self)
    }

    /// Forgets the damage gathered so far: the back buffer already shows what it would paint
    /// (a tooltip shown again with the content it was painted with).
    func discardDamage() { dirty = .zero }

    /// Lays out if asked, paints the damaged area into the back buffer and, when the window is
    /// mapped, copies it out.
    func updateIfNeeded() {
        guard let application, let native, let size else { return }
        // At start, the desktop's appearance if its portal answered by now (and again below,
        // after the layout, which measures the text for the first time and takes a while).
        application.catchUpWithDesktop()
        layoutIfNeeded()
        guard drawsContent else { return }
        let width = Int32(size.width.rounded(.up))
        let height = Int32(size.height.rounded(.up))
        if !(buffer?.canServe(width: width, height: height) ?? false) {
            // The new buffer becomes the background before the old one is freed (the old
            // buffer frees its pixmap when it goes), so the window never names a freed pixmap.
            let newBuffer = native.makeBackBuffer(resources: application.resources, width: width, height: height)
            bufferIsBackground = usesBufferAsBackground && native.setBackground(pixmap: newBuffer.pixmap)
            buffer = newBuffer
            dirty = bounds
        }
        application.catchUpWithDesktop()
        guard let buffer, !dirty.isEmpty else { return }
        let area = dirty.integral.intersection(bounds)
        dirty = .zero
        paint(area, into: buffer, scale: application.scale)
        // An unmapped window gets no copy: the map shows the buffer (its background), or the
        // Expose the map brings copies it.
        if isMapped { buffer.copy(area, to: native.id) }
    }

    /// Lays the view tree out now if it is due; events handled before the end of the turn
    /// (hit tests) call it so that they never see a stale layout.
    func layoutIfNeeded() {
        guard needsLayout else { return }
        needsLayout = false
        rootView.frame = bounds
        content?.frame = bounds
        rootView.layoutIfNeeded()
        didLayout()
    }

    /// Paints `area` of the view tree into the buffer.
    func paint(_ area: Rect, into buffer: BackBuffer, scale: Double) {
        buffer.setTextClip(area)
        let context = DrawContext(
            buffer: buffer, clip: area, scale: scale, appearance: application?.appearance ?? .light)
        context.withTranslation(dx: 0, dy: 0, clippedTo: area) {
            context.clear(area)
            rootView.drawHierarchy(in: context)
            // The standard focus ring lies outside its view: drawn last, clipped by no
            // container, so that it shows whole even around a view at a stack's edge.
            if let focused = focusedView, focused.showsFocusRing, !focused.drawsOwnFocusRing,
                focused.isVisibleInWindow
            {
                let origin = focused.convertToWindow(Point.zero)
                context.withTranslation(dx: origin.x, dy: origin.y, clippedTo: nil) {
                    focused.drawStandardFocusRing(in: context)
                }
            }
        }
    }

    /// Hook: the view tree was just laid out.
    func didLayout() {
        application?.inspector?.windowDidLayout(self)
    }
}
