import CX11
import Foundation
import Testing
import X11TestSupport
import X11UI

/// X11UI on a host program's display follows the desktop's settings manager with selections
/// on the host's own connection (the root window's StructureNotify, the manager window's
/// events): the host gets only the events it selected itself, and gets its masks back.
@Suite(.serialized)
@MainActor
final class EmbeddingSettingsTests {
    let server: XvfbServer
    let host: OpaquePointer
    var root: UInt { XDefaultRootWindow(host) }

    init() throws {
        server = try XvfbServer()
        // No bus but the test's: none here.
        unsetenv("DBUS_SESSION_BUS_ADDRESS")
        unsetenv("XDG_RUNTIME_DIR")
        setenv("NO_AT_BRIDGE", "1", 1)
        host = try #require(XOpenDisplay(server.display))
        TestDisplays.watch(host)
    }

    isolated deinit {
        XCloseDisplay(host)
        TestDisplays.unwatch(host)
        server.stop()
    }

    /// The events the host's loop gets (after X11UI declined them), until `condition` holds.
    func pump(_ app: Application, until condition: () -> Bool) -> [XEvent] {
        var declined: [XEvent] = []
        _ = wait(timeout: 3) {
            while XPending(host) > 0 {
                var event = XEvent()
                XNextEvent(host, &event)
                if !app.handle(event) { declined.append(event) }
            }
            app.processJobs()
            app.flush()
            return condition()
        }
        return declined
    }

    func mask(of window: UInt) -> Int {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(host, window, &attributes)
        return attributes.your_event_mask
    }

    /// A host that selected nothing on the root: a manager that starts is followed, and the
    /// host's loop is handed none of what X11UI's selections bring (the manager's MANAGER
    /// message, its property's changes); X11UI's bit is taken off the root when it closes,
    /// and only it (the host's later selection stays).
    @Test func aHostThatSelectedNothingOnTheRootGetsNoneOfTheManagersEvents() throws {
        let app = Application(display: host)
        #expect(mask(of: root) == StructureNotifyMask)
        let manager = try XSettingsManager(display: server.display, settings: ["Xft/DPI": .integer(144 * 1024)])
        defer { manager.stop() }
        var declined = pump(app) { app.scale == 1.5 }
        #expect(app.scale == 1.5, "the manager that started is followed")
        manager.update(["Xft/DPI": .integer(192 * 1024)])
        declined += pump(app) { app.scale == 2 }
        #expect(app.scale == 2)
        #expect(declined.map(\.type).isEmpty, "the host got \(declined.map(\.type))")

        XSelectInput(host, root, StructureNotifyMask | PropertyChangeMask)  // the host's own, later
        app.close()
        #expect(mask(of: root) == PropertyChangeMask, "X11UI's bit goes, the host's stays")
        #expect(mask(of: manager.window) == 0)
    }

    /// A host that follows the manager itself (root StructureNotify, the manager window's
    /// property changes, as an XSETTINGS client does): it is handed those events as before,
    /// and keeps its selections when X11UI closes.
    @Test func aHostThatFollowsTheManagerItselfKeepsItsEventsAndSelections() throws {
        let manager = try XSettingsManager(display: server.display, settings: ["Xft/DPI": .integer(144 * 1024)])
        defer { manager.stop() }
        let hostMask = PropertyChangeMask | StructureNotifyMask
        XSelectInput(host, root, StructureNotifyMask)
        XSelectInput(host, manager.window, hostMask)
        let app = Application(display: host)
        #expect(app.scale == 1.5)
        manager.update(["Xft/DPI": .integer(192 * 1024)])
        let declined = pump(app) { app.scale == 2 }
        #expect(app.scale == 2)
        let property = XInternAtom(host, "_XSETTINGS_SETTINGS", 0)
        #expect(
            declined.contains { $0.type == PropertyNotify && $0.xproperty.atom == property },
            "the host still hears the property change: \(declined.map(\.type))")
        app.close()
        #expect(mask(of: root) == StructureNotifyMask)
        #expect(mask(of: manager.window) == hostMask)
    }
}
