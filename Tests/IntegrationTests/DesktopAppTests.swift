import CX11
import Foundation
import Testing
import X11TestSupport
import X11UI

/// What a desktop reads from an X11UI program, read back from the server: WM_CLASS, the
/// icon, the protocols (a ping answered within one turn of the run loop), user time and
/// startup notification.
@Suite(.serialized)
@MainActor
final class DesktopAppTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    /// A square image of one colour (0xAARRGGBB).
    static func square(_ side: Double, _ argb: UInt32) -> Image {
        let color = Color(
            red: Double((argb >> 16) & 0xff) / 255, green: Double((argb >> 8) & 0xff) / 255,
            blue: Double(argb & 0xff) / 255, alpha: Double(argb >> 24) / 255)
        return Image(size: Size(width: side, height: side)) {
            $0.fill(Rect(x: 0, y: 0, width: side, height: side), color: color)
        }
    }

    /// `_NET_WM_ICON` of a window as (width, height, pixels) entries, pixels as 32-bit values.
    static func iconEntries(_ longs: [Int]) -> [(width: Int, height: Int, pixels: [UInt32])] {
        var entries: [(Int, Int, [UInt32])] = []
        var index = 0
        while index + 2 <= longs.count {
            let width = longs[index]
            let height = longs[index + 1]
            let end = index + 2 + width * height
            guard width > 0, height > 0, end <= longs.count else { break }
            entries.append((width, height, longs[(index + 2)..<end].map { UInt32(truncatingIfNeeded: $0) }))
            index = end
        }
        return entries
    }

    // MARK: - Properties

    @Test func classIconAndProtocolsAreReadBackFromTheServer() throws {
        let window = Window(title: "Desktop", size: Size(width: 200, height: 100), application: display.app)
        window.icon = [Self.square(16, 0xffff_0000), Self.square(32, 0x8000_00ff), Self.square(16, 0xff00_ff00)]
        display.show(window)
        let id = try #require(window.windowID).rawValue
        // WM_CLASS from the program's name: instance as started, class capitalised.
        let program = try #require(CommandLine.arguments.first?.split(separator: "/").last).description
        let capitalized = program.prefix(1).uppercased() + program.dropFirst()
        #expect(probe.string(id, "WM_CLASS") == "\(program)\0\(capitalized)\0")
        let protocols = probe.longs(id, "WM_PROTOCOLS")?.compactMap { probe.atomName(UInt($0)) }
        #expect(protocols == ["WM_DELETE_WINDOW", "_NET_WM_PING"])
        #expect(probe.longs(id, "_NET_WM_PID") == [Int(getpid())])
        #expect(probe.string(id, "WM_CLIENT_MACHINE")?.isEmpty == false)
        // The icon: each size once (the second 16-pixel image is a duplicate), straight alpha.
        let entries = Self.iconEntries(try #require(probe.longs(id, "_NET_WM_ICON")))
        #expect(entries.map { "\($0.width)x\($0.height)" } == ["16x16", "32x32"])
        #expect(entries.first?.pixels.allSatisfy { $0 == 0xffff_0000 } == true)
        let blue = try #require(entries.last?.pixels.first)
        #expect(blue >> 24 >= 0x7f && blue >> 24 <= 0x80 && blue & 0xff_ffff == 0x0000ff, "\(String(blue, radix: 16))")
        // Changing the icon of a shown window rewrites the property; no icon deletes it.
        window.icon = [Self.square(48, 0xff12_3456)]
        display.app.sync()
        #expect(Self.iconEntries(probe.longs(id, "_NET_WM_ICON") ?? []).map(\.width) == [48])
        window.icon = []
        display.app.sync()
        #expect(probe.longs(id, "_NET_WM_ICON") == nil)
        // A program's own class is written as set.
        window.windowClass = ("shop", "Shop")
        display.app.sync()
        #expect(probe.string(id, "WM_CLASS") == "shop\0Shop\0")
    }

    @Test func iconsOfTheFirstWindowsWaitUntilOneIsOnScreenLaterOnesComeBeforeTheMap() throws {
        let first = Window(title: "First", size: Size(width: 200, height: 100), application: display.app)
        first.icon = [Self.square(16, 0xffff_0000)]
        first.requestedPosition = Point(x: 0, y: 0)
        first.show()
        display.app.sync()
        let id = try #require(first.windowID).rawValue
        // Mapped without its icon: the icon's decoding and conversion wait for the first paint.
        #expect(probe.longs(id, "_NET_WM_PID") == [Int(getpid())])
        #expect(probe.longs(id, "_NET_WM_ICON") == nil)
        #expect(display.run(until: { self.probe.longs(id, "_NET_WM_ICON") != nil }, timeout: .seconds(10)))
        #expect(Self.iconEntries(probe.longs(id, "_NET_WM_ICON") ?? []).map(\.width) == [16])
        // Once a window is on screen, a new window has its icon before its map.
        let second = Window(title: "Second", size: Size(width: 200, height: 100), application: display.app)
        second.icon = [Self.square(32, 0xff00_ff00)]
        second.show()
        display.app.sync()
        let secondID = try #require(second.windowID).rawValue
        #expect(Self.iconEntries(probe.longs(secondID, "_NET_WM_ICON") ?? []).map(\.width) == [32])
    }

    @Test func resourceNameNamesTheInstance() throws {
        setenv("RESOURCE_NAME", "my-shop", 1)
        defer { unsetenv("RESOURCE_NAME") }
        let window = Window(title: "Named", size: Size(width: 100, height: 60), application: display.app)
        display.show(window)
        let program = try #require(CommandLine.arguments.first?.split(separator: "/").last).description
        #expect(
            probe.string(window.windowID, "WM_CLASS")
                == "my-shop\0\(program.prefix(1).uppercased() + program.dropFirst())\0")
    }

    // MARK: - Window manager protocols

    /// Sends `_NET_WM_PING` to a window as a window manager does.
    func ping(_ window: UInt, time: Int) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = probe.atom("WM_PROTOCOLS")
        event.xclient.format = 32
        event.xclient.data.l = (Int(probe.atom("_NET_WM_PING")), time, Int(window), 0, 0)
        XSendEvent(probe.display, window, 0, NoEventMask, &event)
        probe.sync()
    }

    @Test func aPingIsAnsweredWithinOneTurn() throws {
        let window = Window(title: "Ping", size: Size(width: 100, height: 60), application: display.app)
        display.show(window)
        // Listen as a window manager does: substructure events on the root window.
        XSelectInput(probe.display, probe.root, SubstructureNotifyMask)
        defer { XSelectInput(probe.display, probe.root, NoEventMask) }
        _ = receivedClientMessages(probe)
        ping(try #require(window.windowID).rawValue, time: 31337)
        // Wait until the ping is on the application's socket, then run exactly one turn.
        var descriptor = pollfd(fd: display.app.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 3000) == 1)
        display.app.processPending()
        var replies: [XClientMessageEvent] = []
        #expect(
            wait(timeout: 3) {
                replies += receivedClientMessages(probe).filter { $0.message_type == probe.atom("WM_PROTOCOLS") }
                return !replies.isEmpty
            })
        let reply = try #require(replies.first)
        // The reply is the ping itself, addressed to the root window (EWMH).
        #expect(reply.window == probe.root)
        #expect(reply.format == 32)
        #expect(UInt(reply.data.l.0) == probe.atom("_NET_WM_PING"))
        #expect(reply.data.l.1 == 31337)
        #expect(UInt(reply.data.l.2) == window.windowID?.rawValue)
        #expect(replies.count == 1)
    }

    @Test func pressesSetTheUserTimeAndLaterWindowsStartWithIt() throws {
        let button = Button(title: "Open") {}
        let window = Window(
            title: "User time", size: Size(width: 200, height: 100), content: VStack(padding: 20) { button },
            application: display.app)
        display.show(window)
        // No launch and no input yet: the window manager decides (no user time).
        #expect(probe.longs(window.windowID, "_NET_WM_USER_TIME") == nil)
        display.click(button)
        var clickTime = 0
        let probe = self.probe
        #expect(
            display.run(until: {
                clickTime = probe.longs(window.windowID, "_NET_WM_USER_TIME")?.first ?? 0
                return clickTime != 0
            }))
        // The key comes at a later server time than the click (the clock counts milliseconds).
        #expect(wait(timeout: 2) { probe.serverTime() > UInt(clickTime) })
        probe.key(UInt(XK_a))
        #expect(
            display.run(until: { (probe.longs(window.windowID, "_NET_WM_USER_TIME")?.first ?? 0) > clickTime }))
        let keyTime = probe.longs(window.windowID, "_NET_WM_USER_TIME")?.first ?? 0
        // A window opened after the key press starts with its time: it gets the focus asked for.
        let later = Window(title: "Later", size: Size(width: 100, height: 60), application: display.app)
        display.show(later)
        #expect(probe.longs(later.windowID, "_NET_WM_USER_TIME") == [keyTime])
    }

    // MARK: - Startup notification

    @Test func theFirstWindowCompletesTheLaunchAndTheIDIsNotInherited() throws {
        // A second display for an application launched by a desktop.
        let id = "x11ui-test-launcher-\(getpid())-tooltip-demo-0_TIME4242"
        setenv("DESKTOP_STARTUP_ID", id, 1)
        defer { unsetenv("DESKTOP_STARTUP_ID") }
        let launched = try InProcessDisplay()
        // Read and removed at once: programs this one starts do not inherit the sequence.
        #expect(getenv("DESKTOP_STARTUP_ID") == nil)
        let probe = launched.probe
        XSelectInput(probe.display, probe.root, PropertyChangeMask)
        probe.sync()
        let window = Window(title: "Launched", size: Size(width: 120, height: 80), application: launched.app)
        launched.show(window)
        #expect(probe.string(window.windowID, "_NET_STARTUP_ID") == id)
        #expect(probe.longs(window.windowID, "_NET_WM_USER_TIME") == [4242])
        var messages: [String] = []
        var events: [XClientMessageEvent] = []
        #expect(
            wait(timeout: 3) {
                events += receivedClientMessages(probe)
                messages = startupMessagesFor(probe, events)
                return !messages.isEmpty
            })
        #expect(messages == ["remove: ID=\(id)"])
        // Only once: a second window shown later sends nothing and carries no startup ID.
        let second = Window(title: "Second", size: Size(width: 120, height: 80), application: launched.app)
        launched.show(second)
        launched.app.sync()
        events += receivedClientMessages(probe)
        #expect(startupMessagesFor(probe, events) == ["remove: ID=\(id)"])
        #expect(probe.string(second.windowID, "_NET_STARTUP_ID") == nil)
        // The window made to send the message from is gone again.
        let senders = Set(events.map(\.window))
        #expect(!senders.isEmpty && senders.allSatisfy { probe.info($0) == nil })
    }

    @Test func aHostProgramsDisplayLeavesTheLaunchToTheHost() throws {
        setenv("DESKTOP_STARTUP_ID", "host-launch_TIME7", 1)
        defer { unsetenv("DESKTOP_STARTUP_ID") }
        let host = try #require(XOpenDisplay(display.server.display))
        let embedded = Application(display: host)
        #expect(getenv("DESKTOP_STARTUP_ID").map { String(cString: $0) } == "host-launch_TIME7")
        embedded.close()
        XCloseDisplay(host)
    }
}

/// The client messages a probe received so far (it selects the events on the root window).
func receivedClientMessages(_ probe: ServerProbe) -> [XClientMessageEvent] {
    probe.sync()
    var messages: [XClientMessageEvent] = []
    var event = XEvent()
    while XCheckTypedEvent(probe.display, ClientMessage, &event) != 0 {
        messages.append(event.xclient)
    }
    return messages
}

/// Startup-notification messages broadcast on the root window, put together per sender window.
func startupMessagesFor(_ probe: ServerProbe, _ events: [XClientMessageEvent]) -> [String] {
    let begin = probe.atom("_NET_STARTUP_INFO_BEGIN")
    let more = probe.atom("_NET_STARTUP_INFO")
    var partial: [UInt: [UInt8]] = [:]
    var complete: [String] = []
    for event in events where event.format == 8 && (event.message_type == begin || event.message_type == more) {
        var bytes = event.message_type == begin ? [] : partial[event.window] ?? []
        var data = event.data
        withUnsafeBytes(of: &data) { bytes += $0.prefix(20) }
        if let end = bytes.firstIndex(of: 0) {
            complete.append(String(decoding: bytes[..<end], as: UTF8.self))
            partial[event.window] = nil
        } else {
            partial[event.window] = bytes
        }
    }
    return complete
}
