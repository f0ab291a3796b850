internal import Glibc

/// The session bus: found, connected without waiting, and connected again after a loss. The
/// desktop's settings portal is read on it (DesktopPortal.swift).
extension Application {
    /// Begins connecting to the session bus (``sessionBusAddress()``), without waiting for it:
    /// nil without one.
    static func beginSessionBus() -> DBusConnection.Beginning? {
        guard let address = sessionBusAddress() else { return nil }
        return DBusConnection.begin(connectingTo: address)
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS` when it is set (empty: none), else
    /// the socket `$XDG_RUNTIME_DIR/bus` where it is one of this user's, as GDBus, sd-bus and
    /// libdbus find the bus of a systemd user session (or dbus-broker's) that exports no
    /// variable. One `stat` when the variable is unset; nil without either.
    static func sessionBusAddress() -> String? {
        if let address = Environment.value("DBUS_SESSION_BUS_ADDRESS") { return address.isEmpty ? nil : address }
        guard let directory = Environment.value("XDG_RUNTIME_DIR"), directory.hasPrefix("/") else { return nil }
        let path = directory + "/bus"
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK, status.st_uid == getuid() else {
            return nil
        }
        return "unix:path=" + DBusConnection.escapedAddressValue(path)
    }

    /// Goes on connecting to the session bus and reads the desktop's appearance from its
    /// settings portal, without waiting for either: the rest goes on while the program builds
    /// and shows its windows.
    func startSessionBus(_ beginning: DBusConnection.Beginning, keeping settings: PortalAppearanceSettings = .init()) {
        let bus = DBusConnection(continuing: beginning, application: self)
        guard !bus.isClosed else { return }
        bus.onDisconnect = { [weak self] in self?.sessionBusWasLost() }
        sessionBus = bus
        appearanceState.busRetry.connectedAt = .now()
        desktopPortal = DesktopPortal(application: self, bus: bus, settings: settings)
        bus.pump()
    }

    /// The session bus went away, or dropped the connection (libdbus drops it on a message
    /// over `DBusConnection.maximumMessageSize`, which any client of the bus can send): what
    /// the portal said stays, and the bus is connected to again after a delay that doubles
    /// while connections are lost soon after they are made (1 s, up to a minute), so that a
    /// client dropping them again and again costs a reconnection a minute at most. A bus that
    /// is gone for good is given up after 7 tries (about two minutes).
    private func sessionBusWasLost() {
        let settings = desktopPortal?.settings ?? PortalAppearanceSettings()
        desktopPortal = nil
        sessionBus = nil
        if appearanceState.busRetry.connectionLost() { Log.warning(SessionBusRetry.lostWarning("session bus")) }
        scheduleSessionBusRetry(keeping: settings)
    }

    private func scheduleSessionBusRetry(keeping settings: PortalAppearanceSettings) {
        let delay = appearanceState.busRetry.nextDelay()
        schedule(after: delay) { [weak self] in
            guard let self, !self.isClosed, self.sessionBus == nil else { return }
            if let beginning = Self.beginSessionBus() {
                self.startSessionBus(beginning, keeping: settings)
                self.appearanceState.busRetry.failures = 0
            } else {
                self.appearanceState.busRetry.failures += 1
                guard self.appearanceState.busRetry.failures < SessionBusRetry.mostFailures else { return }
                self.scheduleSessionBusRetry(keeping: settings)
            }
        }
    }

    /// How long after the portal's first readings were asked the first frame of a window may
    /// wait for their answers: a portal answers in a millisecond or two, but on a busy machine
    /// (a login, a loaded test run) it may take tens; one that takes longer, or never answers,
    /// costs the start this much at most.
    static let firstFrameWaitForPortal = Duration.milliseconds(200)

    /// Moves the session bus on while the portal's first readings are still to come at start
    /// (until the first window is on screen): called before a window is made, without waiting,
    /// and before its first frame is copied, waiting for the answers until
    /// `firstFrameWaitForPortal` after they were asked; so that a portal that answered has the
    /// window made and painted in the desktop's appearance. The run loop does the rest.
    func catchUpWithDesktop(beforeFirstFrame: Bool = false) {
        guard deferredStartupPending, let desktopPortal, desktopPortal.isReading, let sessionBus else { return }
        sessionBus.pump()
        guard beforeFirstFrame else { return }
        let deadline = desktopPortal.askedAt + Self.firstFrameWaitForPortal
        while desktopPortal.isReading {
            let left = deadline - MonotonicInstant.now()
            guard left > .zero, sessionBus.pump(steps: 1, waitingUpTo: left) else { return }
        }
    }
}

/// When the session bus, or the accessibility bus, is connected to again after a loss.
struct SessionBusRetry {
    static let firstDelay = Duration.seconds(1)
    static let longestDelay = Duration.seconds(64)
    /// A connection lost after this long was a good one: the next loss starts over at
    /// `firstDelay`.
    static let stableTime = Duration.seconds(120)
    /// Tries that find no bus before the bus is given up.
    static let mostFailures = 7

    var delay = firstDelay
    var connectedAt: MonotonicInstant?
    var failures = 0
    var warned = false

    /// The connection was lost: the delays start over after a connection that lasted
    /// `stableTime`. Whether this is the first loss, the one to warn of.
    mutating func connectionLost(now: MonotonicInstant = .now()) -> Bool {
        if let connectedAt, now - connectedAt > Self.stableTime { delay = Self.firstDelay }
        connectedAt = nil
        defer { warned = true }
        return !warned
    }

    /// The delay before the next try; the one after it is twice as long, up to
    /// `longestDelay`.
    mutating func nextDelay() -> Duration {
        defer { delay = min(delay * 2, Self.longestDelay) }
        return delay
    }

    /// The one warning of a lost connection to `bus`.
    @MainActor static func lostWarning(_ bus: String) -> String {
        "the \(bus) connection was lost (the bus went away, or a message on it was over "
            + "\(DBusConnection.maximumMessageSize / 1024) KiB); connecting again"
    }
}
