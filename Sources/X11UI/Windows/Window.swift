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
///
/// Popups (``PopupWindow``) and windows of a host program (``ForeignWindow``) are subclasses;
/// a window embedded in a host's window (``init(embeddedIn:frame:content:application:)``) is a
/// `Window` with a parent.
@MainActor
open class Window: EventTarget {
    /// The application the window belongs to (nil when none was open when it was created).
    public private(set) weak var application: Application?
    /// The X window, once shown (nil before, and after `close()`).
    public var windowID: X11WindowID? { native.map { X11WindowID(rawValue: $0.id) } }
    /// The X window, once created.
    var native: NativeWindow?
    /// The X window's id, 0 when there is none.
    var xid: UInt { native?.id ?? 0 }
    /// The host's window an embedded window is a child of; nil for a window on the root.
    let embeddingParent: UInt?
    var buffer: BackBuffer?
    /// Whether `buffer` is the window's background: the server then shows it on map and repaints
    /// exposed areas from it, and X11UI copies only what it paints while the window is mapped.
    /// False for a foreign window (its background is its owner's).
    var bufferIsBackground = false
    /// Whether the window was made with no background, the desktop's appearance still unread,
    /// and takes its background pixel once its first frame is copied (Window+Appearance.swift).
    var backgroundIsDeferred = false
    var dirty = Rect.zero
    var needsLayout = true
    var isMapped = false
    var parentIsRootWindow = true

    /// The view that fills the window and hosts `content`.
    let rootView = View()

    /// The window's title, shown by the window manager.
    public var title: String {
        didSet { if native != nil { writeTitle() } }
    }

    /// The view that fills the window.
    public var content: View? {
        didSet {
            oldValue?.removeFromSuperview()
            if let content { rootView.addSubview(content) }
            setNeedsLayout()
        }
    }

    /// The colour behind the content (the appearance's window background unless set); also the
    /// X window's background pixel, which the server shows in the moment between the map (or a
    /// resize) and X11UI's paint.
    public var backgroundColor = Color.windowBackground {
        didSet {
            rootView.backgroundColor = backgroundColor
            if backgroundColor != oldValue { takeBackgroundPixel() }
        }
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
    /// skipped. The icons of windows shown at start are written once the first window is on
    /// screen; later changes are written at once.
    public var icon: [Image] = [] {
        didSet { writeIcon() }
    }
    /// Whether `icon` waits to be written until the first window is on screen.
    var iconIsPending = false

    /// The size of the window's inside in pixels; nil until known (from the init or the
    /// content).
    public internal(set) var size: Size?
    /// The size (pixels at 96 dpi) a top-level window is meant to have, the program's or the
    /// user's, before it is fitted to its monitor: its size at any scale (Window+Scale.swift).
    var logicalSize: Size?

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
    ///   - size: the inside size in pixels at 96 dpi (scaled by ``Application/scale``, like
    ///     every size in X11UI, and again when the scale changes); nil fits the content's ideal
    ///     size. The scaled size is clamped to 1…8192 pixels, as `resize(to:)` does; a size
    ///     with a NaN extent fits the content.
    ///   - content: the view filling the window.
    ///   - application: the application; nil uses `Application.current`.
    public init(title: String, size: Size? = nil, content: View? = nil, application: Application? = nil) {
        self.title = title
        embeddingParent = nil
        self.application = application ?? Application.current
        let scale = self.application?.scale ?? 1
        self.size = size.flatMap { $0.width.isNaN || $0.height.isNaN ? nil : Self.windowSize($0, scale: scale) }
        logicalSize = self.size.map { Size(width: $0.width / scale, height: $0.height / scale) }
        windowClass = (Window.defaultInstanceName, Window.programName.capitalizedFirst)
        rootView.backgroundColor = backgroundColor
        rootView.window = self
        if let content { rootView.addSubview(content) }
        self.content = content
    }

    /// For subclasses: a window on the root with no title.
    init(untitledIn application: Application?) {
        title = ""
        embeddingParent = nil
        self.application = application ?? Application.current
        windowClass = (Window.defaultInstanceName, Window.programName.capitalizedFirst)
        rootView.window = self
    }

    /// The name the program was started as.
    static var programName: String {
        // Its last path component, found without `split`, whose generic code costs at start-up.
        var path = Substring(CommandLine.arguments.first ?? "")
        while path.last == "/" { path = path.dropLast() }
        if let slash = path.lastIndex(of: "/") { path = path[path.index(after: slash)...] }
        return path.isEmpty ? "x11ui" : String(path)
    }

    /// Whether the window is shown on the screen.
    public var isVisible: Bool { isMapped }

    /// The window's inside as a rectangle at the origin.
    public var bounds: Rect { Rect(origin: .zero, size: size ?? .zero) }

    // MARK: - Showing and closing

    /// Creates the X window if needed, maps it, and lays out and paints it (a popup is painted
    /// before its map: its buffer is its background).
    public func show() {
        guard let application, !application.isClosed else {
            Log.warning("Window \"\(title)\" has no open Application to show it on")
            return
        }
        if native == nil { create(in: application) }
        guard let native else { return }
        // A popup's buffer is its background: it is painted before the map, which shows it.
        // Any other window is mapped first, as every X toolkit does: the map request leaves at
        // once, the server shows the background colour, and the frame painted meanwhile is
        // copied on the Expose the map brings. (Painting first delayed the first map by the
        // round trips of cairo's set-up on the first surface: 9 of them.)
        if !isMapped { focusInitially() }  // before the first frame, which draws it
        let paintsAfterMapping = !usesBufferAsBackground && !isMapped
        if !paintsAfterMapping { updateIfNeeded() }
        if raisesWhenShown { native.mapRaised() } else { native.map() }
        if paintsAfterMapping {
            application.connection.flush()
            // Not yet marked mapped: the paint goes into the back buffer only, and the Expose
            // copies it (one copy, however soon the Expose comes).
            updateIfNeeded()
        }
        let wasMapped = isMapped
        isMapped = true
        if isTopLevel { application.completeStartupNotification() }
        if !wasMapped {
            didMap()
            if reportsVisibility { application.accessibility?.windowDidChangeVisibility(self, isVisible: true) }
        }
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
    public init(
        embeddedIn parent: X11WindowID, frame: Rect, content: View? = nil, application: Application? = nil
    ) {
        title = ""
        embeddingParent = parent.rawValue
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
        if !isEmbedded { screenOrigin = rect.origin }
        if newSize != size { setSizeWithoutRequest(newSize) }
        native?.setFrame(Rect(origin: rect.origin, size: newSize))
    }

    /// Creates the X window and paints it, without mapping it (popups map themselves).
    func createWithoutMapping() {
        guard let application, !application.isClosed, native == nil else { return }
        create(in: application)
    }

    /// Unmaps the window; `show()` brings it back.
    public func hide() {
        guard let application, let native, isMapped else { return }
        native.unmap()
        isMapped = false
        if feedsToolTips { deliverWindowDeactivated(pointerLeft: true) }
        if reportsVisibility { application.accessibility?.windowDidChangeVisibility(self, isVisible: false) }
    }

    /// Destroys the X window. The window can be shown again (a new X window is made).
    public func close() {
        guard let application, let native else { return }
        deliverWindowDeactivated(pointerLeft: true)
        if isMapped, reportsVisibility {
            application.accessibility?.windowDidChangeVisibility(self, isVisible: false)
        }
        native.destroy()
        application.unregister(window: native.id)
        self.native = nil
        // The window is destroyed: the buffer's pixmap is no one's background any more.
        buffer = nil
        bufferIsBackground = false
        isMapped = false
        focusState = FocusState(initialView: focusState.initialView)
        hover = HoverState()
        onClose?()
        application.windowDidClose(self)
    }

    private func create(in application: Application) {
        // The desktop's appearance, if its portal answered since the application started: the
        // window's X background (what the map shows) is then the desktop's.
        application.catchUpWithDesktop()
        let connection = application.connection
        guard connection.isUsable else { return }
        if size == nil {
            size = Self.windowSize(rootView.subviews.first?.idealSize ?? Size(width: 200, height: 100), scale: 1)
            logicalSize = size.map { Size(width: $0.width / application.scale, height: $0.height / application.scale) }
        }
        takeScale()  // the scale may have changed since the size was given
        var frame = Rect(origin: requestedPosition ?? .zero, size: size ?? Size(width: 1, height: 1))
        // A window larger than the monitor it opens on (a big layout, or a high Xft.dpi) is made
        // to fit the room there, as GTK and Qt do; its content is laid out for that size.
        if isTopLevel, case let fitted = sizeFittingRoom(frame, in: application), fitted != frame.size {
            frame.size = fitted
            setSizeWithoutRequest(frame.size)
        }
        guard let native = makeNativeWindow(on: connection, frame: frame) else { return }
        self.native = native
        application.register(self, for: native.id)
        if isTopLevel {
            writeTopLevelProperties()
            requestFrameExtents()
            application.windowDidOpen(self)
            // Where the window was created; a window manager that places it elsewhere reports
            // the move (a ConfigureNotify, or a reparent, after which the map asks the server).
            // A restack alone brings no ConfigureNotify when no sibling is above the window.
            screenOrigin = frame.origin
        }
        didCreateWindow(native)
    }

    // MARK: - What subclasses vary

    /// Makes the X window (a popup's is override-redirect; a foreign window makes none).
    func makeNativeWindow(on connection: DisplayConnection, frame: Rect) -> NativeWindow? {
        let pixel = backgroundPixel
        backgroundIsDeferred = pixel != nil && application?.isReadingDesktopAppearance == true
        return NativeWindow.create(
            on: connection, parent: embeddingParent, frame: frame, events: events,
            options: NativeWindow.Options(backgroundPixel: backgroundIsDeferred ? nil : pixel))
    }

    /// The X background pixel of `backgroundColor` in the display's visual (computed locally on
    /// TrueColor); nil for a window whose buffer is its background.
    var backgroundPixel: UInt? {
        guard !usesBufferAsBackground, let application else { return nil }
        let opaque = backgroundColor.resolved(in: application.appearance).withAlpha(1)
        return application.resources.xftColor(opaque, visual: application.connection.visual).pixel
    }

    /// The events the window selects.
    var events: WindowEvents {
        [
            .exposure, .structure, .keyPress, .keyRelease, .buttonPress, .buttonRelease, .pointerMotion,
            .pointerEnter, .pointerLeave, .focusChange, .propertyChange, .touch,
        ]
    }

    /// Whether this is a top-level window: one the window manager frames, with the desktop's
    /// properties, that counts for `Application.quitsWhenLastWindowCloses`.
    var isTopLevel: Bool { embeddingParent == nil }

    /// Whether the window is a child of a host program's window.
    var isEmbedded: Bool { embeddingParent != nil }

    /// Whether X11UI paints the window (a foreign window's owner paints it).
    var drawsContent: Bool { true }

    /// Whether `show()` raises the window above its siblings (the tooltip's window is raised
    /// when it is placed).
    var raisesWhenShown: Bool { true }

    /// Whether the back buffer becomes the X window's background: the server then shows it on
    /// map and repaints exposed areas from it, with no copy from X11UI. Popups (tooltips among
    /// them) take it: X11UI sets their size and paints in the same flush. Other windows keep
    /// no background: a window manager resizes them before X11UI can paint, and a buffer
    /// background would show its old content tiled over the new area until then.
    var usesBufferAsBackground: Bool { false }

    /// Whether showing and hiding the window is announced to assistive technologies (the
    /// tooltip's window is announced as the tooltip instead).
    var reportsVisibility: Bool { true }

    /// Whether the window's pointer and focus events go to the tooltip controller as events of
    /// an application window; the tooltip's own window reports its events itself.
    var feedsToolTips: Bool { true }

    /// Hook for subclasses: the X window exists now.
    func didCreateWindow(_ native: NativeWindow) {}

    /// Hook for subclasses: `show()` just mapped the window.
    func didMap() {}

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
    /// The string with its first character in upper case. Both halves are strings: a
    /// `Substring` appended goes through generic code that costs 0.1 M instructions at its
    /// first use, at start-up.
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + String(dropFirst())
    }
}
