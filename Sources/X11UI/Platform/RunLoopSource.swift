internal import CX11
internal import Glibc

/// A file descriptor the run loop watches besides the X connection (a D-Bus connection, a
/// pipe, a socket), with the handler it calls when the descriptor is ready.
///
/// Made by `Application.addSource(fileDescriptor:events:handler:)`; the run loop never closes the
/// descriptor. A handler must consume what made the descriptor ready (read the data, or remove
/// the source on `POLLHUP` or `POLLERR`), or the loop wakes again at once. A descriptor closed
/// without `removeSource(_:)` (`POLLNVAL`) gets one last call and is then removed.
@MainActor
final class RunLoopSource {
    let fileDescriptor: Int32
    let events: Int16
    let handler: @MainActor (_ revents: Int16) -> Void
    fileprivate(set) var isRemoved = false

    fileprivate init(fileDescriptor: Int32, events: Int16, handler: @escaping @MainActor (_ revents: Int16) -> Void) {
        self.fileDescriptor = fileDescriptor
        self.events = events
        self.handler = handler
    }
}

/// What the run loop waits on besides the X connection and the timers: the main queue of
/// libdispatch (where the main actor's jobs go on Linux) and the sources a program added; and,
/// for hosts that poll one descriptor, an epoll descriptor that aggregates them all.
@MainActor
final class RunLoopSources {
    /// libdispatch's main queue: its eventfd (-1 when it cannot be drained here) and callback.
    private let mainQueue: cx11_main_queue
    private(set) var sources: [RunLoopSource] = []
    /// The epoll descriptor a host polls (`Application.fileDescriptor`), made on first use.
    private var epoll: Int32 = -1
    /// Whether the main queue's jobs are running: a job that runs a loop of its own (a modal
    /// `run(until:)`) must not drain the queue again, as CFRunLoop never does from inside a
    /// main-queue callout; the jobs queued meanwhile run when it returns.
    private var isDraining = false
    /// Whether the off-main-thread warning was given (once per process).
    private static var warnedOffMainThread = false

    init() {
        mainQueue = cx11_main_queue_open()
    }

    isolated deinit {
        if epoll >= 0 { _ = Glibc.close(epoll) }
    }

    /// Whether the main actor's jobs run while the loop runs (false off the main thread).
    var drainsMainQueue: Bool { mainQueue.port >= 0 }

    /// The descriptors to sleep on, the X connection's first.
    func pollDescriptors(connection: Int32) -> [pollfd] {
        var descriptors = [pollfd(fd: connection, events: Int16(POLLIN), revents: 0)]
        if mainQueue.port >= 0, !isDraining {
            descriptors.append(pollfd(fd: mainQueue.port, events: Int16(POLLIN), revents: 0))
        }
        for source in sources {
            descriptors.append(pollfd(fd: source.fileDescriptor, events: source.events, revents: 0))
        }
        return descriptors
    }

    /// Runs the main queue's jobs when it has some, then the handlers of ready sources.
    func service() {
        drainMainQueue()
        guard !sources.isEmpty else { return }
        let snapshot = sources
        var descriptors = snapshot.map { pollfd(fd: $0.fileDescriptor, events: $0.events, revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), 0) > 0 else { return }
        for (source, descriptor) in zip(snapshot, descriptors) where descriptor.revents != 0 && !source.isRemoved {
            source.handler(descriptor.revents)
            if descriptor.revents & Int16(POLLNVAL) != 0 { remove(source) }
        }
    }

    /// Runs what is queued on the main queue, as CFRunLoop does on Linux: consume the eventfd's
    /// count first, so that work queued while the jobs run pokes it again and wakes the loop.
    func drainMainQueue() {
        guard mainQueue.port >= 0, !isDraining else { return }
        var count: UInt64 = 0
        guard read(mainQueue.port, &count, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size else { return }
        isDraining = true
        defer { isDraining = false }
        cx11_main_queue_drain(mainQueue)
    }

    /// Says once, on standard error, that a loop running off the main thread holds up the main
    /// actor (an `async` main, where Dispatch serves the main queue from worker threads).
    func warnIfOffMainThread() {
        guard !drainsMainQueue, !Self.warnedOffMainThread, cx11_is_main_thread() == 0 else { return }
        Self.warnedOffMainThread = true
        Log.warning(
            "the run loop is not on the process's main thread (an async main?): "
                + "jobs for the main actor wait until it returns; call run() from synchronous code")
    }

    // MARK: - Sources

    func add(fileDescriptor: Int32, events: Int16, handler: @escaping @MainActor (Int16) -> Void) -> RunLoopSource {
        let source = RunLoopSource(fileDescriptor: fileDescriptor, events: events, handler: handler)
        sources.append(source)
        if epoll >= 0 { watch(fileDescriptor, events: events) }
        return source
    }

    func remove(_ source: RunLoopSource) {
        guard !source.isRemoved else { return }
        source.isRemoved = true
        sources.removeAll { $0 === source }
        // Another source on the same descriptor keeps it in the epoll set.
        if epoll >= 0, !sources.contains(where: { $0.fileDescriptor == source.fileDescriptor }) {
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, source.fileDescriptor, nil)
        }
    }

    // MARK: - One descriptor for a host

    /// An epoll descriptor that is readable whenever the X connection, the main queue or a
    /// source is ready (level-triggered, so nothing needs reading from it); the X connection's
    /// descriptor when epoll is unavailable.
    func aggregate(connection: Int32) -> Int32 {
        if epoll >= 0 { return epoll }
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { return connection }
        watch(connection, events: Int16(POLLIN))
        if mainQueue.port >= 0 { watch(mainQueue.port, events: Int16(POLLIN)) }
        for source in sources { watch(source.fileDescriptor, events: source.events) }
        return epoll
    }

    private func watch(_ descriptor: Int32, events: Int16) {
        // poll's POLLIN, POLLPRI and POLLOUT have epoll's values.
        var event = epoll_event()
        event.events = UInt32(UInt16(bitPattern: events))
        event.data.fd = descriptor
        if epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) != 0, errno == EEXIST {
            var merged = event
            merged.events |= sources.filter { $0.fileDescriptor == descriptor }
                .reduce(0) { $0 | UInt32(UInt16(bitPattern: $1.events)) }
            _ = epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &merged)
        }
    }

    func close() {
        for source in sources { source.isRemoved = true }
        sources.removeAll()
        if epoll >= 0 { _ = Glibc.close(epoll) }
        epoll = -1
    }
}

// MARK: - Application

extension Application {
    /// Watches a file descriptor in the run loop: `handler` runs on the main actor with the
    /// ready events (`POLLIN`, `POLLHUP`, …) whenever `poll` reports any of `events` for it.
    ///
    /// The run loop sleeps on the descriptor with the X connection, so an idle source costs
    /// nothing; a host that drives X11UI from its own loop sees it through `fileDescriptor`.
    /// The handler must consume what made the descriptor ready, and remove the source when it
    /// hangs up. X11UI never closes the descriptor.
    @discardableResult
    func addSource(
        fileDescriptor: Int32, events: Int16, handler: @escaping @MainActor (_ revents: Int16) -> Void
    ) -> RunLoopSource {
        sources.add(fileDescriptor: fileDescriptor, events: events, handler: handler)
    }

    /// Stops watching a source's descriptor (it stays open); removing twice does nothing.
    func removeSource(_ source: RunLoopSource) {
        sources.remove(source)
    }
}
