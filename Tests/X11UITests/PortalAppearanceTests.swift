import Testing

@testable import X11UI

/// The freedesktop appearance settings decoded from what a settings portal says, without a
/// bus: each key's values, the wrappings of `ReadOne` (one variant), `Read` (two) and the
/// signal, and values of the wrong type, which change nothing and are reported.
@MainActor
@Suite struct PortalAppearanceTests {
    @Test func colorSchemeOneIsDarkAndEveryOtherValueLight() {
        var settings = PortalAppearanceSettings()
        #expect(settings.take("color-scheme", .variant(.uint32(1))) == nil)
        #expect(settings.appearance == .dark)
        #expect(settings.take("color-scheme", .variant(.uint32(2))) == nil, "prefer light")
        #expect(settings.appearance == .light)
        _ = settings.take("color-scheme", .uint32(1))
        #expect(settings.take("color-scheme", .uint32(0)) == nil, "no preference")
        #expect(settings.appearance == .light)
        // An unknown value (one a later interface may add) is no preference, as the interface
        // says, and nothing wrong: no warning.
        _ = settings.take("color-scheme", .uint32(1))
        #expect(settings.take("color-scheme", .uint32(7)) == nil)
        #expect(settings.appearance == .light)
    }

    @Test func contrastOneIsHigh() {
        var settings = PortalAppearanceSettings()
        #expect(settings.take("contrast", .variant(.uint32(1))) == nil)
        #expect(settings.appearance == .highContrast)
        _ = settings.take("color-scheme", .uint32(1))
        #expect(settings.appearance == .highContrastDark)
        #expect(settings.take("contrast", .uint32(0)) == nil)
        #expect(settings.appearance == .dark)
        #expect(settings.take("contrast", .uint32(2)) == nil, "an unknown contrast is no warning")
        #expect(settings.appearance == .dark, "and is normal contrast")
    }

    @Test func theAccentIsAnSRGBTripleInRange() {
        var settings = PortalAppearanceSettings()
        let triple = DBusValue.structure([.double(0.2), .double(0.4), .double(0.8)])
        #expect(settings.take("accent-color", .variant(triple)) == nil)
        #expect(settings.accent == Color(red: 0.2, green: 0.4, blue: 0.8))
        #expect(settings.appearance.accent == Color(red: 0.2, green: 0.4, blue: 0.8))
        // Out of range, or not a number: no accent set, which is no error.
        for outside in [-0.1, 1.5, .nan, .infinity] {
            _ = settings.take("accent-color", triple)
            #expect(settings.take("accent-color", .structure([.double(0.2), .double(outside), .double(0.8)])) == nil)
            #expect(settings.accent == nil, "\(outside)")
        }
        // The edges are in range.
        #expect(settings.take("accent-color", .structure([.double(0), .double(1), .double(0)])) == nil)
        #expect(settings.accent == Color(red: 0, green: 1, blue: 0))
    }

    /// `Read` (a portal of version 1, and xdg-desktop-portal's deprecated method) answers a
    /// variant inside a variant.
    @Test func valuesInsideSeveralVariantsAreUnwrapped() {
        var settings = PortalAppearanceSettings()
        #expect(settings.take("color-scheme", .variant(.variant(.uint32(1)))) == nil)
        #expect(settings.prefersDark)
        let triple = DBusValue.structure([.double(1), .double(0.5), .double(0)])
        #expect(settings.take("accent-color", .variant(.variant(triple))) == nil)
        #expect(settings.accent == Color(red: 1, green: 0.5, blue: 0))
    }

    @Test func aValueOfTheWrongTypeChangesNothingAndSaysWhatItWas() {
        var settings = PortalAppearanceSettings()
        _ = settings.take("color-scheme", .uint32(1))
        _ = settings.take("contrast", .uint32(1))
        let accent = DBusValue.structure([.double(0.2), .double(0.4), .double(0.8)])
        _ = settings.take("accent-color", accent)
        let before = settings
        let wrong: [(String, DBusValue)] = [
            ("color-scheme", .variant(.string("dark"))),
            ("color-scheme", .int32(1)),  // i, not u
            ("color-scheme", .bool(true)),
            ("contrast", .double(1)),
            ("contrast", .structure([.uint32(1)])),
            ("accent-color", .structure([.int32(0), .int32(0), .int32(255)])),
            ("accent-color", .structure([.double(0.1), .double(0.2)])),
            ("accent-color", .array(element: "d", [.double(0.1), .double(0.2), .double(0.3)])),
            ("accent-color", .string("#3584e4")),
        ]
        for (key, value) in wrong {
            let problem = settings.take(key, value)
            #expect(problem?.contains("not \"") == true, "\(key) \(value): \(problem ?? "accepted")")
            #expect(settings == before, "\(key) \(value) changed the settings")
        }
        #expect(settings.take("color-scheme", .string("dark")) == "with the type \"s\", not \"u\"")
    }

    @Test func otherKeysAreIgnored() {
        var settings = PortalAppearanceSettings()
        #expect(settings.take("whatever", .string("x")) == nil)
        #expect(settings.take("org.gnome.desktop.interface", "gtk-theme", .string("HighContrast")) == nil)
        #expect(settings.take("org.example", "contrast", .uint32(1)) == nil)
        #expect(settings == PortalAppearanceSettings())
    }

    /// GNOME's keys stand in where the freedesktop ones were not said, as libadwaita reads them;
    /// a freedesktop key said wins, whatever GNOME's says.
    @Test func gnomesKeysStandInForMissingFreedesktopOnes() {
        var settings = PortalAppearanceSettings()
        #expect(settings.take("org.gnome.desktop.a11y.interface", "high-contrast", .variant(.bool(true))) == nil)
        #expect(settings.appearance == .highContrast)
        #expect(settings.take("org.gnome.desktop.interface", "color-scheme", .string("prefer-dark")) == nil)
        #expect(settings.appearance == .highContrastDark)
        _ = settings.take("org.gnome.desktop.a11y.interface", "high-contrast", .bool(false))
        #expect(settings.appearance == .dark)

        _ = settings.take("org.gnome.desktop.a11y.interface", "high-contrast", .bool(true))
        _ = settings.take("contrast", .uint32(0))
        #expect(settings.appearance == .dark, "the freedesktop contrast, said, wins")
        _ = settings.take("color-scheme", .uint32(0))
        #expect(settings.appearance == .light, "and its colour scheme")
        _ = settings.take("contrast", .uint32(1))
        _ = settings.take("org.gnome.desktop.a11y.interface", "high-contrast", .bool(false))
        #expect(settings.appearance == .highContrast)
        let wrong = settings.take("org.gnome.desktop.a11y.interface", "high-contrast", .uint32(1))
        #expect(wrong == "with the type \"u\", not \"b\"")
    }

    /// Reduced motion from either key: the freedesktop `reduced-motion` 1, or GNOME's
    /// `enable-animations` false.
    @Test func reducedMotionFromEitherKey() {
        var settings = PortalAppearanceSettings()
        #expect(!settings.reducesMotion)
        _ = settings.take("reduced-motion", .variant(.uint32(1)))
        #expect(settings.reducesMotion)
        _ = settings.take("reduced-motion", .uint32(0))
        #expect(!settings.reducesMotion)
        _ = settings.take("org.gnome.desktop.interface", "enable-animations", .bool(false))
        #expect(settings.reducesMotion, "GNOME's says reduce though the freedesktop one does not")
        _ = settings.take("org.gnome.desktop.interface", "enable-animations", .bool(true))
        #expect(!settings.reducesMotion)
        #expect(settings.take("reduced-motion", .bool(true)) == "with the type \"b\", not \"u\"")
        #expect(!settings.reducesMotion)
    }

    /// The session bus's socket path as a D-Bus address value: bytes outside the plain set
    /// as `%xx`.
    @Test func aSocketPathIsEscapedInTheAddress() {
        #expect(DBusConnection.escapedAddressValue("/run/user/1000/bus") == "/run/user/1000/bus")
        #expect(DBusConnection.escapedAddressValue("/tmp/a b,c=d;é") == "/tmp/a%20b%2cc%3dd%3b%c3%a9")
    }
}
