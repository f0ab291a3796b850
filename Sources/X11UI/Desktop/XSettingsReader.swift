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
///   window, and reads the property, asking in the same round trip that the window still
///   owns the selection (a round trip, only when a manager runs);
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
/// Any client may name any window as the selection's owner. The reader follows only a window
/// of another client: never a root window, nor one of this connection's own (an owner named
/// so is one warning, and the reader waits for the next `MANAGER` message). On the owner's
/// window it adds its two event bits to the mask this connection had there (its own, or a
/// host program's on the host's display; a connection's mask is its own, so another client's
/// is never touched), takes as its own only the events those added bits bring, and when it
/// stops watching removes exactly the bits it added.
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
    /// The event mask this connection had selected on the manager's window before the reader
    /// watched it (a host program following the manager itself, on the host's display; X11UI
    /// itself, when the window is one it follows for another reason): those events are not
    /// the reader's alone.
    private var priorManagerMask = 0
    /// The event bits the reader added on the manager's window, removed when it stops
    /// watching it.
    private var addedManagerMask = 0
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
        if owner != 0, connection.isUsable { watch(owner, atStart: true) }
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
            let added = addedManagerMask
            findManager(previousDestroyed: true)
            return added & StructureNotifyMask != 0
        case .propertyChange(let window, let atom) where window == managerWindow && window != 0:
            if atom == atoms.xsettingsSettings { readSettings() }
            return addedManagerMask & PropertyChangeMask != 0
        default:
            // The manager window's other structure events come with the reader's bit.
            guard managerWindow != 0, event.window == managerWindow else { return false }
            switch event {
            case .configure, .map, .unmap, .reparent: return addedManagerMask & StructureNotifyMask != 0
            default: return false
            }
        }
    }

    /// Whether a host program selected, on `window` (the root or the manager's), the events
    /// the reader selects there itself, and so is handed those events too; the ones only the
    /// reader's selection brings are X11UI's (false on X11UI's own display: there is no host).
    func hostSelects(_ window: UInt) -> Bool {
        if window == connection.root { return (hostRootMask ?? 0) & StructureNotifyMask != 0 }
        return window == managerWindow && priorManagerMask & (PropertyChangeMask | StructureNotifyMask) != 0
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

    /// Why `owner` cannot be a settings manager's window: a root window, or one of this
    /// connection's own (another client named it); nil for another client's window.
    private func refusal(of owner: UInt) -> String? {
        let display = connection.display
        if owner == connection.root
            || (0..<XScreenCount(display)).contains(where: { XRootWindow(display, $0) == owner })
        {
            return "a root window"
        }
        if cx11_is_own_resource(display, owner) != 0 { return "one of this program's windows" }
        return nil
    }

    /// Follows `owner`, the selection's owner as the server named it, when it is another
    /// client's window: selects its events (adding to this connection's mask there), reads its
    /// settings, and makes sure it still owned the selection once its events were selected (the
    /// question rides on the property's read: no round trip of its own). An owner that is not a
    /// manager's window leaves the settings at X11UI's defaults until the next manager.
    ///
    /// This connection's mask on the window is asked for (two round trips) except at start on
    /// X11UI's own display, where it has selected nothing on another client's window yet.
    func watch(_ owner: UInt, atStart: Bool = false) {
        var owner = owner
        // The owner may change while it is checked: a few tries, then the next MANAGER message.
        for _ in 0..<3 {
            if let refusal = refusal(of: owner) {
                Log.warning("the XSETTINGS selection is owned by \(refusal), not a settings manager's: not followed")
                take(.none)
                return
            }
            // On a host's display, errors about the window come to X11UI (not the host's handler).
            connection.adopt(owner)
            var prior = 0
            if !(atStart && connection.ownsDisplay) {
                var attributes = XWindowAttributes()
                guard XGetWindowAttributes(connection.display, owner, &attributes) != 0 else {
                    connection.release(owner)  // gone already: no manager
                    take(.none)
                    return
                }
                prior = attributes.your_event_mask
            }
            let added = (PropertyChangeMask | StructureNotifyMask) & ~prior
            if added != 0 { XSelectInput(connection.display, owner, prior | added) }
            let asking = cx11_selection_owner_send(connection.display, connection.atoms.xsettingsSelection)
            managerWindow = owner
            priorManagerMask = prior
            addedManagerMask = added
            readSettings()
            // Still the owner once its events were selected: its end will be heard of.
            let now = asking.map { cx11_selection_owner_collect($0) } ?? owner
            guard now != owner, connection.isUsable else { return }
            if managerWindow == owner { forgetManager(destroyed: false) }
            owner = now
            guard owner != 0 else { break }
        }
        take(.none)
    }

    /// Stops watching the manager's window. A window known to be destroyed gets no request; a
    /// live one (a new manager took over) loses the event bits the reader added and no other
    /// (its mask is read again: what was selected since stays), and stays adopted on a host's
    /// display, so that the error of a deselection that races its destruction is X11UI's.
    private func forgetManager(destroyed: Bool) {
        guard managerWindow != 0 else { return }
        if destroyed {
            connection.release(managerWindow)
        } else if connection.isUsable, addedManagerMask != 0 {
            var attributes = XWindowAttributes()
            if XGetWindowAttributes(connection.display, managerWindow, &attributes) != 0 {
                XSelectInput(connection.display, managerWindow, attributes.your_event_mask & ~addedManagerMask)
            }
        }
        managerWindow = 0
        priorManagerMask = 0
        addedManagerMask = 0
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
