internal import CX11
internal import Glibc

/// Something that receives the events of one X window.
@MainActor
protocol EventTarget: AnyObject {
    /// Handles an event for the target's window; returns whether X11UI consumed it (a host
    /// program that passes events through keeps the ones X11UI did not consume).
    func handle(_ event: Event) -> Bool
}

/// The connection to the X server and the run loop every X11UI program has one of.
///
/// ```swift
/// let app = try Application()          // throws X11UIError when there is no display
/// let window = Window(title: "Hello", content: Label("Hello, X11"))
/// window.show()
/// try app.run()                        // returns when the last window closes
/// ```
///
/// The run loop is single-threaded: it drains Xlib's event queue, fires due timers, runs the jobs
/// queued for the main actor (`Task { @MainActor in … }`, `await MainActor.run`,
/// `DispatchQueue.main.async`), lays out and paints the windows that need it, flushes, and then
/// sleeps in `poll()` until the X connection has data, a job is queued or the next timer is due.
/// An idle program uses no CPU.
@MainActor
public final class Application {
    /// The most recently created application that is still open; windows created without an
    /// explicit application use it.
    public private(set) static var current: Application?

    let connection: DisplayConnection
    let translator: EventTranslator
    var timers = TimerQueue()
    /// The main queue's eventfd and the descriptors added with `addSource` (RunLoopSource.swift).
    let sources = RunLoopSources()
    private(set) var targets: [UInt: any EventTarget] = [:]
    private var windowsNeedingUpdate: [Window] = []
    /// Set by `quit()` (and by the last top-level window closing); `run()` returns after the turn.
    private(set) var quitRequested = false
    private(set) var isClosed = false
    /// Called by `processPending()` with events that are not X11UI's (see Application+Embedding).
    var hostEvents: ((XEvent) -> Void)?
    /// Top-level windows that are open, for `quitsWhenLastWindowCloses`.
    private(set) var openWindows: [Window] = []
    /// Whether the start-up work that waits for the first window is still to do, and whether
    /// a window was exposed (is on screen) yet.
    private(set) var deferredStartupPending = true
    private var sawExpose = false

    /// Whether `run()` returns once the last top-level window is closed (true by default).
    public var quitsWhenLastWindowCloses = true
    /// Fonts, colours and images kept between paints, shared by every window.
    let resources: DrawingResources
    /// Monitors and compositor state.
    let screen: ScreenInfo
    /// The global defaults for tooltips, and the one tooltip controller of this display.
    public private(set) lazy var toolTips = ToolTipController(application: self)
    /// The PRIMARY and CLIPBOARD selections the application owns.
    private(set) lazy var selections = Selections(application: self)
    /// Appends layout and tooltip events to `X11UI_INSPECT`'s file, when set.
    let inspector: Inspector?
    /// Startup notification and user time (Application+Desktop.swift).
    var desktop = DesktopSession()
    /// The AT-SPI2 provider, once an accessibility bus was found (see Accessibility/).
    var accessibility: AccessibilityBridge?
    /// The session bus, for the application's life when there is one (Application+Appearance).
    var sessionBus: DBusConnection?
    /// The reader of the desktop's appearance settings on it.
    var desktopPortal: DesktopPortal?
    /// The desktop's appearance, the program's choice and the one in force (Application+Appearance.swift).
    var appearanceState = AppearanceState()
    /// What the desktop's settings manager says (XSETTINGS), as far as it says it; nil values
    /// take X11UI's defaults. Read before the first window opens and followed while the program
    /// runs (``onDesktopSettingsChange``).
    public internal(set) var desktopSettings = DesktopSettings()
    var desktopSettingsHandler: ((DesktopSettings) -> Void)?
    /// Watches the desktop's XSETTINGS manager (XSettingsReader.swift).
    private(set) var xsettings: XSettingsReader?
    /// The cursors the windows show, made on first use (Application+Cursors.swift).
    var cursorStore: CursorStore?
    /// The frame the window manager last said it put around a window (Window+Frame.swift).
    var lastFrameExtents = FrameExtents.none
    /// Whether the compositor fades tooltips itself, once asked (Application+Compositor.swift).
    var compositorFadesKnown: Bool?
    /// The ink of the cursor the server shows, read once after each change of it.
    var shownCursor = ShownCursor()
    /// The fingers on the screen, across the windows (Window+Touch.swift).
    var touches = TouchTranslator()

    /// Opens a connection to the X server.
    ///
    /// It also takes the launch's `DESKTOP_STARTUP_ID` out of the environment; the first
    /// window shown completes that startup notification (see <doc:ADesktopApp>).
    ///
    /// - Parameters:
    ///   - displayName: the display to open (`":0"`); nil or empty uses `$DISPLAY`.
    ///   - connectTimeout: how long the server may take to complete the connection (the setup
    ///     and the replies `XOpenDisplay` waits for); nil uses `X11UI_CONNECT_TIMEOUT` (seconds)
    ///     when set, else 5 seconds.
    /// - Throws: `X11UIError.noDisplay`, `.cannotOpenDisplay(name:)` or
    ///   `.displayNotAnswering(name:timeout:)`, naming the display.
    public convenience init(displayName: String? = nil, connectTimeout: Duration? = nil) throws(X11UIError) {
        // The session bus first (without waiting): it answers while the X server does.
        let sessionBus = Self.beginSessionBus()
        let connection: DisplayConnection
        do {
            connection = try DisplayConnection(name: displayName, timeout: connectTimeout)
        } catch {
            sessionBus?.abandon()
            throw error
        }
        self.init(connection: connection, sessionBus: sessionBus)
        desktop.startup = StartupNotification.takeFromEnvironment()
    }

    /// Creates an application on a display the host program opened and keeps.
    ///
    /// X11UI never closes this display and leaves the host's I/O-error handling alone; protocol
    /// errors about resources X11UI did not create go to the host's error handler.
    ///
    /// - Parameter display: the host's `Display*`.
    public convenience init(display: OpaquePointer) {
        self.init(connection: DisplayConnection(display: display, owns: false), sessionBus: Self.beginSessionBus())
    }

    private init(connection: DisplayConnection, sessionBus: DBusConnection.Beginning?) {
        self.connection = connection
        translator = EventTranslator(
            extensions: { [connection] in connection.queriedExtensions }, display: connection.display)
        // The settings manager is asked for first: the round trip Xft makes at the next line
        // brings the answer (XSettingsReader.swift).
        let asking = XSettingsReader.askForManager(on: connection)
        resources = DrawingResources(connection: connection)
        screen = ScreenInfo(connection: connection)
        inspector = Inspector.fromEnvironment()
        Application.current = self
        xsettings = XSettingsReader(connection: connection, asking: asking) { [unowned self] in
            desktopSettingsDidChange($0)
        }
        applyResources()
        if let sessionBus { startSessionBus(sessionBus) }
        AccessibilityBridge.startWhenRunning(self)
    }

    /// The name of the display (`":0"`).
    public var displayName: String { connection.name }

    /// The scale factor for sizes given at 96 dpi: the desktop's `Xft/DPI` (XSETTINGS), else
    /// the `Xft.dpi` X resource, over 96. It changes when the desktop's does; windows and a
    /// shown tooltip are then laid out again (``onDesktopSettingsChange``).
    public var scale: Double { dpi / 96 }

    /// The monitors tooltips keep within: RandR 1.5's, or the whole screen without it.
    public var monitors: [Rect] { screen.monitors }

    /// Monitors to use instead of those RandR reports (nil: RandR's). For X servers that report
    /// one screen for several physical displays (nested and virtual servers), and for tests.
    public var monitorOverride: [Rect]? {
        get { screen.override }
        set { screen.override = newValue?.filter { $0.isFinite && !$0.isEmpty } }
    }

    /// Whether the connection to the X server was lost.
    public var isConnectionLost: Bool { connection.isBroken }

    /// Protocol errors received and survived (races count here too).
    public var protocolErrorCount: Int { connection.errorCount }

    /// Whether keys are translated through XKEYBOARD: false until the first window is on screen
    /// (or a key arrives), true after on a server with XKB. Asks the server (`XkbGetState`,
    /// which answers only on a display using XKB): for tests.
    @_spi(Testing)
    public var usesKeyboardExtension: Bool {
        guard connection.usesKeyboardExtension else { return false }
        var state = XkbStateRec()
        return XkbGetState(connection.display, UInt32(XkbUseCoreKbd), &state) == Success
    }

    /// Closes every window and, when X11UI opened it, the display.
    public func close() {
        guard !isClosed else { return }
        // The tooltip first (its window is one of the targets below), then every window:
        // top-level, embedded, and foreign ones (which get their owner's event mask back).
        toolTips.tearDown()
        selections.tearDown()
        xsettings?.stop()
        accessibility?.close()
        sessionBus?.close()
        for window in openWindows { window.close() }
        for case let window as Window in targets.values { window.close() }
        cursorStore?.releaseAll()
        resources.removeAll()
        targets.removeAll()
        sources.close()
        connection.flush()
        connection.close()
        isClosed = true
        if Application.current === self { Application.current = nil }
    }

    // MARK: - Running

    /// Runs the loop until `quit()` is called or the last window closes.
    ///
    /// - Throws: `X11UIError.connectionLost(name:)` when the X server goes away.
    public func run() throws(X11UIError) {
        quitRequested = false
        sources.warnIfOffMainThread()
        try turn()
        while !quitRequested && !isClosed {
            waitForActivity(timeout: nil)
            try turn()
        }
    }

    /// Runs the loop until `condition` holds or `timeout` passes; returns whether it held.
    @discardableResult
    public func run(
        until condition: () -> Bool, timeout: Duration = .seconds(5)
    ) throws(X11UIError) -> Bool {
        let end = MonotonicInstant.now() + timeout
        sources.warnIfOffMainThread()
        try turn()
        while !condition() {
            let now = MonotonicInstant.now()
            if now >= end || isClosed { return false }
            waitForActivity(timeout: end - now)
            try turn()
        }
        return true
    }

    /// Runs the loop for a while (tests and tours use it to let time pass).
    public func run(for duration: Duration) throws(X11UIError) {
        _ = try run(until: { false }, timeout: duration)
    }

    /// Makes `run()` return after the current turn.
    public func quit() { quitRequested = true }

    /// Processes what is pending; throws when the connection is gone.
    private func turn() throws(X11UIError) {
        processPending()
        if connection.isBroken { throw X11UIError.connectionLost(name: connection.name) }
    }

    /// Sleeps until the X connection or a source has data, a job is queued for the main actor,
    /// the next timer is due, or `timeout` passes.
    private func waitForActivity(timeout: Duration?) {
        guard !isClosed, connection.isUsable else { return }
        // Events Xlib already read (while painting, say) do not wake poll(): st's x.c does this.
        if XEventsQueued(connection.display, QueuedAlready) > 0 { return }
        var wait = timeout.map { max(0, $0.nanoseconds) }
        if let deadline = timers.nextDeadline {
            let untilTimer = max(0, (deadline - MonotonicInstant.now()).nanoseconds)
            wait = min(wait ?? untilTimer, untilTimer)
        }
        // ppoll sleeps to the nanosecond: a tooltip's 500 ms is 500 ms, not "up to 501".
        var descriptors = sources.pollDescriptors(connection: connection.fileDescriptor)
        let count = nfds_t(descriptors.count)
        if let wait {
            var span = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            _ = ppoll(&descriptors, count, &span, nil)
        } else {
            _ = ppoll(&descriptors, count, nil, nil)
        }
    }

    // MARK: - Windows

    /// A top-level window was created (its X window exists).
    func windowDidOpen(_ window: Window) {
        guard window.isTopLevel, !openWindows.contains(where: { $0 === window }) else { return }
        openWindows.append(window)
    }

    /// A window closed: when it was the last top-level window open and
    /// `quitsWhenLastWindowCloses` is set, `run()` returns after this turn.
    func windowDidClose(_ window: Window) {
        openWindows.removeAll { $0 === window }
        if window.isTopLevel, quitsWhenLastWindowCloses, openWindows.isEmpty { quit() }
    }

    // MARK: - Dispatch

    func register(_ target: any EventTarget, for window: UInt) { targets[window] = target }
    func unregister(window: UInt) { targets[window] = nil }
    func target(for window: UInt) -> (any EventTarget)? { targets[window] }

    /// Dispatches a translated event; returns whether it was X11UI's.
    @discardableResult
    func dispatch(_ event: Event) -> Bool {
        switch event {
        case .screenChange:
            screen.invalidateMonitors()
            return false
        case .selectionOwnerChange(let selection, let owner):
            if selection == connection.atoms.compositorSelection { screen.compositorChanged(owner: owner) }
            return false
        case .shownCursorChange:
            shownCursor.changed()
            return false
        default:
            if deferredStartupPending, case .expose = event { sawExpose = true }
            // The settings manager's events (on its window, and its MANAGER message on the
            // root): a host program that selected them itself gets them too.
            if let xsettings, event.window == connection.root || event.window == xsettings.managerWindow {
                let hostSelected = xsettings.hostSelects(event.window)
                if xsettings.handle(event) { return !hostSelected }
                if case .configure = event, !hostSelected { return true }  // the root's: X11UI's selection
            }
            guard let target = targets[event.window] else { return false }
            return target.handle(event)
        }
    }

    /// Motion compression: skips a motion event when another one for the same window is
    /// already queued, as GTK does, so a fast pointer costs one hit test per batch.
    func shouldCompress(_ event: inout XEvent) -> Bool {
        guard event.type == MotionNotify, XEventsQueued(connection.display, QueuedAlready) > 0 else { return false }
        var next = XEvent()
        XPeekEvent(connection.display, &next)
        return next.type == MotionNotify && next.xmotion.window == event.xmotion.window
            && next.xmotion.state == event.xmotion.state
    }

    /// Once the first window is on screen (or when no window is open), asks the server for
    /// what could wait: the extensions, the compositor's presence, RandR's and XFixes' events
    /// and the keyboard mapping; and writes the icons of the windows opened until then (their
    /// PNGs are decoded only now). Asked before the first window maps, each of these round trips
    /// would delay it (by the network's round trip on a remote display); asked now, they are
    /// done before the first tooltip, which then needs none.
    func finishStartupIfReady() {
        guard deferredStartupPending, connection.isUsable, sawExpose || openWindows.isEmpty else { return }
        deferredStartupPending = false
        _ = connection.extensions
        screen.startWatching()
        connection.prefetchKeyboardMapping()
        for window in openWindows where window.iconIsPending { window.writeIcon() }
        connection.flush()
        // Starting freed more than the heap's top can give back (fontconfig's parsing, fonts
        // and shaping tables read once, the icons decoded and written): its free pages go back
        // to the kernel (the whole demo 0.5 MB, the sample scene 0.1 MB).
        malloc_trim(0)
    }

    // MARK: - Layout and painting, once per turn

    func setNeedsUpdate(_ window: Window) {
        if !windowsNeedingUpdate.contains(where: { $0 === window }) { windowsNeedingUpdate.append(window) }
    }

    func updateWindows() {
        while !windowsNeedingUpdate.isEmpty, connection.isUsable {
            let windows = windowsNeedingUpdate
            windowsNeedingUpdate.removeAll()
            for window in windows { window.updateIfNeeded() }
        }
    }
}
