/// Reads the desktop's appearance from the freedesktop settings portal and follows it: the
/// `org.freedesktop.appearance` keys `color-scheme`, `contrast` and `accent-color` of
/// `org.freedesktop.portal.Settings` at `/org/freedesktop/portal/desktop` on the session bus,
/// as GTK 4, Qt 6, Chromium and Firefox read them.
///
/// Nothing waits for it. The connection is started with the application and moves on by
/// itself (see `Application.startSessionBus()`); the first readings arrive when the portal
/// answers, and a desktop that answers before the first window is painted has it painted in
/// its appearance. `SettingChanged` is matched before anything is read, so that no change falls
/// between a reading and the signal. No bus, no portal, or a portal that never answers leave
/// the appearance light. A value of the wrong type is one warning and changes nothing.
@MainActor
final class DesktopPortal {
    static let service = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"
    static let namespace = "org.freedesktop.appearance"
    /// The method a portal of version 1 lacks, and the answer of a bus or portal without it.
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    /// How long a reading may take: a portal the bus starts on demand takes a while on a cold
    /// start; one that never answers costs one deadline in the run loop, then nothing.
    static let readTimeout = Duration.seconds(25)

    private unowned let application: Application
    private let bus: DBusConnection
    /// What the portal said so far.
    private(set) var settings = PortalAppearanceSettings()
    /// Keys whose first reading is still awaited.
    private var unread: Set<String> = Set(PortalAppearanceSettings.keys)
    /// Whether a value was taken since the application last heard: the values that came
    /// together (the three first readings, as a portal answers them) make one change.
    private var changed = false
    /// Keys a `SettingChanged` has told: a first reading answered after it is older.
    private var told: Set<String> = []
    /// When the first readings were asked.
    let askedAt = MonotonicInstant.now()

    init(application: Application, bus: DBusConnection) {
        self.application = application
        self.bus = bus
        bus.onMessage = { [weak self] message in self?.receive(message) ?? false }
        bus.onDispatched = { [weak self] in self?.publish() }
        bus.addMatch(
            "type='signal',sender='\(Self.service)',path='\(Self.path)',interface='\(Self.interface)',"
                + "member='SettingChanged',arg0='\(Self.namespace)'", waits: false)
        bus.addMatch(
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.service)'", waits: false)
        for key in PortalAppearanceSettings.keys { read(key, method: "ReadOne") }
    }

    /// A portal that starts (again, or for the first time after the program: the readings at
    /// start then found no one) is read again, as at start; what a portal that stops said
    /// stays, as the desktop's settings did not change with it.
    private func portalDidStart() {
        told.removeAll()
        for key in PortalAppearanceSettings.keys { read(key, method: "ReadOne") }
    }

    // MARK: - Reading

    /// Asks for one key: `ReadOne`, or `Read` (which wraps the value in one more variant) of a
    /// portal of version 1.
    private func read(_ key: String, method: String) {
        guard
            let call = bus.methodCall(
                destination: Self.service, path: Self.path, interface: Self.interface, member: method,
                [.string(Self.namespace), .string(key)])
        else {
            unread.remove(key)
            return
        }
        bus.call(call, timeout: Self.readTimeout) { [weak self] reply, error in
            guard let self else { return }
            if let reply {
                if !self.told.contains(key), let value = reply.arguments.first { self.take(key, value) }
            } else if method == "ReadOne", error == Self.unknownMethod {
                self.read(key, method: "Read")
                return
            } else if let error {
                // No portal (`ServiceUnknown`), a desktop that does not say this key
                // (`org.freedesktop.portal.Error.NotFound`): the default stands, silently.
                Log.debug("the settings portal did not read \(key): \(error)")
            }
            self.unread.remove(key)
        }
    }

    /// Whether the first readings are still awaited.
    var isReading: Bool { !unread.isEmpty }

    /// A `SettingChanged` of the appearance namespace (the only one the match lets through), or
    /// the portal's name taken by a new owner.
    private func receive(_ message: DBusMessage) -> Bool {
        if message.isSignal, message.member == "NameOwnerChanged", message.interface == "org.freedesktop.DBus" {
            let arguments = message.arguments
            guard arguments.count == 3, arguments[0].stringValue == Self.service else { return false }
            // A portal the first readings started (a bus starts one on demand) answers them.
            if let owner = arguments[2].stringValue, !owner.isEmpty, !isReading { portalDidStart() }
            return false  // others on the connection may follow the name too
        }
        guard message.isSignal, message.member == "SettingChanged", message.interface == Self.interface,
            message.path == Self.path
        else { return false }
        let arguments = message.arguments
        guard arguments.count == 3, case .string(let namespace) = arguments[0], case .string(let key) = arguments[1],
            namespace == Self.namespace, PortalAppearanceSettings.keys.contains(key)
        else { return true }
        told.insert(key)
        take(key, arguments[2])
        return true
    }

    private func take(_ key: String, _ value: DBusValue) {
        if let problem = settings.take(key, value) { warnOnce(key, problem) }
        changed = true
    }

    /// After a batch of messages: the application hears the merged appearance (it repaints
    /// only when that changed).
    private func publish() {
        guard changed else { return }
        changed = false
        application.desktopAppearanceDidChange(settings.appearance)
    }

    // MARK: - Warnings

    /// Keys a bad value was said of: one warning each, so that a portal repeating a bad value
    /// cannot fill the program's standard error.
    private var warned: Set<String> = []

    private func warnOnce(_ key: String, _ problem: String) {
        if warned.insert(key).inserted {
            Log.warning("the desktop's settings portal said \(key) \(problem); ignored")
        } else {
            Log.debug("the desktop's settings portal said \(key) \(problem); ignored")
        }
    }
}

/// The freedesktop appearance settings as a portal says them, key by key.
struct PortalAppearanceSettings: Equatable {
    static let keys = ["color-scheme", "contrast", "accent-color"]

    /// `color-scheme` 1: prefer dark (0, no preference, and 2, prefer light, are light).
    var prefersDark = false
    /// `contrast` 1: higher contrast.
    var highContrast = false
    /// `accent-color`: sRGB components in 0…1; nil when none is set (a value out of range
    /// says so).
    var accent: Color?

    /// The appearance the settings describe.
    var appearance: Appearance {
        Appearance(scheme: prefersDark ? .dark : .light, contrast: highContrast ? .high : .standard, accent: accent)
    }

    /// Takes one key's value, inside as many variants as it comes in (`ReadOne` and the signal
    /// give one, `Read` two). Returns what is wrong with it when it is not of the key's type,
    /// leaving the setting as it was. An unknown value of a known type (a scheme a later
    /// version of the interface may add) is no preference, as the interface says, and no
    /// warning: nothing is wrong with it.
    mutating func take(_ key: String, _ value: DBusValue) -> String? {
        var value = value
        while case .variant(let inner) = value { value = inner }
        switch key {
        case "color-scheme":
            guard case .uint32(let scheme) = value else { return Self.wrongType(value, expected: "u") }
            prefersDark = scheme == 1
            if scheme > 2 { Log.debug("the settings portal's color-scheme \(scheme) is taken as no preference") }
            return nil
        case "contrast":
            guard case .uint32(let contrast) = value else { return Self.wrongType(value, expected: "u") }
            highContrast = contrast == 1
            if contrast > 1 { Log.debug("the settings portal's contrast \(contrast) is taken as no preference") }
            return nil
        case "accent-color":
            guard case .structure(let fields) = value, fields.count == 3,
                case .double(let red) = fields[0], case .double(let green) = fields[1],
                case .double(let blue) = fields[2]
            else { return Self.wrongType(value, expected: "(ddd)") }
            let inRange = [red, green, blue].allSatisfy { (0...1).contains($0) }  // false for NaN
            accent = inRange ? Color(red: red, green: green, blue: blue) : nil
            return nil
        default:
            return nil
        }
    }

    private static func wrongType(_ value: DBusValue, expected: String) -> String {
        "with the type \"\(value.signature.prefix(64))\", not \"\(expected)\""
    }
}
