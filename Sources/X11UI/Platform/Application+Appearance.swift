internal import Glibc

/// The appearance in force: the program's choice, else the desktop's, else light.
///
/// Views never read a setting themselves: they draw with named colours (``Color/label``,
/// ``Color/windowBackground`` …) that the window's paint resolves in ``Application/appearance``,
/// so a change reaches them as one repaint of every window, in the turn it happens.
///
/// ```swift
/// app.preferredAppearance = .dark          // the program's choice; nil follows the desktop
/// app.onAppearanceChange = { appearance in log("now \(appearance)") }
/// ```
extension Application {
    /// The appearance windows and tooltips are drawn in: ``preferredAppearance`` when the
    /// program set one (with the desktop's accent when it names none), else the desktop's.
    public var appearance: Appearance { appearanceState.inForce }

    /// The program's own appearance, overriding the desktop's; nil (the default) follows the
    /// desktop. Windows and a shown tooltip repaint in the new appearance in the same turn.
    public var preferredAppearance: Appearance? {
        get { appearanceState.preferred }
        set {
            appearanceState.preferred = newValue
            updateAppearance()
        }
    }

    /// Called after the appearance in force changed (the program's choice or the desktop's),
    /// with the new one, once every window has been asked to repaint in it.
    public var onAppearanceChange: ((Appearance) -> Void)? {
        get { appearanceState.onChange }
        set { appearanceState.onChange = newValue }
    }

    /// The desktop's appearance changed (or was read at start): the input of a reader of the
    /// desktop's settings.
    func desktopAppearanceDidChange(_ appearance: Appearance) {
        appearanceState.desktop = appearance
        updateAppearance()
    }

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
    func startSessionBus(_ beginning: DBusConnection.Beginning) {
        let bus = DBusConnection(continuing: beginning, application: self)
        guard !bus.isClosed else { return }
        bus.onDisconnect = { [weak self] in
            self?.desktopPortal = nil
            self?.sessionBus = nil
        }
        sessionBus = bus
        desktopPortal = DesktopPortal(application: self, bus: bus)
        bus.pump()
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

    /// Whether the appearance in force may still change with the portal's first readings: the
    /// desktop's is followed and they are awaited. A window made meanwhile waits for its first
    /// frame before it takes a background (`Window.takeBackgroundPixel()`).
    var isReadingDesktopAppearance: Bool {
        appearanceState.preferred == nil && desktopPortal?.isReading == true
    }

    /// Takes the merged appearance; when it changed, every window X11UI paints takes its new
    /// background pixel and repaints (its views told first), and the program is told.
    private func updateAppearance() {
        let merged = Appearance.inForce(preferred: appearanceState.preferred, desktop: appearanceState.desktop)
        guard merged != appearanceState.inForce else { return }
        appearanceState.inForce = merged
        guard !isClosed else { return }
        for case let window as Window in targets.values { window.appearanceDidChange() }
        appearanceState.onChange?(merged)
    }
}

/// What the application knows of appearances.
struct AppearanceState {
    /// What the desktop says (light until a reader of its settings says otherwise).
    var desktop = Appearance.light
    /// The program's choice.
    var preferred: Appearance?
    /// The merge of the two.
    var inForce = Appearance.light
    var onChange: ((Appearance) -> Void)?
}

extension Appearance {
    /// The appearance in force: the program's choice, keeping the desktop's accent when the
    /// choice has none; the desktop's without a choice.
    static func inForce(preferred: Appearance?, desktop: Appearance) -> Appearance {
        guard var chosen = preferred else { return desktop }
        if chosen.accent == nil { chosen.accent = desktop.accent }
        return chosen
    }
}
