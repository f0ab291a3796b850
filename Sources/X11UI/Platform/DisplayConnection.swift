internal import CX11
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
    let atoms: Atoms
    /// Xft.dpi from the RESOURCE_MANAGER property read at connection time (96 when unset).
    let dpi: Double
    /// The X resource database text, as read at connection time.
    let resourceString: String

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

    /// Opens a display by name (nil or empty: `$DISPLAY`).
    convenience init(name requested: String?) throws(X11UIError) {
        let name = (requested?.isEmpty == false ? requested : nil) ?? Environment.value("DISPLAY") ?? ""
        guard !name.isEmpty else { throw X11UIError.noDisplay }
        XErrorTrap.install()
        guard let display = XOpenDisplay(name) else { throw X11UIError.cannotOpenDisplay(name: name) }
        self.init(display: display, owns: true, name: name)
    }

    /// Wraps an open display. When `owns` is false the host keeps it and its error handlers.
    init(display: OpaquePointer, owns: Bool, name: String? = nil) {
        XErrorTrap.install()
        self.display = display
        self.ownsDisplay = owns
        self.name = name ?? String(cString: XDisplayString(display))
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        visual = XDefaultVisual(display, screen)
        depth = XDefaultDepth(display, screen)
        colormap = XDefaultColormap(display, screen)
        atoms = Atoms(display: display, screen: screen)
        resourceString = XResourceManagerString(display).map { String(cString: $0) } ?? ""
        dpi = XResources(resourceString).double("Xft.dpi").flatMap { $0 >= 24 && $0 <= 960 ? $0 : nil } ?? 96
        XErrorTrap.connections[display] = self
        if owns { XSetIOErrorExitHandler(display, XErrorTrap.ioErrorExitHandler, nil) }
    }

    // MARK: - Work that waits until the first window shows

    /// The extensions, asked for on first use.
    var extensions: Extensions {
        if let queriedExtensions { return queriedExtensions }
        guard isUsable else { return .none }
        let queried = Extensions(display: display)
        queriedExtensions = queried
        return queried
    }

    /// The extensions, if they were asked for already (events of the others cannot arrive:
    /// nothing selected them).
    private(set) var queriedExtensions: Extensions?

    /// Fetches the keyboard mapping. Xlib fetches it on the first key press otherwise: a round
    /// trip in the middle of an interaction (Escape on a tooltip).
    func prefetchKeyboardMapping() {
        if isUsable { _ = XKeysymToKeycode(display, 0xff1b) }
    }

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
        isClosed = true
        if ownsDisplay, !isBroken { XCloseDisplay(display) }
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
