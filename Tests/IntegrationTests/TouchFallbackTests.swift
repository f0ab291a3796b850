import CX11
import CXTest
import Foundation
import Testing
import X11TestSupport

@_spi(Testing) @testable import X11UI

/// Touch events as the server sends them on the wire, and what happens without XI 2.2 touch.
///
/// Xvfb has no touch device, and no request makes a server send a touch event (SendEvent
/// refuses GenericEvents); the wire events here are written by hand to the XI 2.2 layout of a
/// touchscreen's events (not captured from a device) and handed to Xlib as if read from the
/// connection, so that libXi converts them, and X11UI reads and frees their data, as it would
/// a real touch's. Xvfb always has XI 2.2 (its XInputExtension cannot be disabled, and it
/// answers 2.2 even with the Generic Event Extension off), so the fallbacks are a host's
/// display, where X11UI asks for no touch events, and a process without libXi.
@Suite(.serialized)
@MainActor
final class TouchFallbackTests {
    private var clicks = 0

    /// One XI 2.2 device event on the wire (xXIDeviceEvent, in the client's byte order): a
    /// touchscreen's, with an empty button mask and the x and y valuators.
    private static func wire(
        opcode: Int32, evtype: UInt16, touch: UInt32, window: UInt, root: UInt, at point: Point, on screen: Point,
        time: UInt32, sequence: UInt16
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
        func fixed1616(_ value: Double) -> Int32 { Int32(value * 65536) }
        put(UInt8(GenericEvent))
        put(UInt8(opcode))
        put(sequence)
        put(UInt32(18))  // 80 - 32 bytes, a button mask word, a valuator mask word, two FP3232
        put(evtype)
        put(UInt16(2))  // the master pointer
        put(time)
        put(touch)
        put(UInt32(root))
        put(UInt32(window))
        put(UInt32(0))  // child
        put(fixed1616(screen.x))
        put(fixed1616(screen.y))
        put(fixed1616(point.x))
        put(fixed1616(point.y))
        put(UInt16(1))  // buttons_len
        put(UInt16(1))  // valuators_len
        put(UInt16(11))  // the touchscreen
        put(UInt16(0))
        put(UInt32(XITouchRecord.emulatingPointer))
        for _ in 0..<4 { put(UInt32(0)) }  // modifiers
        for _ in 0..<4 { put(UInt8(0)) }  // group
        put(UInt32(0))  // no button down
        put(UInt32(0b11))  // valuators 0 and 1
        for value in [screen.x, screen.y] {
            put(Int32(value.rounded(.down)))
            put(UInt32((value - value.rounded(.down)) * 4_294_967_296))
        }
        precondition(bytes.count == 32 + 18 * 4)
        return bytes
    }

    /// A tap on a button, as two wire events read through Xlib and libXi: the button clicks.
    @Test func aTapFromWireEventsClicksAButton() throws {
        let display = try InProcessDisplay()
        let app = display.app
        let buy = Button(title: "Buy") { [unowned self] in clicks += 1 }
        let window = Window(
            title: "Wire", size: Size(width: 300, height: 200), content: VStack(padding: 20) { buy },
            application: app)
        display.show(window)
        app.flush()
        let opcode = try #require(app.connection.extensions.touchOpcode)
        let frame = try #require(buy.frameOnScreen)
        let origin = try #require(window.screenOrigin)
        let screen = Point(x: frame.midX + 0.5, y: frame.midY + 0.25)
        let local = Point(x: screen.x - origin.x, y: screen.y - origin.y)
        let raw = app.connection.display
        let sequence = UInt16(truncatingIfNeeded: XLastKnownRequestProcessed(raw))
        for (evtype, time) in [(XI_TouchBegin, UInt32(5000)), (XI_TouchEnd, UInt32(5090))] {
            var bytes = Self.wire(
                opcode: opcode, evtype: UInt16(evtype), touch: 42, window: window.xid, root: app.connection.root,
                at: local, on: screen, time: time, sequence: sequence)
            bytes.withUnsafeMutableBytes { cxtest_enqueue_wire_event(raw, $0.baseAddress) }
        }
        // Another XI2 event of the same extension (a motion) is no touch and changes nothing.
        var motion = Self.wire(
            opcode: opcode, evtype: UInt16(XI_Motion), touch: 0, window: window.xid, root: app.connection.root,
            at: local, on: screen, time: 5100, sequence: sequence)
        motion.withUnsafeMutableBytes { cxtest_enqueue_wire_event(raw, $0.baseAddress) }
        #expect(XEventsQueued(raw, QueuedAlready) == 3, "Xlib queued the three events")
        app.processPending()
        #expect(clicks == 1, "the tap clicked Buy")
        #expect(!app.touches.isEmulated(time: 5100, root: Point(x: 900, y: 900)), "the finger is up")
    }

    /// On a display the host program opened, X11UI asks for no touch events (the host's XInput
    /// use stays its own): another client may still select them on X11UI's window, and the
    /// mouse works as before.
    @Test func aHostsDisplaySelectsNoTouchAndTheMouseStillClicks() throws {
        let server = try XvfbServer()
        defer { server.stop() }
        let probe = try ServerProbe(display: server.display)
        let host = try #require(XOpenDisplay(server.display))
        TestDisplays.watch(host)
        defer {
            XCloseDisplay(host)
            TestDisplays.unwatch(host)
        }
        let app = Application(display: host)
        defer { app.close() }
        let buy = Button(title: "Buy") { [unowned self] in clicks += 1 }
        let window = Window(
            title: "Host", size: Size(width: 300, height: 200), content: VStack(padding: 20) { buy }, application: app)
        window.requestedPosition = Point(x: 0, y: 0)
        window.show()
        _ = try app.run(until: { window.isVisible && window.screenOrigin != nil }, timeout: .seconds(3))
        app.flush()
        #expect(app.connection.queriedExtensions != nil)
        #expect(!app.connection.selectsTouch)
        var xi = try #require(ExtensionLibraries.xi?.functions)
        var opcode: Int32 = 0
        #expect(cx11_xi_query(&xi, probe.display, &opcode) != 0)
        let before = TestDisplays.errorCount(on: probe.display)
        cx11_xi_select_touch(&xi, probe.display, window.xid)
        probe.sync()
        #expect(TestDisplays.errorCount(on: probe.display) == before, "X11UI selected no touch events there")
        let frame = try #require(buy.frameOnScreen)
        probe.movePointer(to: Int(frame.midX), Int(frame.midY))
        probe.click()
        _ = try app.run(until: { self.clicks == 1 }, timeout: .seconds(3))
        #expect(clicks == 1)
    }

    /// Without libXi (a stub in its place that has none of its functions) the demo says so in
    /// one line and works as before: its hover tooltip shows under the mouse.
    @Test func withoutLibXiOneLineSaysSoAndTheMouseWorks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("x11ui-no-xi-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.c")
        try Data("int x11ui_no_xi;\n".utf8).write(to: empty)
        let compiler = try ChildProcess(
            "/usr/bin/gcc", ["-shared", "-fPIC", "-o", folder.appendingPathComponent("libXi.so.6").path, empty.path])
        #expect(compiler.wait(timeout: 60) == 0)
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "text-view",
            environment: ["LD_LIBRARY_PATH": folder.path, "X11UI_LOG": "warning"])
        let view = try session.frame("default-view")
        session.probe.movePointer(to: view.midX, view.midY)
        #expect(session.waitForToolTip(named: "The default tooltip for the view.") != nil)
        let lines = session.program.standardError.split(separator: "\n").filter { $0.contains("libXi") }
        #expect(lines.count == 1, "\(session.program.standardError)")
        #expect(lines.first?.contains("emulated pointer") == true)
    }
}
