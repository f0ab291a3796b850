/// Reads the desktop's appearance from the freedesktop settings portal and follows it: the
/// `org.freedesktop.appearance` keys `color-scheme`, `contrast`, `accent-color` and
/// `reduced-motion` of `org.freedesktop.portal.Settings` at `/org/freedesktop/portal/desktop`
/// on the session bus, as GTK 4, Qt 6, Chromium and Firefox read them, and GNOME's own keys
/// where a GNOME portal lacks those (``PortalAppearanceSettings``).
///
/// Nothing waits for it. The connection is started with the application and moves on by
/// itself (see `Application.startSessionBus()`); the reading arrives when the portal answers,
/// and a desktop that answers before the first window is painted has it painted in its
/// appearance. It is one `ReadAll` of the namespaces read, which every version of the
/// interface has: each key is asked once. `SettingChanged` is matched before anything is
/// read, so that no change falls between a reading and the signal. No bus, no portal, or a
/// portal that never answers leave the appearance light. A value of the wrong type is one
/// warning and changes nothing.
///
/// Only the portal speaks for the desktop: a `SettingChanged` is taken only from the unique
/// name that owns the portal's well-known name, as the bus itself said it (its answer to
/// `GetNameOwner`, its `NameOwnerChanged`, or the sender of the portal's answer); a
/// `NameOwnerChanged` only from the bus. A portal that starts again is read again, with at most
/// one reading under way.
@MainActor
final class DesktopPortal {
    static let service = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"
    /// The bus daemon's own name: the sender of its signals.
    static let busName = "org.freedesktop.DBus"
    /// How long a reading may take: a portal the bus starts on demand takes a while on a cold
    /// start; one that never answers costs one deadline in the run loop, then nothing.
    static let readTimeout = Duration.seconds(25)

    private unowned let application: Application
    private let bus: DBusConnection
    /// What the portal said so far.
    private(set) var settings: PortalAppearanceSettings
    /// The unique name owning the portal's name, as the bus last said it; nil when none does
    /// (or until the bus said).
    private(set) var owner: String?
    /// Whether the first reading is still awaited.
    private(set) var isReading = true
    /// Whether a reading is under way, and whether another is wanted after it.
    private var readingUnderWay = false
    private var rereadWanted = false
    /// How many readings were asked (one at start, one for each portal that started since).
    private(set) var readings = 0
    /// Whether a value was taken since the application last heard: the values that came
    /// together (a reading's, as a portal answers them) make one change.
    private var changed = false
    /// Keys (`namespace key`) a `SettingChanged` told since the reading under way was asked:
    /// the reading's answer is older for them.
    private var told: Set<String> = []
    /// When the first reading was asked.
    let askedAt = MonotonicInstant.now()

    init(application: Application, bus: DBusConnection, settings: PortalAppearanceSettings = .init()) {
        self.application = application
        self.bus = bus
        self.settings = settings
        bus.onMessage = { [weak self] message in self?.receive(message) ?? false }
        bus.onDispatched = { [weak self] in self?.publish() }
        for namespace in PortalAppearanceSettings.namespaces {
            bus.addMatch(
                "type='signal',sender='\(Self.service)',path='\(Self.path)',interface='\(Self.interface)',"
                    + "member='SettingChanged',arg0='\(namespace)'")
        }
        bus.addMatch(
            "type='signal',sender='\(Self.busName)',path='/org/freedesktop/DBus',"
                + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.service)'")
        askOwner()
        read()
    }

    /// Asks the bus who owns the portal's name (before the reading: the bus answers in order).
    private func askOwner() {
        guard
            let call = bus.methodCall(
                destination: Self.busName, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", [.string(Self.service)])
        else { return }
        bus.call(call, timeout: Self.readTimeout) { [weak self] reply, error in
            guard let self else { return }
            if let name = reply?.arguments.first?.stringValue {
                self.owner = name.isEmpty ? nil : name
            } else if error == "org.freedesktop.DBus.Error.NameHasNoOwner" {
                self.owner = nil
            }
        }
    }

    /// A portal that starts (again, or for the first time after the program: the reading at
    /// start then found no one) is read again, as at start, once the reading under way is done;
    /// what a portal that stops said stays, as the desktop's settings did not change with it.
    private func portalDidStart() {
        if readingUnderWay {
            rereadWanted = true
        } else {
            read()
        }
    }

    // MARK: - Reading

    /// Asks for every key read, in one `ReadAll` of their namespaces.
    private func read() {
        readingUnderWay = true
        readings += 1
        told.removeAll()
        guard
            let call = bus.methodCall(
                destination: Self.service, path: Self.path, interface: Self.interface, member: "ReadAll",
                [.array(element: "s", PortalAppearanceSettings.namespaces.map { .string($0) })])
        else {
            readingDone(answeredBy: nil)
            return
        }
        bus.call(call, timeout: Self.readTimeout) { [weak self] reply, error in
            guard let self else { return }
            if let reply {
                // The bus delivered the call to the name's owner then: its answer says who that is.
                if let sender = reply.sender { self.owner = sender }
                self.takeAll(reply.arguments.first)
            } else if let error {
                // No portal (`ServiceUnknown`): the default stands, silently.
                Log.debug("the settings portal was not read: \(error)")
            }
            self.readingDone(answeredBy: reply?.sender)
        }
    }

    /// The reading ended: another is asked when a portal started meanwhile that did not answer
    /// this one.
    private func readingDone(answeredBy sender: String?) {
        readingUnderWay = false
        isReading = false
        guard rereadWanted else { return }
        rereadWanted = false
        if let owner, owner != sender { read() }
    }

    /// Takes the keys read of a `ReadAll` answer (`a{sa{sv}}`), but those a signal told since.
    private func takeAll(_ answer: DBusValue?) {
        guard case .array(_, let namespaces)? = answer else { return }
        for case .dictionaryEntry(.string(let namespace), .array(_, let entries)) in namespaces
        where PortalAppearanceSettings.keys[namespace] != nil {
            for case .dictionaryEntry(.string(let key), let value) in entries
            where PortalAppearanceSettings.isRead(namespace, key) && !told.contains(namespace + " " + key) {
                take(namespace, key, value)
            }
        }
    }

    // MARK: - Signals

    /// A `SettingChanged` of a namespace read (the only ones the match lets through, but a
    /// signal sent to this connection alone passes no match), or the portal's name taken by a
    /// new owner.
    private func receive(_ message: DBusMessage) -> Bool {
        guard message.isSignal else { return false }
        if message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus" {
            // Only the bus says who owns a name; its sender is checked before anything is read.
            guard message.sender == Self.busName, message.path == "/org/freedesktop/DBus" else { return false }
            let arguments = message.arguments
            guard arguments.count == 3, arguments[0].stringValue == Self.service,
                let newOwner = arguments[2].stringValue
            else { return false }
            owner = newOwner.isEmpty ? nil : newOwner
            if owner != nil { portalDidStart() }
            return false  // others on the connection may follow the name too
        }
        guard message.member == "SettingChanged", message.interface == Self.interface, message.path == Self.path
        else { return false }
        guard let owner, message.sender == owner else {
            Log.debug("a SettingChanged from \(message.sender ?? "no one"), not the settings portal, was ignored")
            return true
        }
        let arguments = message.arguments
        guard arguments.count == 3, case .string(let namespace) = arguments[0], case .string(let key) = arguments[1],
            PortalAppearanceSettings.isRead(namespace, key)
        else { return true }
        told.insert(namespace + " " + key)
        take(namespace, key, arguments[2])
        return true
    }

    private func take(_ namespace: String, _ key: String, _ value: DBusValue) {
        if let problem = settings.take(namespace, key, value) { warnOnce(namespace + " " + key, problem) }
        changed = true
    }

    /// After a batch of messages: the application hears the merged settings (it repaints only
    /// when the appearance changed).
    private func publish() {
        guard changed else { return }
        changed = false
        application.desktopPortalDidChange(settings)
    }

    // MARK: - Warnings

    /// Keys a bad value was said of: one warning each, so that a portal repeating a bad value
    /// cannot fill the program's standard error.
    private var warned: Set<String> = []

    private func warnOnce(_ key: String, _ problem: String) {
        let freedesktop = PortalAppearanceSettings.freedesktop + " "
        let name = key.hasPrefix(freedesktop) ? String(key.dropFirst(freedesktop.count)) : key
        if warned.insert(key).inserted {
            Log.warning("the desktop's settings portal said \(name) \(problem); ignored")
        } else {
            Log.debug("the desktop's settings portal said \(name) \(problem); ignored")
        }
    }
}
