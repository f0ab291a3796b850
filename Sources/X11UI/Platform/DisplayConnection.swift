internal import CX11
internal import CX11Internal
internal import Glibc

/// One connection to an X server: the `Display*`, its default screen, the interned atoms and
/// the extensions X11UI uses.
///
/// It closes the display only when it opened it; a host program's display stays the host's.
final class DisplayConnection {
    let display: OpaquePointer
    /// Whether X11UI opened the display (and so closes it).
    let ownsDisplay: Bool
    /// The display's name as the user would type it (`:0`).
    let name: String
    let screen: Int32
    let root: UInt
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    let colormap: UInt
    /// The database X11UI gave Xlib for `XGetDefault` (Xlib does not free one it was given).
    private let defaultsDatabase: XrmDatabase?
    /// The colormap X11UI created for a TrueColor visual that is not the screen's default.
    private let ownedColormap: UInt?
    let atoms: Atoms
    /// Xft.dpi from the RESOURCE_MANAGER property read at connection time (96 when unset).
    let dpi: Double
    /// The X resources X11UI reads (`Xft.dpi` and the tooltip attributes), parsed once at
    /// connection time.
    let resources: XResources

    /// Set once the connection is gone; every later X call is skipped.
    private(set) var isBroken = false
    /// Protocol errors received and swallowed.
    private(set) var errorCount = 0
    /// Of those, the harmless races (`BadWindow` and friends on vanished resources).
    private(set) var raceCount = 0
    /// The most recent error, for tests and diagnostics.
    private(set) var lastError: XProtocolError?
    /// Resources X11UI created on a borrowed display; their errors are X11UI's to swallow.
    private var ownedResources: Set<UInt> = []
    /// Windows that want touch events, made before the extensions were asked for
    /// (DisplayConnection+Touch.swift).
    var touchWindowsWaiting: Set<UInt> = []

    /// How long a server may take to complete the connection (its setup and the replies
    /// `XOpenDisplay` waits for), unless the program or `X11UI_CONNECT_TIMEOUT` (seconds) says
    /// otherwise.
    static let defaultConnectTimeout = Duration.seconds(5)

    /// Opens a display by name (nil or empty: `$DISPLAY`), giving up when its server has not
    /// completed the connection within `timeout` (nil: `X11UI_CONNECT_TIMEOUT` or the default).
    convenience init(name requested: String?, timeout requestedTimeout: Duration? = nil) throws(X11UIError) {
        let name = (requested?.isEmpty == false ? requested : nil) ?? Environment.value("DISPLAY") ?? ""
        guard !name.isEmpty else { throw X11UIError.noDisplay }
        let seconds = Environment.value("X11UI_CONNECT_TIMEOUT").flatMap(Double.init).flatMap {
            $0 > 0 && $0 <= 3600 ? $0 : nil
        }
        let timeout = requestedTimeout ?? seconds.map { .milliseconds(Int64($0 * 1000)) } ?? Self.defaultConnectTimeout
        XErrorTrap.install()
        let opened = try DisplayOpener.open(name, timeout: timeout)
        let display = opened.display
        // The atoms' requests go first, unanswered; the RENDER check's round trip brings their
        // replies along (one round trip for both).
        let atoms = Atoms.Pending(display: display, screen: XDefaultScreen(display))
        if let reason = Self.unsupportedReason(display) {
            atoms.discard()
            XCloseDisplay(display)
            throw X11UIError.unsupportedDisplay(name: name, reason: reason)
        }
        self.init(display: display, owns: true, name: name, atoms: atoms)
        keyboardExtensionDeferred = opened.keyboardExtensionDeferred && cx11_xkb_in_use(display) == 0
    }

    /// Why X11UI cannot draw on a display, or nil when it can.
    ///
    /// RENDER is required rather than worked around: Xft draws text only through it (its core
    /// protocol path knows only the server's bitmap fonts, with no fontconfig fallback, emoji or
    /// shaping), and cairo without it composites every shape on the client. Every X server
    /// of this century has it (Xorg, Xvfb, Xwayland, Xephyr, the VNC servers); one started with
    /// `-extension RENDER` would show mapped tooltips with nothing drawn in them, so the program
    /// is told at start instead. The same goes for a screen with no TrueColor visual at its
    /// default depth (pixel values are computed from the visual's masks, as on TrueColor).
    static func unsupportedReason(_ display: OpaquePointer) -> String? {
        var event: Int32 = 0
        var error: Int32 = 0
        guard XRenderQueryExtension(display, &event, &error) != 0 else {
            return "the X server lacks the RENDER extension, which X11UI draws text and shapes with"
        }
        let screen = XDefaultScreen(display)
        var info = XVisualInfo()
        guard
            XDefaultVisual(display, screen).pointee.class == TrueColor
                || XMatchVisualInfo(display, screen, XDefaultDepth(display, screen), TrueColor, &info) != 0
        else {
            return "the screen has no TrueColor visual at depth \(XDefaultDepth(display, screen))"
        }
        return nil
    }

    /// Wraps an open display. When `owns` is false the host keeps it and its error handlers.
    init(display: OpaquePointer, owns: Bool, name: String? = nil, atoms pendingAtoms: Atoms.Pending? = nil) {
        XErrorTrap.install()
        self.display = display
        self.ownsDisplay = owns
        self.name = name ?? String(cString: XDisplayString(display))
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        depth = XDefaultDepth(display, screen)
        // A DirectColor default visual (`Xvfb -cc 5`) has an empty default colormap: every
        // pixel would show black. Windows use a TrueColor visual of the same depth instead,
        // with a colormap of their own.
        var info = XVisualInfo()
        if XDefaultVisual(display, screen).pointee.class != TrueColor,
            XMatchVisualInfo(display, screen, depth, TrueColor, &info) != 0, let trueColor = info.visual
        {
            visual = trueColor
            colormap = XCreateColormap(display, root, trueColor, AllocNone)
            ownedColormap = colormap
        } else {
            visual = XDefaultVisual(display, screen)
            colormap = XDefaultColormap(display, screen)
            ownedColormap = nil
        }
        atoms = Atoms(pendingAtoms ?? Atoms.Pending(display: display, screen: screen))
        let resourceText = XResourceManagerString(display).map { String(cString: $0) } ?? ""
        resources = XResources(resourceText, attributes: Application.resourceAttributes.union(["dpi"]))
        // Xft, cairo and Xcursor read their settings with XGetDefault, which parses the whole
        // RESOURCE_MANAGER into Xlib's database on first use: a 1.4 MB database took Xlib 1.6 s
        // and 8 MB. Xlib gets a database of the entries those libraries can match instead.
        if owns, !resourceText.isEmpty {
            let relevant = XResources.lines(in: resourceText, forPrograms: ["Xft", "Xcursor", "Program"])
            defaultsDatabase = XrmGetStringDatabase(relevant)
            XrmSetDatabase(display, defaultsDatabase)
        } else {
            defaultsDatabase = nil
        }
        dpi = resources.double("Xft.dpi").flatMap { $0 >= 24 && $0 <= 960 ? $0 : nil } ?? 96
        XErrorTrap.connections[display] = self
        if !owns, let reason = Self.unsupportedReason(display) { Log.warning("display \"\(self.name)\": \(reason)") }
        if owns { XSetIOErrorExitHandler(display, XErrorTrap.ioErrorExitHandler, nil) }
    }

    // MARK: - Work that waits until the first window shows

    /// The extensions, asked for on first use.
    var extensions: Extensions {
        if let queriedExtensions { return queriedExtensions }
        guard isUsable else { return .none }
        let queried = Extensions(display: display, touch: ownsDisplay)
        queriedExtensions = queried
        selectTouchOnWaitingWindows()
        return queried
    }

    /// The extensions, if they were asked for already (events of the others cannot arrive:
    /// nothing selected them).
    private(set) var queriedExtensions: Extensions?

    /// Fetches the keyboard mapping. Xlib fetches it on the first key press otherwise: a round
    /// trip in the middle of an interaction (Escape on a tooltip).
    func prefetchKeyboardMapping() {
        useDeferredKeyboardExtension()
        if isUsable { _ = XKeysymToKeycode(display, 0xff1b) }
    }

    /// Whether XKEYBOARD is still to be set up: X11UI opens its display with Xlib's XKB set-up
    /// skipped (two round trips before the first window could map) and sets it up once the
    /// first window is on screen, or before the first key event is translated, whichever
    /// comes first. Key translation then goes through XKB as on a display opened normally.
    private(set) var keyboardExtensionDeferred = false

    /// Sets XKEYBOARD up now if it was deferred (two round trips, once). It must run before
    /// anything loads Xlib's core keyboard mapping (a key lookup), which would keep the display
    /// on core key translation.
    func useDeferredKeyboardExtension() {
        guard keyboardExtensionDeferred, isUsable else { return }
        keyboardExtensionDeferred = false
        var major: Int32 = 0
        var minor: Int32 = 0
        if cx11_xkb_use(display, &major, &minor) == 0 {
            Log.debug("XKEYBOARD is not in use on \(name): keys are translated with the core mapping")
        }
    }

    /// Whether key translation on the display goes through XKEYBOARD (for tests).
    var usesKeyboardExtension: Bool { isUsable && cx11_xkb_in_use(display) != 0 }

    /// Closes the display if X11UI opened it; forgets it either way.
    ///
    /// A display whose server is gone is not closed but left allocated: XCloseDisplay on it
    /// skips the extensions' close hooks (Xrender, Xft, cairo and Xext keep per-display records),
    /// and a later connection that malloc placed at the same address would inherit those stale
    /// records — wrong extension opcodes on a healthy connection. A few kilobytes stay behind
    /// instead, once per lost server.
    func close() {
        guard XErrorTrap.connections[display] === self else { return }
        if !isBroken, Self.peerHasClosed(XConnectionNumber(display)) { isBroken = true }
        XErrorTrap.connections[display] = nil
        if let ownedColormap, !isBroken { XFreeColormap(display, ownedColormap) }
        isClosed = true
        if ownsDisplay, !isBroken {
            XCloseDisplay(display)
            if let defaultsDatabase { XrmDestroyDatabase(defaultsDatabase) }
        }
    }

    /// Whether the server end of a connection has closed (without reading anything).
    static func peerHasClosed(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        if descriptor.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    // MARK: - Errors

    /// Whether an error about `resource` is X11UI's to handle.
    func claims(errorOn resource: UInt) -> Bool {
        ownsDisplay || ownedResources.contains(resource)
    }

    /// Notes a resource X11UI created or watches on a borrowed display.
    func adopt(_ resource: UInt) {
        if !ownsDisplay { ownedResources.insert(resource) }
    }

    /// Forgets a resource X11UI freed or stopped watching.
    func release(_ resource: UInt) {
        if !ownsDisplay { ownedResources.remove(resource) }
    }

    func record(_ event: XErrorEvent) {
        let error = XProtocolError(
            errorCode: event.error_code, requestCode: event.request_code, minorCode: event.minor_code,
            resourceID: UInt(event.resourceid), serial: UInt(event.serial))
        errorCount += 1
        lastError = error
        if error.isRace {
            raceCount += 1
            Log.debug("ignored \(error) (a resource that vanished)")
        } else {
            Log.warning("\(error) on \(name)")
        }
    }

    func markBroken() { isBroken = true }

    /// Set once X11UI let go of the display (and closed it, if it was X11UI's).
    private(set) var isClosed = false

    /// Whether X calls may be made: the server is there and the display is still open. Objects
    /// freed after `close()` (fonts, pixmaps, colormaps) skip their X calls.
    var isUsable: Bool { !isBroken && !isClosed }

    // MARK: - Connection state

    /// The file descriptor of the connection, for `poll`.
    var fileDescriptor: Int32 { XConnectionNumber(display) }

    /// Sends buffered requests.
    func flush() {
        if isUsable { XFlush(display) }
    }

    /// The serial number the next request will get; its differences count requests.
    var nextRequestSerial: UInt { !isUsable ? 0 : UInt(XNextRequest(display)) }
}
