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
/// returns false for, calls `fireTimers(now:)` when `nextDeadline` passes, and `flush()` before
/// it blocks again.
extension Application {
    /// Receives the events `processPending()` reads that X11UI did not consume: the host's own
    /// windows' events, and those of a `ForeignWindow` (which the host handles too). Set it
    /// when the host shares its display with X11UI and lets `processPending()` do the reading.
    public var hostEventHandler: ((XEvent) -> Void)? {
        get { hostEvents }
        set { hostEvents = newValue }
    }

    /// The X connection's file descriptor, for a host loop's `poll` or `select`.
    public var fileDescriptor: Int32 { connection.fileDescriptor }

    /// Other descriptors X11UI needs polled (the accessibility bus, when one is connected),
    /// with the events to poll for. A host loop polls them beside `fileDescriptor` and calls
    /// `fireTimers(now:)` (or `processPending()`) when one is ready. The list changes as
    /// connections come and go: read it before each poll.
    public var additionalPollDescriptors: [pollfd] {
        sources.map { pollfd(fd: $0.fileDescriptor, events: $0.events, revents: 0) }
    }

    /// When X11UI next needs `processPending()` or `fireTimers(now:)` called, even if the
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
            let consumed = dispatch(translator.translate(&event))
            if !consumed, let hostEvents { hostEvents(event) }
        }
        fireTimers(now: .now())
        updateWindows()
        connection.flush()
    }

    /// Handles one event a host program read with `XNextEvent`.
    ///
    /// - Returns: whether X11UI consumed the event; pass unconsumed events on to the host's own
    ///   handling. Call `flush()` (or `processPending()`) once the host's batch of events is done.
    public func handle(_ event: XEvent) -> Bool {
        guard !isClosed, connection.isUsable else { return false }
        var copy = event
        let consumed = dispatch(translator.translate(&copy))
        updateWindows()
        return consumed
    }

    /// Fires the timers due at `now` (tooltip delays, for instance).
    public func fireTimers(now: MonotonicInstant = .now()) {
        handleReadySourcesWithoutWaiting()
        for timer in timers.removeDue(at: now) { timer.fire() }
        updateWindows()
    }

    /// Sends X11UI's buffered requests and waits until the server has processed them (one
    /// round trip: for tests and measurements, not for a program's normal flow).
    public func sync() {
        if connection.isUsable { XSync(connection.display, 0) }
    }

    /// Sends X11UI's buffered requests to the server.
    public func flush() { connection.flush() }

}
