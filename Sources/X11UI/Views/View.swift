/// A rectangular area of a window that draws itself, lays out subviews and handles events.
///
/// Subclass it and override `draw(in:)`, `sizeThatFits(_:)` and `layoutSubviews()`, or use the
/// widgets (`Label`, `Button`, `ImageView`, `HStack`, …). Behaviours such as tooltips attach to
/// any view as interactions:
///
/// ```swift
/// let swatch = View()
/// swatch.backgroundColor = .green
/// swatch.preferredSize = Size(width: 120, height: 40)
/// swatch.toolTip = "The default tooltip for the view."
/// ```
@MainActor
open class View {
    // MARK: - Geometry

    /// The view's rectangle in its superview's coordinates. Coordinates and extents are kept
    /// finite and within the X protocol's range (NaN is 0, a negative extent 0).
    public var frame: Rect {
        didSet {
            frame = frame.validated
            guard frame != oldValue else { return }
            superview?.hitIndex = nil
            if frame.size != oldValue.size { setNeedsLayout() }
            superview?.setNeedsDisplay(oldValue.union(frame))
            if superview == nil { setNeedsDisplay() }
        }
    }

    /// The view's own rectangle: its size at the origin.
    public var bounds: Rect { Rect(origin: .zero, size: frame.size) }

    /// A size (pixels at 96 dpi) the view takes instead of measuring its content, for views
    /// with no content of their own to measure (a colour swatch, say).
    public var preferredSize: Size? {
        didSet {
            preferredSize = preferredSize?.validated
            invalidateIntrinsicSize()
        }
    }

    /// A width (pixels at 96 dpi) the view takes, its height measured at that width: a column
    /// of wrapping text, say.
    public var preferredWidth: Double? {
        didSet {
            preferredWidth = preferredWidth?.clamped(to: XProtocolLimits.extent)
            invalidateIntrinsicSize()
        }
    }

    /// Whether a stack gives this view a share of its leftover length along the stack's axis
    /// (as it does to `Spacer`s), instead of its ideal length.
    public var fillsAvailableSpace = false {
        didSet { superview?.setNeedsLayout() }
    }

    // MARK: - Hierarchy

    /// The view that contains this one.
    public private(set) weak var superview: View?
    /// The views this one contains, back to front.
    public private(set) var subviews: [View] = []
    /// The window the view is in, if any.
    public internal(set) weak var window: Window? {
        didSet {
            guard window !== oldValue else { return }
            for subview in subviews { subview.window = window }
            if window != nil { setNeedsLayout() }
        }
    }

    /// A name for tests, the inspector and tools (`"buy-button"`).
    public var identifier: String?

    /// The name a screen reader reads for the view; nil uses the widget's own (a button's
    /// title, a label's text). Set it on images and other views with no text.
    public var accessibilityLabel: String? {
        didSet { if accessibilityLabel != oldValue { accessibilityLabelDidChange() } }
    }

    /// What the view is to assistive technologies; nil uses the widget's own role.
    public var accessibilityRole: AccessibilityRole?

    /// Whether the view (and its subviews) is hidden: not drawn, not hit, and its tooltip hides.
    public var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            superview?.invalidateIntrinsicSize()
            superview?.setNeedsDisplay(frame)
            if isHidden { window?.viewDidDisappear(self) }
            window?.application?.accessibility?.visibilityDidChange(of: self)
        }
    }

    /// Whether the view responds to the user. A disabled view, or any view inside one, takes
    /// no presses, no hover state and no keyboard focus (Tab skips it), and widgets draw it
    /// dimmed. Its tooltip still shows on hover: it is where to say why the view is disabled.
    /// Interactions still hear the view's pointer events.
    ///
    /// ```swift
    /// checkout.isEnabled = shop.itemCount > 0
    /// checkout.toolTip = checkout.isEnabled ? "Check out 2 items." : "Add an item to your cart to check out."
    /// ```
    public var isEnabled = true {
        didSet {
            guard isEnabled != oldValue, superview?.isEnabledInHierarchy ?? true else { return }
            if !isEnabled { window?.viewDidBecomeDisabled(self) }
            notifyEnabledChange()
        }
    }

    /// Whether the view and all its ancestors are enabled.
    public var isEnabledInHierarchy: Bool {
        var current: View? = self
        while let v = current {
            if !v.isEnabled { return false }
            current = v.superview
        }
        return true
    }

    /// Tells this view and the views inside it (those not disabled on their own) that they
    /// became enabled or disabled.
    private func notifyEnabledChange() {
        enabledDidChange()
        for subview in subviews where subview.isEnabled { subview.notifyEnabledChange() }
    }

    // MARK: - Appearance

    /// The colour filled behind the view's content; nil draws nothing.
    public var backgroundColor: Color? {
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }

    /// The radius of the background's corners.
    public var cornerRadius: Double = 0 {
        didSet { if cornerRadius != oldValue { setNeedsDisplay() } }
    }

    /// A 1 px border drawn around the background, when set.
    public var borderColor: Color? {
        didSet { if borderColor != oldValue { setNeedsDisplay() } }
    }

    /// The pointer's shape over the view and the views inside it that set none; nil shows the
    /// superview's (the window's own arrow at the top). See ``Cursor``.
    public var cursor: Cursor? {
        didSet { if cursor != oldValue { window?.viewCursorDidChange(self) } }
    }

    /// Creates a view with a frame (layout containers usually set it).
    public init(frame: Rect = .zero) {
        self.frame = frame.validated
    }

    /// Adds a view on top of the existing subviews.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts a view at a position in the back-to-front order.
    ///
    /// A view is not inserted (and a warning says so) when that would make a cycle or nest
    /// views deeper than ``View/maximumNestingDepth``: the toolkit walks the tree recursively
    /// (layout, drawing, hit testing), and the depth must stay bounded for that to be safe.
    ///
    /// - Complexity: O(depth of this view), at most `maximumNestingDepth`.
    public func insertSubview(_ view: View, at index: Int) {
        guard view !== self else { return }
        // One walk up the ancestors: this view's depth, and whether `view` is among them (a
        // view without subviews cannot be, which spares that test when building top-down).
        var depth = 0
        var ancestor: View? = self
        while let current = ancestor {
            if current === view { return }
            depth += 1
            ancestor = current.superview
        }
        guard depth + view.heightBound(within: Self.maximumNestingDepth - depth) <= Self.maximumNestingDepth else {
            if !Self.warnedAboutDepth {
                Self.warnedAboutDepth = true
                Log.warning(
                    "not adding a \(type(of: view)) to a \(type(of: self)): views nest at most \(Self.maximumNestingDepth) deep"
                )
            }
            return
        }
        let wasEnabled = view.isEnabledInHierarchy
        view.removeFromSuperview()
        subviews.insert(view, at: min(max(0, index), subviews.count))
        hitIndex = nil
        view.superview = self
        view.window = window
        raiseHeightBound(above: view)
        window?.application?.accessibility?.childrenDidChange(in: self, child: view, added: true)
        invalidateIntrinsicSize()
        setNeedsDisplay(view.frame)
        if view.isEnabled, view.isEnabledInHierarchy != wasEnabled { view.notifyEnabledChange() }
    }

    /// Removes the view from its superview and window; a tooltip it shows hides.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldWindow = window
        oldWindow?.application?.accessibility?.childrenDidChange(in: parent, child: self, added: false)
        parent.subviews.removeAll { $0 === self }
        parent.hitIndex = nil
        superview = nil
        window = nil
        parent.invalidateIntrinsicSize()
        parent.setNeedsDisplay(frame)
        oldWindow?.viewDidDisappear(self)
    }

    /// The deepest a view tree may be: a window's root, its content and so on down, counted
    /// in levels. Real interfaces nest a few dozen deep; the bound keeps every recursive walk
    /// of the tree (layout, drawing, hit testing) within a small part of the stack.
    public static let maximumNestingDepth = 512

    /// An upper bound on the levels in this view's subtree (1 for a view with no subviews).
    /// Raised when views are inserted below, never lowered on removal; when it would refuse an
    /// insertion it is first recomputed exactly.
    var subtreeHeight = 1
    /// Whether the nesting bound was reported (once per process: a loop that keeps nesting
    /// would otherwise fill standard error).
    private static var warnedAboutDepth = false

    // MARK: - Drawing

    /// Marks the whole view for repainting in the next turn of the run loop.
    public func setNeedsDisplay() { setNeedsDisplay(bounds) }

    /// Marks part of the view (in its coordinates) for repainting; damage from every view is
    /// merged and painted once per turn.
    public func setNeedsDisplay(_ rect: Rect) {
        guard let window, !rect.isEmpty else { return }
        window.invalidate(convertToWindow(rect))
    }

    /// Draws the view's own content; subviews draw themselves afterwards, on top. The
    /// background and border are drawn before this is called.
    open func draw(in context: DrawContext) {}

    /// Draws the view, then its subviews; called by the window with the context translated to
    /// this view's origin and clipped to its bounds.
    func drawHierarchy(in context: DrawContext) {
        if let backgroundColor { context.fill(bounds, cornerRadius: cornerRadius, color: backgroundColor) }
        if let borderColor { context.stroke(bounds, cornerRadius: cornerRadius, color: borderColor, lineWidth: 1) }
        draw(in: context)
        for subview in subviews where !subview.isHidden && context.isVisible(subview.frame) {
            context.withTranslation(dx: subview.frame.minX, dy: subview.frame.minY, clippedTo: subview.clipRect) {
                subview.drawHierarchy(in: context)
            }
        }
    }

    /// The part of the view that looks like the view, for lining things up with it (tooltips
    /// point at it); a button's is its body, without the room kept for its focus ring.
    open var alignmentRect: Rect { bounds }

    /// The area drawing is clipped to, in the view's coordinates; nil draws unclipped.
    open var clipRect: Rect? { bounds }

    // MARK: - Hit testing

    /// The deepest visible view containing `point` (in this view's coordinates), or nil.
    ///
    /// - Complexity: O(subviews) for a few subviews; with many, a grid index built on first use
    ///   (and rebuilt after subviews change) makes it O(subviews under the point).
    open func hitTest(_ point: Point) -> View? {
        // Each property is read once (every read of a class's stored property is an
        // exclusivity check, and this runs for every pointer motion).
        guard !isHidden, bounds.contains(point) else { return nil }
        let subviews = self.subviews
        if subviews.count > HitIndex.threshold {
            let index: HitIndex
            if let built = hitIndex {
                index = built
            } else {
                index = HitIndex(subviews)
                hitIndex = index
            }
            for candidate in index.candidates(at: point) {
                let subview = subviews[candidate]
                let frame = subview.frame
                if let hit = subview.hitTest(Point(x: point.x - frame.minX, y: point.y - frame.minY)) { return hit }
            }
            return self
        }
        for subview in subviews.reversed() {
            let frame = subview.frame
            if let hit = subview.hitTest(Point(x: point.x - frame.minX, y: point.y - frame.minY)) { return hit }
        }
        return self
    }

    /// Where subviews are, for hit tests among many of them; nil until needed or after a change.
    var hitIndex: HitIndex?

    // MARK: - Interactions

    /// The behaviours attached to the view.
    public internal(set) var interactions: [any Interaction] = []

    /// The identities of `interactions`, for constant-time membership.
    var interactionIDs: Set<ObjectIdentifier> = []

    // MARK: - Layout

    /// The size the view would like within `proposal` (either extent may be infinite).
    ///
    /// Override to measure content; the default is `preferredSize`, or the current frame size.
    /// Call `fittingSize(for:)` rather than this: it honours `preferredSize` and caches.
    open func sizeThatFits(_ proposal: Size) -> Size {
        frame.size
    }

    /// Positions the subviews within `bounds`; called once per turn after `setNeedsLayout()`.
    open func layoutSubviews() {}

    // MARK: - Events

    /// Whether the view can take keyboard focus (Tab moves between such views, and a disabled
    /// one is skipped). Controls override it; other views accept focus when one of their
    /// interactions asks for it (a click tooltip makes its view a control the keyboard reaches).
    open var acceptsFocus: Bool {
        interactions.contains { $0.makesViewFocusable }
    }

    /// Whether the view draws its own focus ring (in `draw(in:)`, with `showsFocusRing`);
    /// otherwise the window draws a standard ring around it, over everything else.
    open var drawsOwnFocusRing: Bool { false }

    /// The pointer moved into the view (or one of its subviews).
    open func pointerEntered() {}

    /// The pointer left the view and its subviews.
    open func pointerExited() {}

    /// The pointer moved within the view, no button held; `point` is in the view's coordinates.
    open func pointerMoved(to point: Point) {}

    /// A button went down over the view; return true to take the press (the view then gets
    /// the drags and the release), false to let the superview have it.
    open func buttonPressed(_ event: ViewButtonEvent) -> Bool { false }

    /// The pointer moved with a button held after this view took the press.
    open func pointerDragged(to point: Point) {}

    /// The button of the press this view took went up.
    open func buttonReleased(_ event: ViewButtonEvent) {}

    /// A key was pressed while the view had focus; return true when handled.
    open func keyPressed(_ event: ViewKeyEvent) -> Bool { false }

    /// The keys that run the view's action from anywhere in its window (``KeyboardShortcut``).
    public var keyboardShortcut: KeyboardShortcut? {
        didSet { if keyboardShortcut != oldValue { keyboardShortcutDidChange() } }
    }

    /// The view's ``keyboardShortcut`` was pressed while the view was enabled and shown; do
    /// what it stands for and return true, or return false to let the key go on.
    open func keyboardShortcutPressed() -> Bool { false }

    /// The view gained or lost keyboard focus.
    open func focusDidChange() {
        setNeedsDisplay(drawsOwnFocusRing ? bounds : focusRingRect)
    }

    /// The view (or an ancestor) became enabled or disabled; see `isEnabledInHierarchy`.
    open func enabledDidChange() { setNeedsDisplay() }

    /// The application's appearance changed; the whole window repaints after it.
    open func appearanceDidChange() {}

    // MARK: - Layout storage (see View+Layout.swift)

    var needsLayout = true
    var cachedFittingSizes: [Size: Size] = [:]
}
