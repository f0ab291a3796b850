import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// The desktop's appearance read from a freedesktop settings portal (`scripts/test-portal.py`
/// on a private session bus) by the demo, as a user's desktop would say it: the window and a
/// shown tooltip read back from the X server (XGetImage) in each appearance, live; portals
/// that are old, silent or say nonsense; and the program's own choice over the desktop's.
@Suite(.serialized)
struct DesktopPortalTests {
    static let light: UInt32 = 0xf2f2f7
    static let dark: UInt32 = 0x1c1c1e
    static let buyText = AccessibilityTests.buyText
    /// The one reading: every namespace X11UI reads, in one call.
    static let readAll =
        "ReadAll org.freedesktop.appearance,org.gnome.desktop.interface,org.gnome.desktop.a11y.interface"

    /// The demo's sample scene on its own server, on the portal's bus.
    static func demo(_ portal: TestPortal, arguments: [String] = []) throws -> ProgramSession {
        try ProgramSession(
            arguments: ["--scene", "sample"] + arguments, readyView: "buy-button", environment: portal.environment)
    }

    /// The colour of the window's corner (its padding: the window background).
    static func corner(_ session: ProgramSession) -> UInt32? {
        guard let id = session.program.windows.first, let frame = session.probe.info(id)?.frame else { return nil }
        return session.probe.pixel(frame.x + 2, frame.y + 2)
    }

    @Test func theDemoStartsDarkAndFollowsTheDesktopLiveWithItsTooltipShown() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1"])
        let session = try Self.demo(portal)
        #expect(wait(timeout: 5) { Self.corner(session) == Self.dark }, "the dark window background")
        #expect(portal.calls == [Self.readAll], "every key asked once")

        // The label's tooltip (the pointer away from the Buy button, whose fill is the accent).
        let label = try session.frame("label")
        session.probe.movePointer(to: label.midX, label.midY)
        let tip = try #require(session.waitForToolTip(named: "The label's tooltip."))
        let buy = try session.frame("buy-button")
        /// Whether the tooltip's pixels show `color` anywhere.
        func bubbleShows(_ color: UInt32) -> Bool {
            session.probe.pixels(tip.frame.x, tip.frame.y, tip.frame.width, tip.frame.height).contains(color)
        }
        #expect(wait(timeout: 3) { bubbleShows(0x3a3a3d) }, "the dark appearance's bubble")
        // The inspector's line of the show may follow the pixels by a moment.
        #expect(wait(timeout: 3) { session.program.toolTipEvents.contains { $0.state == "shown" } })
        let events = session.program.toolTipEvents.count

        // Light, live: the window and the tooltip repaint in place; the tooltip stays up.
        portal.set("color-scheme", "uint32 2")
        #expect(wait(timeout: 3) { Self.corner(session) == Self.light && bubbleShows(0x2c2c2e) })
        #expect(!bubbleShows(0x3a3a3d), "nothing of the dark bubble is left")
        #expect(session.probe.mappedPopups().map(\.id) == [tip.id], "the same tooltip window, still mapped")
        #expect(session.probe.info(tip.id).map { $0.frame == tip.frame } == true, "in the same place")
        #expect(session.program.toolTipEvents.count == events, "not hidden and shown again")

        // An accent: the filled Buy button takes it.
        portal.set("accent-color", "(0.2, 0.4, 0.8)")
        #expect(wait(timeout: 3) { session.probe.pixel(buy.x + 6, buy.midY) == 0x3366cc }, "the desktop's accent")
        #expect(session.program.toolTipEvents.count == events)
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")

        // High contrast: a white window and a black bubble.
        portal.set("contrast", "uint32 1")
        #expect(wait(timeout: 3) { Self.corner(session) == 0xffffff && bubbleShows(0x000000) })
        #expect(!bubbleShows(0x2c2c2e))

        // Back to dark with no accent (one out of range says none).
        portal.set("contrast", "uint32 0")
        portal.set("accent-color", "(-1.0, -1.0, -1.0)")
        portal.set("color-scheme", "uint32 1")
        #expect(wait(timeout: 3) { Self.corner(session) == Self.dark && bubbleShows(0x3a3a3d) })
        #expect(session.probe.pixel(buy.x + 6, buy.midY) == 0x0a64d8, "X11UI's own accent again")
    }

    /// A portal of version 1 (Debian 12's) has no `ReadOne`: `ReadAll`, which every version has,
    /// asks each key once.
    @Test func aPortalOfVersionOneIsReadOnce() throws {
        let portal = try TestPortal(
            ["color-scheme": "uint32 1", "accent-color": "(0.2, 0.4, 0.8)"], options: ["--version", "1"])
        let session = try Self.demo(portal)
        #expect(wait(timeout: 5) { Self.corner(session) == Self.dark })
        let buy = try session.frame("buy-button")
        #expect(wait(timeout: 3) { session.probe.pixel(buy.x + 6, buy.midY) == 0x3366cc })
        #expect(holds(for: 0.3) { portal.calls == [Self.readAll] }, "\(portal.calls)")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
        portal.set("color-scheme", "uint32 0")
        #expect(wait(timeout: 3) { Self.corner(session) == Self.light }, "its signal is followed too")
    }

    /// A portal that takes the calls and never answers: the demo starts light, at once (the
    /// readings wait 25 seconds before giving up, and nothing waits for them), says nothing,
    /// and still follows the portal's signals.
    @Test func aPortalThatNeverAnswersLeavesTheStartLight() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1"], options: ["--silent"])
        let started = Date()
        let session = try Self.demo(portal)
        #expect(wait(timeout: 5) { Self.corner(session) == Self.light })
        #expect(Date().timeIntervalSince(started) < 15, "the start did not wait for the readings")
        #expect(wait(timeout: 5) { portal.calls.count == 1 }, "the reading was asked and is unanswered")
        let buy = try session.frame("buy-button")
        session.probe.movePointer(to: buy.midX, buy.midY)
        #expect(session.waitForToolTip(named: Self.buyText) != nil, "tooltips work meanwhile")
        portal.set("color-scheme", "uint32 1")
        #expect(wait(timeout: 3) { Self.corner(session) == Self.dark })
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    /// A session bus without a portal: light, silently (the bus says at once that nobody owns
    /// the name, and starts nobody: the test bus has no services to start).
    @Test func aBusWithoutAPortalIsLightAndSilent() throws {
        let bus = try TestSessionBus()
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "buy-button",
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(wait(timeout: 5) { Self.corner(session) == Self.light })
        #expect(holds(for: 0.3) { Self.corner(session) == Self.light })
        #expect(session.program.process.isRunning)
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    /// Values of the wrong type are one warning for each key, however often they come, and
    /// change nothing; a good value after them is taken.
    @Test func valuesOfTheWrongTypeAreOneWarningEachAndChangeNothing() throws {
        let portal = try TestPortal(["color-scheme": "'dark'", "accent-color": "(1, 2, 3)"])
        let session = try Self.demo(portal)
        #expect(wait(timeout: 5) { session.program.standardError.split(separator: "\n").count >= 2 })
        #expect(Self.corner(session) == Self.light)
        portal.set("color-scheme", "'dark'")
        portal.set("color-scheme", "int32 1")
        portal.emit(namespace: "org.example.other", "color-scheme", "uint32 1")  // not the appearance's
        portal.set("contrast", "uint32 1")
        #expect(wait(timeout: 3) { Self.corner(session) == 0xffffff }, "a good value is taken")
        let lines = session.program.standardError.split(separator: "\n")
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.contains("color-scheme") && $0.contains("\"s\"") }, "\(lines)")
        #expect(lines.contains { $0.contains("accent-color") && $0.contains("\"(iii)\"") }, "\(lines)")
        #expect(session.program.process.isRunning)
    }

    /// `--appearance` (the program's `preferredAppearance`) wins over the desktop's scheme and
    /// contrast; the desktop's accent still applies when the program names none.
    @Test func theProgramsChoiceWinsOverThePortal() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1", "accent-color": "(0.2, 0.4, 0.8)"])
        let session = try Self.demo(portal, arguments: ["--appearance", "light"])
        let buy = try session.frame("buy-button")
        #expect(wait(timeout: 5) { session.probe.pixel(buy.x + 6, buy.midY) == 0x3366cc }, "the portal was read")
        #expect(Self.corner(session) == Self.light)
        portal.set("contrast", "uint32 1")
        portal.set("accent-color", "(0.6, 0.2, 0.2)")
        #expect(wait(timeout: 3) { session.probe.pixel(buy.x + 6, buy.midY) == 0x993333 })
        #expect(Self.corner(session) == Self.light, "still the program's light, not high contrast")
    }
}

/// The portal read in-process: what the program sees, and when.
@Suite(.serialized)
@MainActor
struct DesktopPortalInProcessTests {
    /// A window made once the portal answered is made and painted dark before the run loop
    /// ever ran: the session bus is moved on (without waiting) as the window is made. The
    /// portal holds its answers until the test has the calls, so the test decides the order.
    @Test func aWindowMadeAfterThePortalAnsweredStartsInItsAppearance() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1"], options: ["--hold"])
        let display = try InProcessDisplay(sessionBus: portal.bus.address)
        let app = display.app
        var changes: [Appearance] = []
        app.onAppearanceChange = { changes.append($0) }
        // What a program does between Application() and its first window moves the connection
        // on (here the test's own pumping); the calls reach the portal, which holds them. (Until
        // the bus's own answers to the connection are read too, so that what comes next is the
        // portal's.)
        #expect(
            wait(timeout: 10) {
                app.sessionBus?.pump()
                return portal.calls.count == 1 && app.sessionBus?.uniqueName.isEmpty == false
                    && app.sessionBus?.hasDataToRead == false
            })
        portal.release()
        #expect(wait(timeout: 5) { app.sessionBus?.hasDataToRead == true }, "the answers are in the socket")
        #expect(app.appearance == .light, "and not read yet")

        let window = Window(
            title: "First", size: Size(width: 200, height: 120), content: Label("First"), application: app)
        window.requestedPosition = Point(x: 0, y: 0)
        window.show()
        app.sync()
        #expect(changes == [.dark], "read as the window was made")
        // The X background the server painted at the map, before any event was handled.
        #expect(display.probe.pixel(2, 2) == 0x1c1c1e)
        #expect(display.run(until: { display.probe.pixel(2, 2) == 0x1c1c1e }))
        #expect(changes == [.dark], "painted once, in the dark appearance")
    }

    /// A change is painted in the turn the signal is handled; the program's own appearance
    /// wins until it is withdrawn.
    @Test func aChangeIsPaintedInTheTurnItArrivesAndThePreferredAppearanceWins() throws {
        let portal = try TestPortal(["color-scheme": "uint32 2"])
        let display = try InProcessDisplay(sessionBus: portal.bus.address)
        let app = display.app
        let window = Window(
            title: "Live", size: Size(width: 200, height: 120), content: Label("Live"), application: app)
        display.show(window)
        #expect(display.run(until: { !(app.desktopPortal?.isReading ?? true) }))
        var changes: [Appearance] = []
        app.onAppearanceChange = { changes.append($0) }

        portal.set("color-scheme", "uint32 1")
        #expect(display.run(until: { !changes.isEmpty }))
        app.sync()
        #expect(display.probe.pixel(2, 2) == 0x1c1c1e, "painted in the same turn")
        #expect(changes == [.dark])

        app.preferredAppearance = .light
        portal.set("contrast", "uint32 1")
        #expect(display.run(until: { app.desktopPortal?.settings.highContrast == true }))
        #expect(app.appearance == .light, "the program's choice stands")
        app.preferredAppearance = nil
        #expect(app.appearance == .highContrastDark)
        #expect(display.run(until: { display.probe.pixel(2, 2) == 0x000000 }))
    }
}
