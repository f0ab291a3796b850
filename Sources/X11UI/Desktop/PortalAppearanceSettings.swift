/// The desktop's appearance and motion settings as a settings portal says them, key by key:
/// the freedesktop ones (`org.freedesktop.appearance`), and GNOME's own where a portal of
/// GNOME's lacks them, as libadwaita reads them.
///
/// - The colour scheme: `color-scheme` (1 is dark), else GNOME's `color-scheme`
///   (`'prefer-dark'`).
/// - The contrast: `contrast` (1 is high), else GNOME's a11y `high-contrast`.
/// - Reduced motion from either: `reduced-motion` 1, or GNOME's `enable-animations` false.
struct PortalAppearanceSettings: Equatable {
    static let freedesktop = "org.freedesktop.appearance"
    static let gnomeInterface = "org.gnome.desktop.interface"
    static let gnomeAccessibility = "org.gnome.desktop.a11y.interface"
    /// The namespaces read, and followed through `SettingChanged`.
    static let namespaces = [freedesktop, gnomeInterface, gnomeAccessibility]
    /// The keys read in each namespace; every other key is ignored.
    static let keys: [String: Set<String>] = [
        freedesktop: ["color-scheme", "contrast", "accent-color", "reduced-motion"],
        gnomeInterface: ["color-scheme", "enable-animations"],
        gnomeAccessibility: ["high-contrast"],
    ]

    /// `color-scheme`: 1 prefers dark (0, no preference, and 2, prefer light, are light).
    var colorScheme: UInt32?
    /// GNOME's `color-scheme`: `'default'`, `'prefer-dark'`, `'prefer-light'`.
    var gnomeColorScheme: String?
    /// `contrast`: 1 is higher contrast.
    var contrast: UInt32?
    /// GNOME's a11y `high-contrast`.
    var gnomeHighContrast: Bool?
    /// `accent-color`: sRGB components in 0…1; nil when none is set (a value out of range
    /// says so).
    var accent: Color?
    /// `reduced-motion`: 1 asks for reduced motion.
    var reducedMotion: UInt32?
    /// GNOME's `enable-animations`.
    var gnomeEnableAnimations: Bool?

    /// Whether the desktop prefers dark: the freedesktop key where it was said, else GNOME's.
    var prefersDark: Bool {
        if let colorScheme { return colorScheme == 1 }
        return gnomeColorScheme == "prefer-dark"
    }

    /// Whether the desktop asks for high contrast: the freedesktop key where it was said, else
    /// GNOME's.
    var highContrast: Bool {
        if let contrast { return contrast == 1 }
        return gnomeHighContrast == true
    }

    /// Whether either key asks for reduced motion.
    var reducesMotion: Bool { reducedMotion == 1 || gnomeEnableAnimations == false }

    /// The appearance the settings describe.
    var appearance: Appearance {
        Appearance(scheme: prefersDark ? .dark : .light, contrast: highContrast ? .high : .standard, accent: accent)
    }

    /// Takes one `org.freedesktop.appearance` key's value.
    mutating func take(_ key: String, _ value: DBusValue) -> String? {
        take(Self.freedesktop, key, value)
    }

    /// Takes one key's value, inside as many variants as it comes in (`ReadOne`, `ReadAll` and
    /// the signal give one, `Read` two). Returns what is wrong with it when it is not of the
    /// key's type, leaving the setting as it was. An unknown value of a known type (a scheme a
    /// later version of the interface may add) is no preference, as the interface says, and
    /// no warning: nothing is wrong with it.
    mutating func take(_ namespace: String, _ key: String, _ value: DBusValue) -> String? {
        var value = value
        while case .variant(let inner) = value { value = inner }
        switch (namespace, key) {
        case (Self.freedesktop, "color-scheme"):
            guard case .uint32(let number) = value else { return Self.wrongType(value, expected: "u") }
            colorScheme = number
        case (Self.freedesktop, "contrast"):
            guard case .uint32(let number) = value else { return Self.wrongType(value, expected: "u") }
            contrast = number
        case (Self.freedesktop, "reduced-motion"):
            guard case .uint32(let number) = value else { return Self.wrongType(value, expected: "u") }
            reducedMotion = number
        case (Self.freedesktop, "accent-color"):
            guard case .structure(let fields) = value, fields.count == 3,
                case .double(let red) = fields[0], case .double(let green) = fields[1],
                case .double(let blue) = fields[2]
            else { return Self.wrongType(value, expected: "(ddd)") }
            let inRange = [red, green, blue].allSatisfy { (0...1).contains($0) }  // false for NaN
            accent = inRange ? Color(red: red, green: green, blue: blue) : nil
        case (Self.gnomeInterface, "color-scheme"):
            guard case .string(let scheme) = value else { return Self.wrongType(value, expected: "s") }
            gnomeColorScheme = String(scheme.prefix(32))
        case (Self.gnomeInterface, "enable-animations"):
            guard case .bool(let flag) = value else { return Self.wrongType(value, expected: "b") }
            gnomeEnableAnimations = flag
        case (Self.gnomeAccessibility, "high-contrast"):
            guard case .bool(let flag) = value else { return Self.wrongType(value, expected: "b") }
            gnomeHighContrast = flag
        default:
            break
        }
        return nil
    }

    /// Whether `namespace` and `key` are read.
    static func isRead(_ namespace: String, _ key: String) -> Bool {
        keys[namespace]?.contains(key) == true
    }

    private static func wrongType(_ value: DBusValue, expected: String) -> String {
        "with the type \"\(value.signature.prefix(64))\", not \"\(expected)\""
    }
}
