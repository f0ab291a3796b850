public import CX11

/// Driving X11UI from a host program's own loop.
///
/// A program that polls itself watches `fileDescriptor` and `nextDeadline` and calls
/// `processPending()` when either comes due:
///
/// ```swift
/// var fds = [pollfd(fd: app.fileDescriptor, events: Int16(POLLIN), revents: 0), myFD]
/// let timeout = app.nextDeadline.map { Int32(max(0, ($0 - .now()).milliseconds)) } ?? -1
/// poll(&fds, 2, timeout)
/// app.processPending()
/// ```
///
/// A program that already calls `XNextEvent` passes each event to `handle(_:)`, keeps those it
/// returns false for, calls `processJobs()` after each batch (timers, jobs for the main actor),
/// and `flush()` before it blocks again on `fileDescriptor` (not only the X connection's: the
/// main actor's jobs and added sources wake it too).
extension Application {
    /// Receives the events `processPending()` reads that X11UI did not consume: the host's own
    /// windows' events, and those of a `ForeignWindow` (which the host handles too). Set it
    /// when the host shares its display with X11UI and lets `processPending()` do the reading.
    public var hostEventHandler: ((XEvent) -> Void)? {
        get { hostEvents }
        set { hostEvents = newValue }
    }

    /// The one descriptor a host loop polls (`poll`, `select`, `epoll`) for X11UI: readable when
    /// the X connection has data, when a job is queued for the main actor or on
    /// `DispatchQueue.main`, or when a source the application watches is ready. It is an epoll
    /// descriptor over all of them (level-triggered: nothing needs reading from it); call
    /// `processPending()`, or `processJobs()` in a loop that reads X events itself, when it is
    /// readable. Valid until `close()`.
    public var fileDescriptor: Int32 { isClosed ? -1 : sources.aggregate(connection: connection.fileDescriptor) }

    /// When X11UI next needs `processPending()` or `processJobs()` called, even if the
    /// connection stays quiet; nil when no timer is pending.
    public var nextDeadline: MonotonicInstant? { timers.nextDeadline }

    /// Reads and handles every event waiting on the connection, fires due timers, lays out and
    /// paints what changed, and flushes. Call it when the file descriptor is readable or the
    /// deadline passes. Events that are not X11UI's go to `hostEventHandler`.
    public func processPending() {
        guard !isClosed, connection.isUsable else { return }
        let display = connection.display
        var event = XEvent()
        while connection.isUsable, XPending(display) > 0 {
            XNextEvent(display, &event)
            if hostEvents == nil, shouldCompress(&event) { continue }
            if Self.isKeyboardEvent(event) { connection.useDeferredKeyboardExtension() }
            let consumed = dispatch(translator.translate(&event))
            if !consumed, let hostEvents { hostEvents(event) }
        }
        processJobs()
        connection.flush()
        finishStartupIfReady()
    }

    /// Handles one event a host program read with `XNextEvent`.
    ///
    /// - Returns: whether X11UI consumed the event; pass unconsumed events on to the host's own
    ///   handling. Call `flush()` (or `processPending()`) once the host's batch of events is done.
    public func handle(_ event: XEvent) -> Bool {
        guard !isClosed, connection.isUsable else { return false }
        var copy = event
        if Self.isKeyboardEvent(event) { connection.useDeferredKeyboardExtension() }
        let consumed = dispatch(translator.translate(&copy))
        updateWindows()
        return consumed
    }

    /// Runs the work that X events do not bring: due timers, the jobs queued for the main
    /// actor and on `DispatchQueue.main`, and the handlers of ready sources; then lays out and
    /// paints what they changed. A host that reads events itself calls it after each batch of
    /// events and whenever `fileDescriptor` is readable or `nextDeadline` passes
    /// (`processPending()` calls it too).
    public func processJobs() {
        guard !isClosed else { return }
        fireTimers(now: .now())
        sources.service()
        updateWindows()
        resources.fonts.releaseFaces()
    }

    /// Whether translating the event looks keys up: XKEYBOARD, if it still waits for the first
    /// window, is set up before that (see `DisplayConnection.useDeferredKeyboardExtension`).
    private static func isKeyboardEvent(_ event: XEvent) -> Bool {
        event.type == KeyPress || event.type == KeyRelease || event.type == MappingNotify
    }

    /// Sends X11UI's buffered requests and waits until the server has processed them (one
    /// round trip: for tests and measurements, not for a program's normal flow).
    public func sync() {
        if connection.isUsable { XSync(connection.display, 0) }
    }

    /// Sends X11UI's buffered requests to the server.
    ///
    /// Once X11UI's first window is on screen, a call also does the start-up work that waited
    /// for it (the extensions, the compositor's presence, the keyboard mapping: a few round
    /// trips, once), so that the first tooltip needs none.
    public func flush() {
        connection.flush()
        finishStartupIfReady()
    }

}
