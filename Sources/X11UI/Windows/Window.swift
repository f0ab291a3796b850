internal import CX11
internal import Glibc

/// A top-level window: a frame the window manager decorates, holding a tree of views.
///
/// ```swift
/// let window = Window(title: "Shop", size: Size(width: 420, height: 300))
/// window.content = VStack(spacing: 12, padding: 16) { buy; cart }
/// window.show()
/// ```
///
/// The window sets WM_CLASS, `_NET_WM_NAME` (UTF-8), WM_PROTOCOLS with WM_DELETE_WINDOW and
/// `_NET_WM_PING` (answered from the run loop), `_NET_WM_PID`, WM_CLIENT_MACHINE, its `icon` as
/// `_NET_WM_ICON`, and `_NET_WM_USER_TIME` on every key and button press; the first top-level
/// window shown completes the program's startup notification. It paints through a back buffer
/// the size of the window.
@MainActor
open class Window: EventTarget {
    /// What kind of X window this is.
    enum Kind {
        case topLevel
        /// Override-redirect: the window manager leaves it alone (tooltips, menus).
        case popup
        /// A child of a window another program owns.
        case embedded(parent: UInt)
        /// A window X11UI did not create and does not draw (tooltips only).
        case foreign(UInt)
    }

    let kind: Kind
    /// The application the window belongs to (nil when none was open when it was created).
    public private(set) weak var application: Application?
    /// The X window, once shown (0 before).
    public private(set) var windowID: UInt = 0
    var buffer: BackBuffer?
    private var dirty = Rect.zero
    private var needsLayout = true
    var isMapped = false
    var parentIsRootWindow = true

    /// The view that fills the window and hosts `content`.
    let rootView = View()

    /// The window's title, shown by the window manager.
    public var title: String {
        didSet { if windowID != 0 { writeTitle() } }
    }

    /// The view that fills the window.
    public var content: View? {
        didSet {
            oldValue?.removeFromSuperview()
            if let content { rootView.addSubview(content) }
            setNeedsLayout()
        }
    }

    /// The colour behind the content.
    public var backgroundColor = Color(rgb: 0xf2f2f7) {
        didSet { rootView.backgroundColor = backgroundColor }
    }

    /// The WM_CLASS instance and class names. By default the instance is `RESOURCE_NAME` or
    /// the name the program was started as, and the class that program name with its first
    /// letter in upper case (`tooltip-demo`, `Tooltip-demo`); a desktop entry's
    /// `StartupWMClass` names the class. Set it before `show()`: window managers read it once.
    public var windowClass: (instance: String, className: String) {
        didSet { writeWindowClass() }
    }

    /// The window's icon at several sizes (16, 32, 48, 64 pixels, say), written as
    /// `_NET_WM_ICON` on a top-level window; taskbars, window switchers and title bars pick the
    /// size they need. Each size counts once; images larger than 512 pixels on a side are
    /// skipped.
    public var icon: [Image] = [] {
        didSet { writeIcon() }
    }

    /// The size of the window's inside in pixels; nil until known (from the init or the
    /// content).
    public private(set) var size: Size?

    /// The position asked for at `show()` (top-left corner on the screen); nil lets the window
    /// manager choose (and puts the window at the top left when there is none). Kept finite
    /// and within the X protocol's range.
    public var requestedPosition: Point? {
        didSet { requestedPosition = requestedPosition?.validated }
    }

    /// Where the window's top-left corner is on the screen, as last reported.
    public internal(set) var screenOrigin: Point?

    /// Called after the window closed (by the user or by `close()`).
    public var onClose: (() -> Void)?

    /// Creates a window; it appears on `show()`.
    ///
    /// - Parameters:
    ///   - title: the title bar text.
    ///   - size: the inside size in pixels at 96 dpi (scaled by `Xft.dpi`, like every size in
    ///     X11UI); nil fits the content's ideal size. The scaled size is clamped to
    ///     1…8192 pixels, as `resize(to:)` does; a size with a NaN extent fits the content.
    ///   - content: the view filling the window.
    ///   - application: the application; nil uses `Application.current`.
    public init(title: String, size: Size? = nil, content: View? = nil, application: Application? = nil) {
        self.title = title
        self.kind = .topLevel
        self.application = application ?? Application.current
        let scale = self.application?.scale ?? 1
        self.size = size.flatMap { $0.width.isNaN || $0.height.isNaN ? nil : Self.windowSize($0, scale: scale) }
        windowClass = (Window.defaultInstanceName, Window.programName.capitalizedFirst)
        rootView.backgroundColor = backgroundColor
        rootView.window = self
        if let content { rootView.addSubview(content) }
        self.content = content
    }

    init(kind: Kind, application: Application?) {
        title = ""
        self.kind = kind
        self.application = application ?? Application.current
        windowClass = (Window.defaultInstanceName, Window.programName.capitalizedFirst)
        rootView.window = self
    }

    /// The name the program was started as.
    static var programName: String {
        guard let name = CommandLine.arguments.first?.split(separator: "/").last else { return "x11ui" }
        return String(name)
    }

    /// Whether the window is shown on the screen.
    public var isVisible: Bool { isMapped }

    /// The window's inside as a rectangle at the origin.
    public var bounds: Rect { Rect(origin: .zero, size: size ?? .zero) }

    // MARK: - Showing and closing

    /// Creates the X window if needed, lays out, paints and maps it.
    public func show() {
        guard let application, !application.isClosed else {
            Log.warning("Window \"\(title)\" has no open Application to show it on")
            return
        }
        if windowID == 0 { create(in: application) }
        guard windowID != 0 else { return }
        updateIfNeeded()
        XMapRaised(application.connection.display, windowID)
        let wasMapped = isMapped
        isMapped = true
        if case .topLevel = kind { application.completeStartupNotification() }
        if !wasMapped { application.accessibility?.windowDidChangeVisibility(self, isVisible: true) }
        application.connection.flush()
    }

    /// Creates a window of X11UI views inside a window of the host program's, as its child.
    ///
    /// The host chooses the rectangle (in its window's coordinates) and moves or resizes it
    /// with `setFrame(_:)`; X11UI paints the views and handles their events.
    ///
    /// - Parameters:
    ///   - parent: the host's X window.
    ///   - frame: where the views go in it.
    ///   - content: the view filling the rectangle.
    ///   - application: the application (on the host's display); nil uses `Application.current`.
    public init(embeddedIn parent: UInt, frame: Rect, content: View? = nil, application: Application? = nil) {
        title = ""
        kind = .embedded(parent: parent)
        self.application = application ?? Application.current
        windowClass = (Window.defaultInstanceName, Window.programName.capitalizedFirst)
        size = Self.windowSize(frame.validated.size, scale: 1)
        requestedPosition = frame.origin.validated
        parentIsRootWindow = false  // its place on the screen is asked for once it is mapped
        rootView.backgroundColor = backgroundColor
        rootView.window = self
        if let content { rootView.addSubview(content) }
        self.content = content
    }

    /// Moves and resizes an embedded window within its parent (or any window on the screen).
    public func setFrame(_ frame: Rect) {
        let rect = frame.validated.integral
        let newSize = Self.windowSize(rect.size, scale: 1)
        requestedPosition = rect.origin
        if case .embedded = kind {} else { screenOrigin = rect.origin }
        if newSize != size { setSizeWithoutRequest(newSize) }
        guard let application, windowID != 0, application.connection.isUsable else { return }
        XMoveResizeWindow(
            application.connection.display, windowID, Int32(rect.minX), Int32(rect.minY), UInt32(newSize.width),
            UInt32(newSize.height))
    }

    /// Takes on a foreign window: X11UI routes its events here but neither draws nor owns it.
    func adoptForeign(_ xid: UInt, size: Size) {
        guard let application else { return }
        windowID = xid
        self.size = size
        application.connection.adopt(xid)
        application.register(self, for: xid)
    }

    /// Lets go of a foreign window.
    func releaseForeign() {
        guard let application, windowID != 0 else { return }
        deliverWindowDeactivated(pointerLeft: true)
        application.connection.release(windowID)
        application.unregister(window: windowID)
        windowID = 0
        isMapped = false
    }

    /// Creates the X window and paints it, without mapping it (popups map themselves).
    func createWithoutMapping() {
        guard let application, !application.isClosed, windowID == 0 else { return }
        create(in: application)
    }

    /// Unmaps the window; `show()` brings it back.
    public func hide() {
        guard let application, windowID != 0, isMapped else { return }
        XUnmapWindow(application.connection.display, windowID)
        isMapped = false
        deliverWindowDeactivated(pointerLeft: true)
        application.accessibility?.windowDidChangeVisibility(self, isVisible: false)
    }

    /// Destroys the X window. The window can be shown again (a new X window is made).
    public func close() {
        guard let application, windowID != 0 else { return }
        if case .foreign = kind {
            releaseForeign()
            return
        }
        deliverWindowDeactivated(pointerLeft: true)
        if isMapped { application.accessibility?.windowDidChangeVisibility(self, isVisible: false) }
        if application.connection.isUsable {
            XDestroyWindow(application.connection.display, windowID)
        }
        application.connection.release(windowID)
        application.unregister(window: windowID)
        windowID = 0
        buffer = nil
        isMapped = false
        focusState = FocusState()
        hover = HoverState()
        application.openWindows.removeAll { $0 === self }
        onClose?()
        if case .topLevel = kind, application.quitsWhenLastWindowCloses,
            !application.openWindows.contains(where: { if case .topLevel = $0.kind { true } else { false } })
        {
            application.quit()
        }
    }

    /// The visual, depth and colormap the X window is created with (popups may differ).
    func visualConfiguration(
        _ connection: DisplayConnection
    ) -> (visual: UnsafeMutablePointer<Visual>, depth: Int32, colormap: UInt) {
        (connection.visual, connection.depth, connection.colormap)
    }

    private func create(in application: Application) {
        let connection = application.connection
        guard connection.isUsable else { return }
        if size == nil {
            size = Self.windowSize(rootView.subviews.first?.idealSize ?? Size(width: 200, height: 100), scale: 1)
        }
        let (visual, depth, colormap) = visualConfiguration(connection)
        var attributes = XSetWindowAttributes()
        attributes.background_pixmap = 0  // None: the back buffer paints everything, no flash
        attributes.border_pixel = 0
        attributes.colormap = colormap
        attributes.bit_gravity = NorthWestGravity
        attributes.event_mask = eventMask
        var mask = UInt(CWBackPixmap | CWBorderPixel | CWColormap | CWBitGravity | CWEventMask)
        let parent: UInt
        switch kind {
        case .topLevel: parent = connection.root
        case .popup:
            parent = connection.root
            attributes.override_redirect = 1
            attributes.save_under = 1
            mask |= UInt(CWOverrideRedirect | CWSaveUnder)
        case .embedded(let host): parent = host
        case .foreign: return
        }
        let origin = requestedPosition ?? .zero
        let s = size ?? Size(width: 1, height: 1)
        windowID = XCreateWindow(
            connection.display, parent, Int32(origin.x), Int32(origin.y), UInt32(max(1, s.width)),
            UInt32(max(1, s.height)), 0, depth, UInt32(InputOutput), visual, mask, &attributes)
        connection.adopt(windowID)
        application.register(self, for: windowID)
        if case .topLevel = kind {
            writeTopLevelProperties(connection)
            application.openWindows.append(self)
            screenOrigin = requestedPosition
        }
        didCreateWindow(connection)
    }

    /// Whether the window's pointer and focus events go to the tooltip controller as events of
    /// an application window; the tooltip's own window reports its events itself.
    var feedsToolTips: Bool { true }

    /// Hook for subclasses: the X window exists now.
    func didCreateWindow(_ connection: DisplayConnection) {}

    var eventMask: Int {
        ExposureMask | StructureNotifyMask | KeyPressMask | KeyReleaseMask | ButtonPressMask
            | ButtonReleaseMask | PointerMotionMask | EnterWindowMask | LeaveWindowMask | FocusChangeMask
    }

    private func writeTopLevelProperties(_ connection: DisplayConnection) {
        let atoms = connection.atoms
        writeTitle()
        writeWindowClass()
        var protocols = [atoms.wmDeleteWindow, atoms.netWMPing]
        XSetWMProtocols(connection.display, windowID, &protocols, Int32(protocols.count))
        connection.setLongProperty(windowID, atoms.netWMPid, type: atoms.cardinal, [Int(getpid())])
        connection.setStringProperty(windowID, atoms.wmClientMachine, [DisplayConnection.hostName])
        connection.setLongProperty(
            windowID, atoms.netWMWindowType, type: atoms.atom, [Int(atoms.netWMWindowTypeNormal)])
        var hints = XWMHints()
        hints.flags = InputHint | StateHint
        hints.input = 1
        hints.initial_state = NormalState
        XSetWMHints(connection.display, windowID, &hints)
        var sizeHints = XSizeHints()
        if let position = requestedPosition {
            sizeHints.flags = USPosition | PPosition
            sizeHints.x = Int32(position.x)
            sizeHints.y = Int32(position.y)
        }
        XSetWMNormalHints(connection.display, windowID, &sizeHints)
        writeDesktopProperties(connection)
    }

    private func writeTitle() {
        guard let connection = application?.connection else { return }
        connection.setUTF8Property(windowID, connection.atoms.netWMName, title)
        connection.setUTF8Property(windowID, connection.atoms.wmName, title)
    }

    // MARK: - Size and position

    /// Resizes the window's inside (and the X window, once shown); the size is in pixels at
    /// 96 dpi, scaled by `Xft.dpi`.
    public func resize(to newSize: Size) {
        let clamped = Self.windowSize(newSize, scale: application?.scale ?? 1)
        guard clamped != size else { return }
        size = clamped
        if let application, windowID != 0 {
            XResizeWindow(application.connection.display, windowID, UInt32(clamped.width), UInt32(clamped.height))
        }
        setNeedsLayout()
        invalidate(bounds)
    }

    /// The largest window side X11UI makes, in pixels.
    static let maximumSide = XRange.largestWindowSide

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
        if case .embedded = kind {} else { screenOrigin = origin }
        if let application, windowID != 0 {
            XMoveWindow(application.connection.display, windowID, Int32(origin.x), Int32(origin.y))
        }
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

    /// Lays out if asked, paints the damaged area into the back buffer and copies it out.
    func updateIfNeeded() {
        guard let application, windowID != 0, let size else { return }
        layoutIfNeeded()
        if case .foreign = kind { return }
        let width = Int32(size.width.rounded(.up))
        let height = Int32(size.height.rounded(.up))
        if !(buffer?.canServe(width: width, height: height) ?? false) {
            let (visual, depth, colormap) = visualConfiguration(application.connection)
            buffer = BackBuffer(
                resources: application.resources, window: windowID, visual: visual, depth: depth,
                colormap: colormap, width: width, height: height)
            dirty = bounds
        }
        guard let buffer, !dirty.isEmpty else { return }
        let area = dirty.integral.intersection(bounds)
        dirty = .zero
        paint(area, into: buffer, scale: application.scale)
        if isMapped { buffer.copy(area, to: windowID) }
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
        let context = DrawContext(buffer: buffer, clip: area, scale: scale)
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

    // MARK: - Event state (see Window+Events.swift)

    var hover = HoverState()
    /// Exposed area gathered until the last Expose event of a series.
    var exposed = Rect.zero
    var focusState = FocusState()

    /// Something under the view tree disappeared (removed or hidden).
    func viewDidDisappear(_ view: View) {
        hover.chain.removeAll { $0.isDescendant(of: view) }
        if let pressed = hover.pressedView, pressed.isDescendant(of: view) { hover.pressedView = nil }
        if let focused = focusedView, focused.isDescendant(of: view) { focus(nil) }
        deliverViewDidDisappear(view)
    }

    /// A view in the window was disabled: it loses focus and the press it took.
    func viewDidBecomeDisabled(_ view: View) {
        if let pressed = hover.pressedView, pressed.isDescendant(of: view) { hover.pressedView = nil }
        if let focused = focusedView, focused.isDescendant(of: view) { focus(nil) }
    }

    /// Handles an X event for this window.
    func handle(_ event: Event) -> Bool {
        handleEvent(event)
        return true
    }
}

extension String {
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
