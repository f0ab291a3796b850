import Foundation
import X11UI

/// A private Xvfb with an `Application` of this process on it and a probe on a second
/// connection, for tests that build windows in-process and drive them with XTest.
@MainActor
public final class InProcessDisplay {
    public let server: XvfbServer
    public let probe: ServerProbe
    public let app: Application
    /// The desktop's settings manager, when `xsettings` started one.
    public let settingsManager: XSettingsManager?

    /// Starts the server; `resources` (X resources, such as `"Xft.dpi: 192\n"`) are set, a
    /// settings manager with `xsettings` (`["Xft/DPI": 192 * 1024]`) started, before the
    /// application connects; `sessionBus` is the session bus it reads the desktop's appearance
    /// on (a `TestSessionBus`'s address), none when nil.
    public init(
        width: Int = 1280, height: Int = 800, serverArguments: [String] = [], resources: String? = nil,
        xsettings: [String: XSettingsManager.Value]? = nil, sessionBus: String? = nil
    ) throws {
        server = try XvfbServer(width: width, height: height, extraArguments: serverArguments)
        probe = try ServerProbe(display: server.display)
        if let resources { probe.setResources(resources) }
        let display = server.display
        settingsManager = try xsettings.map { try XSettingsManager(display: display, settings: $0) }
        // Tests never reach the user's accessibility bus (the accessibility tests start their own).
        setenv("NO_AT_BRIDGE", "1", 1)
        // Cursors come from the test themes only (libXcursor reads its search path once per
        // process), whatever the user's theme and size.
        setenv("XCURSOR_PATH", TestCursorTheme.directory, 1)
        unsetenv("XCURSOR_THEME")
        unsetenv("XCURSOR_SIZE")
        // Nor the user's session bus, whose desktop may be dark: only the one a test gives.
        if let sessionBus {
            setenv("DBUS_SESSION_BUS_ADDRESS", sessionBus, 1)
        } else {
            unsetenv("DBUS_SESSION_BUS_ADDRESS")
            unsetenv("XDG_RUNTIME_DIR")  // where a user session's bus is found without the address
        }
        app = try Application(displayName: server.display)
        app.quitsWhenLastWindowCloses = false
    }

    isolated deinit {
        app.close()
        settingsManager?.stop()
        server.stop()
    }

    /// Runs the application's loop until `condition` holds (or `timeout` passes).
    @discardableResult
    public func run(until condition: () -> Bool, timeout: Duration = .seconds(3)) -> Bool {
        (try? app.run(until: condition, timeout: timeout)) ?? false
    }

    /// Runs the loop for a while.
    public func run(for duration: Duration) {
        try? app.run(for: duration)
    }

    /// Runs the application's loop for `duration`, checking `condition` after each of its
    /// turns: false as soon as it fails. For what must stay true for a while (a tooltip the
    /// pointer rests on), checked all along rather than once after a fixed time.
    public func holds(for duration: Duration, _ condition: () -> Bool) -> Bool {
        condition() && !run(until: { !condition() }, timeout: duration)
    }

    /// Shows a window at the top left and waits until it is mapped and laid out.
    public func show(_ window: Window) {
        window.requestedPosition = Point(x: 0, y: 0)
        window.show()
        run(until: { window.isVisible && window.screenOrigin != nil && window.windowID != nil })
        settle()
    }

    /// Waits until the server has processed every request of the probe and of the application
    /// (a round trip on each, in that order), then lets the application handle the events that
    /// brought it: what the probe did (a fake pointer motion, say) has then reached it, with no
    /// guess at how long that takes.
    public func settle() {
        probe.sync()
        app.sync()
        app.processPending()
    }

    /// The middle of a view on the screen.
    public func center(of view: View) -> (Int, Int) {
        let frame = view.frameOnScreen ?? .zero
        return (Int(frame.midX), Int(frame.midY))
    }

    /// Moves the pointer onto a view and lets the application see it.
    public func movePointer(to view: View, dx: Double? = nil, dy: Double? = nil) {
        let frame = view.frameOnScreen ?? .zero
        probe.movePointer(to: Int(frame.minX + (dx ?? frame.width / 2)), Int(frame.minY + (dy ?? frame.height / 2)))
        settle()
    }

    /// Clicks a view's middle.
    public func click(_ view: View) {
        movePointer(to: view)
        probe.click()
        settle()
    }
}

extension InProcessDisplay {
    /// The points of `window` (shown at the screen's top left) that differ from its background,
    /// read from the screen: how many lie inside `frame` (window coordinates), and those
    /// outside it.
    public func ink(of window: Window, around frame: Rect) -> (inside: Int, outside: [(Int, Int)]) {
        let width = Int(window.bounds.width)
        let height = Int(window.bounds.height)
        let all = probe.pixels(0, 0, width, height)
        guard all.count == width * height else { return (0, []) }
        let background = all[2 * width + 2]
        var inside = 0
        var outside: [(Int, Int)] = []
        for y in 0..<height {
            for x in 0..<width where all[y * width + x] != background {
                if frame.contains(Point(x: Double(x) + 0.5, y: Double(y) + 0.5)) {
                    inside += 1
                } else {
                    outside.append((x, y))
                }
            }
        }
        return (inside, outside)
    }
}
