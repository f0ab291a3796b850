import Foundation
import Testing
import X11TestSupport

/// The session bus and its portal over a desktop session's life: a bus found where a systemd
/// user session puts it, a portal that starts after the program or restarts while it runs,
/// and values a later version of the interface may add.
@Suite(.serialized)
struct DesktopPortalLifeTests {
    static let light = DesktopPortalTests.light
    static let dark = DesktopPortalTests.dark

    static func demo(environment: [String: String]) throws -> ProgramSession {
        try ProgramSession(arguments: ["--scene", "sample"], readyView: "buy-button", environment: environment)
    }

    /// No `DBUS_SESSION_BUS_ADDRESS`, and the bus at `$XDG_RUNTIME_DIR/bus` (a systemd user
    /// session's): found there, as GDBus and sd-bus find it.
    @Test func theSessionBusIsFoundInTheRuntimeDirectory() throws {
        let runtime = NSTemporaryDirectory() + "x11ui-runtime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let portal = try TestPortal(
            ["color-scheme": "uint32 1"], bus: try TestSessionBus(socketPath: runtime + "/bus"))
        let session = try Self.demo(environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.dark }, "the portal there was read")
        #expect(portal.calls == [DesktopPortalTests.readAll])
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    /// A runtime directory without a bus: no bus, light, silently.
    @Test func aRuntimeDirectoryWithoutABusIsNoBus() throws {
        let runtime = NSTemporaryDirectory() + "x11ui-runtime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: runtime + "/bus", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let session = try Self.demo(environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.light })
        #expect(!(try #require(session.memoryMap()).contains("libdbus")), "a directory named bus is no bus")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    /// The portal stops and another starts while the program runs, with other values: read
    /// again. A portal that started only after the program is read too.
    @Test func aPortalThatStartsOrRestartsIsReadAgain() throws {
        let bus = try TestSessionBus()
        let session = try Self.demo(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.light }, "no portal yet")

        var portal: TestPortal? = try TestPortal(["color-scheme": "uint32 1"], bus: bus)
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.dark }, "a portal started later")
        #expect(portal?.calls == [DesktopPortalTests.readAll], "\(portal?.calls ?? [])")

        portal = nil  // it quits: what it said stays
        #expect(holds(for: 0.3) { DesktopPortalTests.corner(session) == Self.dark })
        portal = try TestPortal(["color-scheme": "uint32 0", "contrast": "uint32 1"], bus: bus)
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == 0xffffff }, "the new portal's high contrast")
        portal?.set("contrast", "uint32 0")
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.light }, "and its signals")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    /// A portal the bus starts on demand (as xdg-desktop-portal is started by the first call
    /// to its name): the first reading starts it and it answers it; its name's new owner does
    /// not make it asked again.
    @Test func aPortalTheBusStartsOnDemandIsReadOnce() throws {
        let services = NSTemporaryDirectory() + "x11ui-services-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: services) }
        let log = services + "/portal.log"
        let service = """
            [D-BUS Service]
            Name=org.freedesktop.portal.Desktop
            Exec=/usr/bin/python3 \(TestPortal.script) --activated \(log) \(TestPortal.appearance) color-scheme "uint32 1"

            """
        try service.write(
            toFile: services + "/org.freedesktop.portal.Desktop.service", atomically: true, encoding: .utf8)
        let bus = try TestSessionBus(serviceDirectory: services)
        let session = try Self.demo(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let said = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n") }
        let calls = { said().filter { $0.hasPrefix("CALL") } }
        #expect(
            wait(timeout: 20) { DesktopPortalTests.corner(session) == Self.dark },
            "the started portal answered; it said: \(said())")
        #expect(wait(timeout: 5) { calls().count >= 1 }, "it said: \(said())")
        let once = holds(for: 0.5) { calls().count == 1 }
        #expect(once, "read once: \(said())")
        // Its parent, the bus's activation helper, ended once it owned its name: it lives on.
        #expect(!said().contains { $0.hasPrefix("EXIT") }, "it lives as long as its bus: \(said())")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    /// A colour scheme and a contrast the interface does not define yet are no preference, and
    /// nothing is wrong with them: no warning, however often they come.
    @Test func unknownValuesAreNoPreferenceAndNoWarning() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1"])
        let session = try Self.demo(environment: portal.environment)
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.dark })
        for value in 3..<8 { portal.set("color-scheme", "uint32 \(value)") }
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.light })
        portal.set("color-scheme", "uint32 1")
        portal.set("contrast", "uint32 9")
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == Self.dark }, "normal contrast")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }
}
