internal import CDBus
internal import Glibc

/// libdbus-1, opened on first use (see Sources/CDBus/shim.h for why it is not linked).
@MainActor
enum DBusLibrary {
    /// The function table, or nil when libdbus-1 is not installed.
    static let shared: UnsafeMutablePointer<cdbus>? = {
        let table = UnsafeMutablePointer<cdbus>.allocate(capacity: 1)
        guard cdbus_load(table) != 0 else {
            table.deallocate()
            return nil
        }
        return table
    }()
}

/// A private connection to a D-Bus bus, driven by the application's run loop: its socket is a
/// `RunLoopSource`, libdbus's timeouts are `EventTimer`s, and incoming messages are dispatched
/// on the main actor. No thread, and nothing happens while the bus is quiet.
@MainActor
final class DBusConnection {
    let library: UnsafeMutablePointer<cdbus>
    private let raw: OpaquePointer
    unowned let application: Application
    /// The connection's unique name on the bus (":1.42"); empty until the bus said it.
    private(set) var uniqueName = ""
    /// Receives method calls and signals; returns whether it handled the message.
    var onMessage: ((DBusMessage) -> Bool)?
    /// Called once when the bus goes away.
    var onDisconnect: (() -> Void)?
    /// Called after each batch of incoming messages was handed out (replies and signals read
    /// together are then acted on together).
    var onDispatched: (() -> Void)?

    var watches: [OpaquePointer: RunLoopSource] = [:]
    var timeouts: [OpaquePointer: EventTimer] = [:]
    /// Which arming of each timeout its timer belongs to (libdbus may toggle it from inside).
    var timeoutGenerations: [OpaquePointer: Int] = [:]
    var nextGeneration = 0
    /// Handlers of the replies to calls sent with `call(_:timeout:reply:)`, by serial.
    var pendingReplies: [UInt32: (handler: (DBusMessage?, String?) -> Void, timer: EventTimer)] = [:]
    var dispatchTimer: EventTimer?
    private(set) var isClosed = false
    /// Called once the bus answered the hello (`uniqueName` is set), or with false when it
    /// refused it or gave no answer in time (the connection is closed then).
    private var onHello: ((Bool) -> Void)?

    /// The largest message X11UI reads: 64 KiB. What it receives is small (a settings
    /// portal's answer is a few hundred bytes, GNOME's whole interface settings about 4 KB;
    /// AT-SPI's requests and the registry's listeners a few KB), and this is 16 times the most
    /// of it. libdbus reads a message's 16-byte header first: a larger one is never read or
    /// allocated, and the connection is dropped (libdbus's rule for a stream it will not read
    /// on), to be made again by its owner.
    static let maximumMessageSize = 64 * 1024

    /// How long the bus may take to authenticate and answer the hello before the connection
    /// is given up (nothing waits for it meanwhile).
    static let helloTimeout = Duration.seconds(10)

    /// Connects to the bus at `address` without waiting: the socket's connect, then the
    /// authentication and the hello go on through the run loop. `connected` gets the
    /// connection once the bus gave it its unique name, or nil when nothing listens there, or
    /// the bus refused or did not answer within `timeout` (a socket that accepts and never
    /// speaks costs one timer, nothing more).
    static func connect(
        to address: String, application: Application, timeout: Duration = helloTimeout,
        connected: @escaping (DBusConnection?) -> Void
    ) {
        guard let beginning = begin(connectingTo: address) else {
            connected(nil)
            return
        }
        var connection: DBusConnection?
        // The connection holds this closure (and so itself) until the hello is answered, timed
        // out or the connection closed: each calls it once.
        connection = DBusConnection(continuing: beginning, application: application, timeout: timeout) { ok in
            let made = connection
            connection = nil
            connected(ok ? made : nil)
        }
    }

    /// A connection begun before the application that drives it exists (its socket connected,
    /// the first line of its authentication written), taken by `init(continuing:application:)`.
    struct Beginning {
        fileprivate let raw: OpaquePointer
        fileprivate let library: UnsafeMutablePointer<cdbus>

        func abandon() {
            library.pointee.connection_close(raw)
            library.pointee.connection_unref(raw)
        }
    }

    /// Begins connecting to the bus at `address` without waiting for it; nil when there is no
    /// libdbus-1 or nothing listens at `address`.
    static func begin(connectingTo address: String) -> Beginning? {
        guard let library = DBusLibrary.shared, let connection = open(address, library) else { return nil }
        _ = library.pointee.connection_read_write(connection, 0)
        return Beginning(raw: connection, library: library)
    }

    /// Goes on connecting without waiting: the authentication and the hello go on through the
    /// run loop (or `pump()`), with every message sent meanwhile queued behind them. `hello`
    /// hears how the hello went (a connection without an answer within `timeout` is closed).
    convenience init(
        continuing beginning: Beginning, application: Application, timeout: Duration = .seconds(25),
        hello: ((Bool) -> Void)? = nil
    ) {
        self.init(beginning.raw, library: beginning.library, application: application)
        onHello = hello
        // The hello is the first message on the connection, as the bus requires.
        let message = methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "Hello")
        guard let message else {
            close()
            return
        }
        call(message, timeout: timeout) { [weak self] reply in
            guard let self else { return }
            let answered = self.onHello
            self.onHello = nil
            if let name = reply?.arguments.first?.stringValue {
                self.uniqueName = name
                answered?(true)
            } else {
                self.disconnected()
                answered?(false)
            }
        }
    }

    private init(_ connection: OpaquePointer, library: UnsafeMutablePointer<cdbus>, application: Application) {
        self.library = library
        self.raw = connection
        self.application = application
        installCallbacks()
    }

    /// How long libdbus's connect may wait: a bus accepts at once; a socket whose listen queue
    /// is kept full (any process can name its own socket as the accessibility bus) would hold
    /// the program for good.
    static let connectLimit = Duration.milliseconds(500)

    /// A private connection to `address` (a socket connect, no round trip, at most
    /// `connectLimit`), or nil.
    private static func open(_ address: String, _ library: UnsafeMutablePointer<cdbus>) -> OpaquePointer? {
        let d = library.pointee
        let opening = Opening(address: address, library: library)
        let limit = connectLimit.components
        let timedOut = withExtendedLifetime(opening) {
            cdbus_call_bounded(
                { data in
                    guard let data else { return }
                    Unmanaged<Opening>.fromOpaque(data).takeUnretainedValue().open()
                }, Unmanaged.passUnretained(opening).toOpaque(),
                Int(limit.seconds * 1000 + limit.attoseconds / 1_000_000_000_000_000)) != 0
        }
        guard let connection = opening.connection else {
            if timedOut {
                Log.warning("the bus at \"\(address.prefix(64))\" did not take the connection in time; not used")
            }
            return nil
        }
        // A library never exits: libdbus would call _exit() when the bus goes away.
        d.connection_set_exit_on_disconnect(connection, 0)
        d.connection_set_max_message_size(connection, maximumMessageSize)
        return connection
    }

    /// What `open` hands to the bounded call, and what the call leaves.
    private final class Opening: @unchecked Sendable {
        let address: String
        let library: UnsafeMutablePointer<cdbus>
        var connection: OpaquePointer?

        init(address: String, library: UnsafeMutablePointer<cdbus>) {
            self.address = address
            self.library = library
        }

        func open() {
            let d = library.pointee
            var error = cdbus_error()
            d.error_init(&error)
            defer { d.error_free(&error) }
            connection = address.withCString { d.connection_open_private($0, &error) }
        }
    }

    var connection: OpaquePointer { raw }

    isolated deinit {
        // Only libdbus's side: the application may be going away too (its sources and timers
        // go with it).
        guard !isClosed else { return }
        isClosed = true  // the callbacks libdbus makes while its functions are unset do nothing
        let d = library.pointee
        _ = d.connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        _ = d.connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        d.connection_set_dispatch_status_function(connection, nil, nil, nil)
        d.connection_close(connection)
        d.connection_unref(connection)
    }

    /// Closes the connection and stops polling it.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        let d = library.pointee
        // Callbacks first, so closing does not call back into a connection being torn down.
        _ = d.connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        _ = d.connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        d.connection_set_dispatch_status_function(connection, nil, nil, nil)
        for source in watches.values { application.removeSource(source) }
        for timer in timeouts.values { timer.cancel() }
        watches.removeAll()
        timeouts.removeAll()
        dispatchTimer?.cancel()
        for pending in pendingReplies.values { pending.timer.cancel() }
        pendingReplies.removeAll()
        d.connection_close(connection)
        d.connection_unref(connection)
        let hello = onHello
        onHello = nil
        hello?(false)
    }

    // MARK: - Messages

    /// A method call to send or call.
    func methodCall(
        destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = []
    )
        -> DBusMessage?
    {
        guard let message = library.pointee.message_new_method_call(destination, path, interface, member) else {
            return nil
        }
        let result = DBusMessage(adopting: message, library: library)
        return result.append(arguments) ? result : nil
    }

    /// A signal from `path`.
    func signal(path: String, interface: String, member: String, _ arguments: [DBusValue]) -> DBusMessage? {
        guard let message = library.pointee.message_new_signal(path, interface, member) else { return nil }
        let result = DBusMessage(adopting: message, library: library)
        return result.append(arguments) ? result : nil
    }

    /// The reply to a method call, with its return values.
    func reply(to call: DBusMessage, _ values: [DBusValue]) -> DBusMessage? {
        guard let message = library.pointee.message_new_method_return(call.raw) else { return nil }
        let result = DBusMessage(adopting: message, library: library)
        return result.append(values) ? result : nil
    }

    /// An error reply to a method call.
    func errorReply(to call: DBusMessage, name: String, message text: String) -> DBusMessage? {
        library.pointee.message_new_error(call.raw, name, text).map {
            DBusMessage(adopting: $0, library: library)
        }
    }

    /// Queues a message; the run loop writes it when the socket can take it.
    func send(_ message: DBusMessage) {
        guard !isClosed else { return }
        _ = library.pointee.connection_send(connection, message.raw, nil)
    }

    /// Sends a method call; `reply` gets its reply, or nil for an error reply or none within
    /// `timeout`. Nothing blocks: the reply arrives through the run loop.
    func call(_ message: DBusMessage, timeout: Duration = .seconds(5), reply: @escaping (DBusMessage?) -> Void) {
        call(message, timeout: timeout) { (answer: DBusMessage?, _: String?) in reply(answer) }
    }

    /// Sends a method call; `reply` gets its reply, or nil and the error's name for an error
    /// reply, or nil and nil for none within `timeout`.
    func call(
        _ message: DBusMessage, timeout: Duration = .seconds(5),
        reply: @escaping (_ reply: DBusMessage?, _ errorName: String?) -> Void
    ) {
        var serial: UInt32 = 0
        guard !isClosed, library.pointee.connection_send(connection, message.raw, &serial) != 0 else {
            reply(nil, nil)
            return
        }
        let timer = application.schedule(after: timeout) { [weak self] in
            self?.pendingReplies.removeValue(forKey: serial)?.handler(nil, nil)
        }
        pendingReplies[serial] = (reply, timer)
    }

    /// Reads and writes what the socket allows at once, without waiting, and dispatches what
    /// came: for start-up, to move the connection on before the run loop first polls it. Each
    /// step of libdbus reads or writes once (the authentication is a few lines each way), so a
    /// few are taken: those with nothing to do cost a `poll` that returns at once. The first
    /// waits up to `timeout` when one is given. Returns whether the connection is still open.
    @discardableResult
    func pump(steps: Int = 4, waitingUpTo timeout: Duration = .zero) -> Bool {
        var wait = Int32(clamping: max(0, (timeout.nanoseconds + 999_999) / 1_000_000))
        for _ in 0..<steps where !isClosed {
            guard library.pointee.connection_read_write(connection, wait) != 0 else { break }
            wait = 0
        }
        dispatch()
        return !isClosed
    }

    /// Whether data waits on the socket (for tests: nothing is read).
    var hasDataToRead: Bool {
        watches.values.contains { source in
            var descriptor = pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, 0) > 0
        }
    }

    /// Asks the bus to route signals matching `rule` here, without waiting for its answer (the
    /// bus takes messages in order, so the rule is in place before any call sent after it
    /// reaches its destination: a signal sent after that call's answer is not missed).
    func addMatch(_ rule: String) {
        guard !isClosed else { return }
        library.pointee.bus_add_match(connection, rule, nil)
    }

    /// Hands every queued incoming message to `onMessage`.
    func dispatch() {
        dispatchTimer = nil
        guard !isClosed else { return }
        let d = library.pointee
        while !isClosed, d.connection_dispatch(connection) == Int32(CDBUS_DISPATCH_DATA_REMAINS) {}
        if !isClosed, d.connection_get_is_connected(connection) == 0 { disconnected() }
        onDispatched?()
    }

    func scheduleDispatch() {
        guard dispatchTimer == nil, !isClosed else { return }
        dispatchTimer = application.schedule(after: .zero) { [weak self] in self?.dispatch() }
    }

    func disconnected() {
        let handler = onDisconnect
        onDisconnect = nil
        close()
        handler?()
    }
}
