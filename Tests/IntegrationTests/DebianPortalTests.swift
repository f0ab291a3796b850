import Foundation
import Testing
import X11TestSupport

/// Debian 12's own settings portal: xdg-desktop-portal (version 1 of the Settings interface)
/// with its GTK backend, started on demand by a private session bus, and GNOME's settings
/// switched with `gsettings` (dconf, in a private home) as GNOME's settings panel switches
/// them. Skipped where the packages are not installed (xdg-desktop-portal,
/// xdg-desktop-portal-gtk, gsettings-desktop-schemas, dconf-service).
@Suite(.serialized)
struct DebianPortalTests {
    static let programs = [
        "/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-desktop-portal-gtk", "/usr/libexec/dconf-service",
        "/usr/bin/gsettings",
    ]
    static let installed =
        programs.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
        && FileManager.default.fileExists(
            atPath: "/usr/share/glib-2.0/schemas/org.gnome.desktop.a11y.interface.gschema.xml")

    /// A private home, runtime directory and display for the portal's processes, and the bus
    /// that starts them.
    final class Desktop {
        let folder = NSTemporaryDirectory() + "x11ui-gnome-\(UUID().uuidString.prefix(8))"
        let display: XvfbServer
        let bus: TestSessionBus
        let environment: [String: String]

        init() throws {
            for sub in ["/home", "/run"] {
                try FileManager.default.createDirectory(
                    atPath: folder + sub, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            display = try XvfbServer(width: 640, height: 480)
            var environment = ProcessInfo.processInfo.environment
            for key in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "GSETTINGS_BACKEND", "GTK_USE_PORTAL"] {
                environment[key] = nil
            }
            environment["HOME"] = folder + "/home"
            environment["XDG_RUNTIME_DIR"] = folder + "/run"
            environment["XDG_CURRENT_DESKTOP"] = "GNOME"
            environment["DISPLAY"] = display.display
            bus = try TestSessionBus(serviceDirectory: "/usr/share/dbus-1/services", environment: environment)
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            self.environment = environment
        }

        deinit {
            display.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// `gsettings set SCHEMA KEY VALUE`, through dconf on the bus.
        func set(_ schema: String, _ key: String, _ value: String) throws {
            let tool = try ChildProcess("/usr/bin/gsettings", ["set", schema, key, value], environment: environment)
            #expect(tool.wait(timeout: 20) == 0, "gsettings set \(schema) \(key) \(value)")
        }
    }

    @Test(.enabled(if: installed)) func gnomesHighContrastAndColorSchemeFromDebiansPortal() throws {
        let desktop = try Desktop()
        try desktop.set("org.gnome.desktop.a11y.interface", "high-contrast", "true")
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "buy-button",
            environment: ["DBUS_SESSION_BUS_ADDRESS": desktop.bus.address])
        let corner = { DesktopPortalTests.corner(session) }
        // The bus starts the portal and its backend for the first reading: seconds, cold.
        #expect(wait(timeout: 30) { corner() == 0xffffff }, "GNOME's high contrast at start")
        try desktop.set("org.gnome.desktop.a11y.interface", "high-contrast", "false")
        #expect(wait(timeout: 10) { corner() == DesktopPortalTests.light }, "turned off, live")
        try desktop.set("org.gnome.desktop.interface", "color-scheme", "prefer-dark")
        #expect(wait(timeout: 10) { corner() == DesktopPortalTests.dark }, "dark, live")
        try desktop.set("org.gnome.desktop.a11y.interface", "high-contrast", "true")
        #expect(wait(timeout: 10) { corner() == 0x000000 }, "high contrast dark")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }
}
