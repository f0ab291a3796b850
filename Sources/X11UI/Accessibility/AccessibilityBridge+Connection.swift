/// The accessibility bus: found and connected once the application runs, and connected again
/// after a loss, as the session bus is.
extension AccessibilityBridge {
    /// Starts looking for the accessibility bus on the first turn of the run loop (the first
    /// window paints first), unless `NO_AT_BRIDGE=1` says not to (GTK's switch).
    static func startWhenRunning(_ application: Application) {
        guard Environment.value("NO_AT_BRIDGE") != "1" else { return }
        connect(application, after: .zero, retry: nil)
    }

    /// Finds the bus and connects to it after `delay`, through the run loop (a bus that never
    /// answers its hello costs nothing). `retry` is nil at start, where no bus means none for
    /// the program's life; after a loss, a bus not found or refused is tried again later.
    private static func connect(_ application: Application, after delay: Duration, retry: SessionBusRetry?) {
        application.schedule(after: delay) { [weak application] in
            guard let application = waiting(application) else { return }
            AccessibilityBus.findAddress(for: application) { [weak application] address in
                guard let application = waiting(application) else { return }
                guard let address else { return tryAgain(application, retry: retry) }
                DBusConnection.connect(to: address, application: application) { [weak application] bus in
                    guard let application = waiting(application) else {
                        bus?.close()
                        return
                    }
                    guard let bus else { return tryAgain(application, retry: retry) }
                    var connected = retry ?? SessionBusRetry()
                    connected.connectedAt = .now()
                    connected.failures = 0
                    application.accessibility = AccessibilityBridge(
                        application: application, bus: bus, retry: connected)
                }
            }
        }
    }

    /// `application` while it runs without a link to the accessibility bus, else nil.
    private static func waiting(_ application: Application?) -> Application? {
        guard let application, !application.isClosed, application.accessibility == nil else { return nil }
        return application
    }

    /// The bus went away, or dropped the connection (libdbus drops it on a message over
    /// `DBusConnection.maximumMessageSize`, which any client of the bus can send): the
    /// application is registered again on a new connection, after the session bus's delays
    /// (1 s, doubling while connections are lost soon after they are made, up to a minute), so
    /// that a client dropping them again and again costs a reconnection a minute at most.
    /// One warning.
    static func connectionWasLost(_ application: Application, retry: SessionBusRetry) {
        var retry = retry
        if retry.connectionLost() { Log.warning(SessionBusRetry.lostWarning("accessibility bus")) }
        let delay = retry.nextDelay()
        connect(application, after: delay, retry: retry)
    }

    /// After a loss, a bus not there (yet) is looked for again at the next delay, up to
    /// `SessionBusRetry.mostFailures` times; at start, nothing more is done.
    private static func tryAgain(_ application: Application, retry: SessionBusRetry?) {
        guard var retry else { return }
        retry.failures += 1
        guard retry.failures < SessionBusRetry.mostFailures else { return }
        let delay = retry.nextDelay()
        connect(application, after: delay, retry: retry)
    }
}
