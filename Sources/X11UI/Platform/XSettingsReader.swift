internal import CX11
internal import CX11Internal

/// Watches the desktop's XSETTINGS manager for the application's whole life and hands what it
/// says, typed and checked, to the application (`Application.desktopSettingsDidChange`).
///
/// A manager (a settings daemon) owns the selection `_XSETTINGS_S<screen>` with a window of its
/// own and keeps its settings in that window's `_XSETTINGS_SETTINGS` property. As GTK's
/// `xsettings-client.c` does, the reader
///
/// - selects StructureNotify on the root window before anything else, so that a manager
///   started later is heard of: it announces itself with a `MANAGER` client message there;
/// - asks for the selection's owner, selects PropertyChange and StructureNotify on the owner's
///   window, and reads the property (a round trip, only when a manager runs);
/// - reads the property again on each PropertyNotify of it; asks for the owner again on the
///   owner's DestroyNotify (the manager stopped: with no new one, the settings go back to
///   X11UI's defaults) and on a `MANAGER` message (a new manager took over).
///
/// The owner's window may go between the answer naming it and the selection of its events
/// (the manager stopping at that moment): the BadWindow that selection then causes reaches
/// `XErrorTrap` as a race, and the read that follows it finds the window gone; the reader then
/// waits for the next manager. A property that is malformed (see ``XSettings``) is one warning
/// line and the settings read before stay; a value out of range is one warning and its
/// setting takes X11UI's default. The same bad property or value written again is not
/// reported again.
///
/// At start the owner is asked for without a round trip of its own: the request is queued
/// before Xft's first round trip, which brings its answer (see `askForManager`).
@MainActor
final class XSettingsReader {
    private let connection: DisplayConnection
    private let deliver: (DesktopSettings) -> Void
    /// The manager's window (0: no manager).
    private(set) var managerWindow: UInt = 0
    /// The settings last read whole.
    private(set) var current = XSettings.none
    /// The event mask a host program had selected on the root window of its display (nil on
    /// X11UI's own display), given back by `stop()`.
    private let hostRootMask: Int?
    /// The event mask a host program had selected on the manager's window (one that follows
    /// the manager itself), given back when X11UI stops watching it; nil on X11UI's display.
    private var hostManagerMask: Int?
    /// What was last reported, so that the same is not reported twice.
    private var reportedMalformed: XSettings.Malformed?
    private var reportedRejections: [XSettings.Rejection] = []

    /// The largest property read, in the 32-bit units `XGetWindowProperty` counts.
    private static let maximumLongs = XSettings.maximumSize / 4

    /// The manager asked for at start, its answer not yet read.
    struct Asking {
        fileprivate let pending: OpaquePointer?
        fileprivate let hostRootMask: Int?
    }

    /// Selects the root window's StructureNotify (keeping a host program's mask) and queues
    /// the request for the selection's owner, unanswered: the next request that waits for a
    /// reply brings its answer too. Call it before that request (Xft's first, at start).
    static func askForManager(on connection: DisplayConnection) -> Asking {
        guard connection.isUsable else { return Asking(pending: nil, hostRootMask: nil) }
        let display = connection.display
        var hostMask: Int?
        if !connection.ownsDisplay {
            // One round trip, on a host's display only: its own selection on the root stays.
            var attributes = XWindowAttributes()
            if XGetWindowAttributes(display, connection.root, &attributes) != 0 {
                hostMask = attributes.your_event_mask
            }
        }
        XSelectInput(display, connection.root, (hostMask ?? 0) | StructureNotifyMask)
        return Asking(
            pending: cx11_selection_owner_send(display, connection.atoms.xsettingsSelection), hostRootMask: hostMask)
    }

    /// Reads the answer to `asking` and, when a manager runs, its settings (handed to
    /// `deliver` before this returns); then follows the manager.
    init(connection: DisplayConnection, asking: Asking, deliver: @escaping (DesktopSettings) -> Void) {
        self.connection = connection
        self.deliver = deliver
        hostRootMask = asking.hostRootMask
        var owner: UInt = 0
        if let pending = asking.pending {
            owner = cx11_selection_owner_collect(pending)
        } else if connection.isUsable {
            owner = XGetSelectionOwner(connection.display, connection.atoms.xsettingsSelection)
        }
        if owner != 0, connection.isUsable { watch(owner) }
    }

    /// Handles an event on the root window or the manager's; returns whether it was the
    /// reader's (every event on the manager's window is).
    func handle(_ event: Event) -> Bool {
        let atoms = connection.atoms
        switch event {
        case .clientMessage(let window, let type, let data) where window == connection.root && type == atoms.manager:
            guard data.count > 1, UInt(bitPattern: data[1]) == atoms.xsettingsSelection else { return false }
            findManager(previousDestroyed: false)
            return true
        case .destroy(let window) where window == managerWindow && window != 0:
            findManager(previousDestroyed: true)
            return true
        case .propertyChange(let window, let atom) where window == managerWindow && window != 0:
            if atom == atoms.xsettingsSettings { readSettings() }
            return true
        default:
            return managerWindow != 0 && event.window == managerWindow
        }
    }

    /// Whether a host program selected, on `window` (the root or the manager's), the events
    /// the reader selects there itself, and so is handed those events too; the ones only the
    /// reader's selection brings are X11UI's (false on X11UI's own display: there is no host).
    func hostSelects(_ window: UInt) -> Bool {
        if window == connection.root { return (hostRootMask ?? 0) & StructureNotifyMask != 0 }
        return window == managerWindow && (hostManagerMask ?? 0) & (PropertyChangeMask | StructureNotifyMask) != 0
    }

    /// Stops following the manager (the application closes). On a host's display the root
    /// window loses the one bit X11UI added, StructureNotify, unless the host had it: whatever
    /// else the host selected there since stays (one round trip, on a host's display only).
    func stop() {
        guard connection.isUsable else { return }
        forgetManager(destroyed: false)
        guard let hostRootMask, hostRootMask & StructureNotifyMask == 0 else { return }
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(connection.display, connection.root, &attributes) != 0 else { return }
        XSelectInput(connection.display, connection.root, attributes.your_event_mask & ~StructureNotifyMask)
    }

    // MARK: - Following the manager

    /// Asks who the manager is now (a round trip) and follows it; with none, the settings go
    /// back to X11UI's defaults.
    private func findManager(previousDestroyed: Bool) {
        forgetManager(destroyed: previousDestroyed)
        guard connection.isUsable else { return }
        let owner = XGetSelectionOwner(connection.display, connection.atoms.xsettingsSelection)
        if owner != 0 {
            watch(owner)
        } else {
            take(.none)
        }
    }

    /// Selects the manager window's events and reads its settings.
    func watch(_ owner: UInt) {
        // On a host's display, errors about the window come to X11UI (not the host's handler).
        connection.adopt(owner)
        var mask = PropertyChangeMask | StructureNotifyMask
        if !connection.ownsDisplay {
            // One round trip, on a host's display with a manager only: a host that follows the
            // manager itself keeps its selection (the window gone: the read below says so).
            var attributes = XWindowAttributes()
            hostManagerMask =
                XGetWindowAttributes(connection.display, owner, &attributes) != 0
                ? attributes.your_event_mask : 0
            mask |= hostManagerMask ?? 0
        }
        XSelectInput(connection.display, owner, mask)
        managerWindow = owner
        readSettings()
    }

    /// Stops watching the manager's window. A window known to be destroyed gets no request; a
    /// live one (a new manager took over) has its events deselected, and stays adopted on a
    /// host's display, so that the error of a deselection that races its destruction is
    /// X11UI's.
    private func forgetManager(destroyed: Bool) {
        guard managerWindow != 0 else { return }
        if destroyed {
            connection.release(managerWindow)
        } else if connection.isUsable {
            XSelectInput(connection.display, managerWindow, hostManagerMask ?? 0)
        }
        managerWindow = 0
        hostManagerMask = nil
    }

    /// Reads the property (a round trip) and takes what it says.
    private func readSettings() {
        guard managerWindow != 0, connection.isUsable else { return }
        let window = managerWindow
        let property = connection.atoms.xsettingsSettings
        let errorsBefore = connection.errorCount
        var type: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            connection.display, window, property, 0, Self.maximumLongs, 0, property, &type, &format, &count, &after,
            &data)
        defer { if let data { XFree(data) } }
        // The window went (this read, or the selection of its events before it, failed): the
        // manager stopped; its DestroyNotify, if it was selected in time, is no longer awaited.
        if status != Success
            || connection.errorCount > errorsBefore && connection.lastError?.resourceID == window
        {
            Log.debug("the XSETTINGS manager's window 0x\(String(window, radix: 16)) is gone")
            forgetManager(destroyed: true)
            take(.none)
            return
        }
        guard type != 0 else {
            take(.none)  // a manager with no settings yet
            return
        }
        let result: Result<XSettings, XSettings.Malformed>
        if type != property || format != 8 {
            result = .failure(XSettings.Malformed(reason: "its type or format is not XSETTINGS bytes"))
        } else if after > 0 {
            result = .failure(XSettings.Malformed(reason: "more than \(XSettings.maximumSize) bytes"))
        } else {
            result = XSettings.parse(data.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? [])
        }
        switch result {
        case .success(let settings):
            take(settings)
        case .failure(let malformed):
            if malformed != reportedMalformed { Log.warning("\(malformed)") }
            reportedMalformed = malformed
        }
    }

    /// Takes a table read whole: its typed settings go to the application.
    private func take(_ settings: XSettings) {
        current = settings
        reportedMalformed = nil
        let (desktop, rejected) = settings.desktopSettings()
        for rejection in rejected where !reportedRejections.contains(rejection) { Log.warning(rejection.message) }
        reportedRejections = rejected
        deliver(desktop)
    }
}
