internal import CX11
internal import CX11Internal

/// Routes Xlib's process-wide error callbacks to the connection they concern.
///
/// Xlib has one protocol-error handler and one I/O-error handler per process. X11UI installs its
/// own once, remembers the ones that were there before, and hands a host program's errors back to
/// the host's handlers: an embedded X11UI must not swallow errors that belong to its host.
enum XErrorTrap {
    /// Connections X11UI knows, by their `Display*`.
    nonisolated(unsafe) static var connections: [OpaquePointer: DisplayConnection] = [:]
    nonisolated(unsafe) private static var previousErrorHandler: XErrorHandler?
    nonisolated(unsafe) private static var previousIOErrorHandler: XIOErrorHandler?
    nonisolated(unsafe) private static var installed = false

    /// Installs the handlers once per process.
    static func install() {
        guard !installed else { return }
        installed = true
        previousErrorHandler = XSetErrorHandler(protocolErrorHandler)
        // Through open.c's handler, which ends an open in progress on its thread instead
        // (DisplayOpener) and passes every other I/O error on to this one.
        previousIOErrorHandler = cx11_set_io_error_handler(ioErrorHandler)
    }

    // MARK: - Protocol errors

    private static let protocolErrorHandler: XErrorHandler = { display, event in
        guard let display, let event else { return 0 }
        guard let connection = XErrorTrap.connections[display],
            connection.claims(errorOn: UInt(event.pointee.resourceid))
        else {
            // Not ours: the host program's own handler decides (Xlib's default exits).
            return XErrorTrap.previousErrorHandler?(display, event) ?? 0
        }
        connection.record(event.pointee)
        return 0
    }

    // MARK: - I/O errors (the server went away)

    private static let ioErrorHandler: XIOErrorHandler = { display in
        guard let display, let connection = XErrorTrap.connections[display], connection.ownsDisplay
        else {
            return XErrorTrap.previousIOErrorHandler?(display) ?? 0
        }
        connection.markBroken()
        return 0
    }

    /// The per-display exit hook (libX11 ≥ 1.7): returning from it, instead of calling `exit`,
    /// lets the in-flight Xlib call unwind; the run loop then sees the broken connection and
    /// returns with `X11UIError.connectionLost`.
    static let ioErrorExitHandler: XIOErrorExitHandler = { display, _ in
        guard let display, let connection = XErrorTrap.connections[display] else { return }
        connection.markBroken()
    }
}
