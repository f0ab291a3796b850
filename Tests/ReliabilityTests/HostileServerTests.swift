import CX11
import Foundation
import Synchronization
import Testing
import X11TestSupport

@testable import X11UI

/// A socket that poses as an X server on a display number and answers every connection in one
/// scripted way: never, half a setup, garbage, or a refusal with a reason.
final class FakeServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Accepts and never answers.
        case silent
        /// Sends the first 8 bytes of an accepting setup that announces more, then nothing.
        case partialSetup
        /// Answers with something that is not X (an HTTP error page).
        case garbage
        /// Refuses the connection with this reason.
        case refuse(String)
    }

    let number: Int
    var display: String { ":\(number)" }
    private let listener: Int32
    private let path: String
    private let stopped = Mutex(false)
    private var held: [Int32] = []

    init(_ behaviour: Behaviour) throws {
        // Display numbers far above those XvfbServer picks, distinct per process.
        var number = 41000 + Int(getpid() % 2000) * 3
        var fd: Int32 = -1
        var path = ""
        for _ in 0..<20 {
            path = "/tmp/.X11-unix/X\(number)"
            if !FileManager.default.fileExists(atPath: path) {
                fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                let bound = UnixSocket.bind(fd, to: path)
                if bound == 0 { break }
                close(fd)
                fd = -1
            }
            number += 1
        }
        guard fd >= 0 else { throw XvfbServer.StartError(description: "no free display for a fake server") }
        listen(fd, 8)
        self.number = number
        self.path = path
        listener = fd
        let thread = Thread { [self] in serve(behaviour) }
        thread.start()
    }

    deinit { stop() }

    func stop() {
        guard
            !stopped.withLock({
                let was = $0; $0 = true; return was
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }

    private func serve(_ behaviour: Behaviour) {
        while !stopped.withLock({ $0 }) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) >= 0 else { return }
            guard descriptor.revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var request = [UInt8](repeating: 0, count: 12)
            _ = recv(client, &request, 12, Int32(MSG_WAITALL))
            var answer: [UInt8]
            switch behaviour {
            case .silent: answer = []
            case .partialSetup: answer = [1, 0, 11, 0, 0, 0, 0x40, 0]
            case .garbage: answer = Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)
            case .refuse(let reason):
                let bytes = Array(reason.utf8)
                let padded = bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
                answer = [0, UInt8(bytes.count), 11, 0, 0, 0, UInt8(padded.count / 4), 0] + padded
            }
            _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if case .refuse = behaviour {
                close(client)
            } else {
                held.append(client)  // kept open: the client waits for the rest
            }
        }
        for fd in held { close(fd) }
    }
}

/// Issue 13 (2, 6, 9, 10): servers that accept and never answer, send half a setup, garbage or
/// a refusal with terminal escapes; servers without RENDER or with a DirectColor default
/// visual; display names and resource values with control characters. Each ends in one line
/// naming the display, quickly, or in a program that draws as it should.
@Suite struct HostileServerTests {
    /// Runs the demo and returns (status, stderr, seconds).
    func runDemo(
        display: String?, arguments: [String] = [], environment: [String: String] = [:], timeout: Double = 8
    ) throws -> (Int32?, String, Double) {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        if let display { env["DISPLAY"] = display }
        for (key, value) in environment { env[key] = value }
        let start = Date()
        let child = try ChildProcess(
            ProgramProcess.executablePath("tooltip-demo"), arguments, environment: env, stderr: .pipe)
        let status = child.wait(timeout: timeout)
        if status == nil { kill(child.pid, SIGKILL) }
        let stderr = ChildProcess.read(child.stderrFD, timeout: 0.2)
        return (status, stderr, Date().timeIntervalSince(start))
    }

    @Test @MainActor func aServerThatNeverAnswersTimesOutWithTheDisplayNamed() throws {
        let server = try FakeServer(.silent)
        let start = Date()
        #expect(throws: X11UIError.displayNotAnswering(name: server.display, timeout: .milliseconds(300))) {
            try Application(displayName: server.display, connectTimeout: .milliseconds(300))
        }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(
            "\(X11UIError.displayNotAnswering(name: ":7", timeout: .milliseconds(300)))"
                == "cannot open display \":7\": the X server did not answer within 0.3 s")
    }

    @Test @MainActor func theProbeDoesNotMakeAResettingServerDropTheConnection() throws {
        // A server that resets when its last client leaves (Xvfb's and Xorg's default) must
        // not see the probe leave before Xlib's connection arrives.
        let server = try XvfbServer(extraArguments: ["-reset"])
        for attempt in 0..<12 {
            do {
                let app = try Application(displayName: server.display)
                app.close()
            } catch {
                Issue.record("attempt \(attempt): \(error)")
            }
        }
    }

    /// A resetting server closes the connections it accepted during its reset without a word.
    /// When the probe's request comes after that close (its thread ran late on a busy machine)
    /// the send fails with EPIPE: that is the same close as an end read back, not a timeout.
    @Test func aConnectionClosedBeforeTheRequestIsSentIsAClosedOneNotATimeout() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[0]) }
        close(ends[1])
        let outcome = DisplayProbe.answer(on: ends[0], until: MonotonicInstant.now() + .seconds(2))
        #expect(outcome == .closed)
    }

    /// The probe connects right as a resetting server's last client leaves (the server is then
    /// closing what it accepted meanwhile), many times over: each probe ends with an answer.
    @Test func theProbeAsksAgainWhenAResettingServerClosesItsConnection() throws {
        let server = try XvfbServer(extraArguments: ["-reset"])
        var outcomes: [String: Int] = [:]
        for _ in 0..<50 {
            // The last client: a complete X connection, closed at once (the server resets). Xlib
            // itself may meet the reset the probe's own leaving began: it is tried again.
            let deadline = Date().addingTimeInterval(5)
            var display = XOpenDisplay(server.display)
            while display == nil, Date() < deadline { display = XOpenDisplay(server.display) }
            guard let display else {
                Issue.record("no connection to \(server.display)")
                return
            }
            XCloseDisplay(display)
            let outcome = DisplayProbe.check(server.display, timeout: .seconds(5)) { $0 }
            outcomes["\(outcome)", default: 0] += 1
        }
        #expect(outcomes == ["answered": 50])
    }

    @Test @MainActor func halfASetupTimesOutAndGarbageIsRefused() throws {
        let partial = try FakeServer(.partialSetup)
        #expect(throws: X11UIError.displayNotAnswering(name: partial.display, timeout: .milliseconds(300))) {
            try Application(displayName: partial.display, connectTimeout: .milliseconds(300))
        }
        let garbage = try FakeServer(.garbage)
        #expect(throws: X11UIError.cannotOpenDisplay(name: garbage.display)) {
            try Application(displayName: garbage.display, connectTimeout: .milliseconds(300))
        }
    }

    @Test func theDemoGivesUpOnASilentServerAfterTheConfiguredTimeout() throws {
        let server = try FakeServer(.silent)
        let (status, stderr, seconds) = try runDemo(
            display: server.display, environment: ["X11UI_CONNECT_TIMEOUT": "0.5"])
        #expect(status == 1)
        #expect(
            stderr
                == "tooltip-demo: cannot open display \"\(server.display)\": the X server did not answer within 0.5 s\n"
        )
        #expect(seconds < 4)
    }

    @Test func aRefusalReasonWithEscapesBecomesPartOfOneEscapedLine() throws {
        let server = try FakeServer(.refuse("go away\n\u{1B}[31mred\u{1B}[0m"))
        let (status, stderr, _) = try runDemo(display: server.display)
        #expect(status == 1)
        #expect(
            stderr
                == "tooltip-demo: cannot open display \"\(server.display)\": the X server refused the connection: "
                + "go away\\n\\u{1B}[31mred\\u{1B}[0m\n")
    }

    @Test(arguments: [
        ":9999\n\u{1B}[2J\u{1B}[31mred", ":9999\r\u{7}\u{9B}31m",
    ])
    func aDisplayNameWithControlCharactersIsEchoedOnOneLineEscaped(name: String) throws {
        let (status, stderr, _) = try runDemo(display: name)
        #expect(status == 1)
        #expect(stderr.hasPrefix("tooltip-demo: cannot open display \":9999\\"))
        #expect(
            stderr.filter { $0 == "\n" }.count == 1 && stderr.hasSuffix("\n"), "one line: \(stderr.debugDescription)")
        #expect(!stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7f...0x9f).contains($0.value) })
    }

    @Test func displayWithNoValueIsAnError() throws {
        let (status, stderr, _) = try runDemo(display: ":9999", arguments: ["--display"])
        #expect(status == 1)
        #expect(stderr == "tooltip-demo: --display needs a display name (\":0\")\n")
        let (status2, stderr2, _) = try runDemo(display: ":9999", arguments: ["--display", "", "--scene", "sample"])
        #expect(status2 == 1)
        #expect(stderr2.hasPrefix("tooltip-demo: --display needs a display name"))
    }

    /// In a process of its own (an exit test): standard error is the process's, and in the test
    /// process other tests write to it meanwhile (Swift Testing's own lines name arguments with
    /// escapes in them), which a capture there would take for X11UI's.
    @Test func controlBytesInAResourceValueAreEscapedInTheWarning() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let opened = await MainActor.run { () -> Bool in
                guard let server = try? XvfbServer(), let probe = try? ServerProbe(display: server.display) else {
                    return false
                }
                probe.setResources(
                    "X11UI*ToolTip.background: \u{1B}[31mred\u{1B}]0;title\u{7}\nX11UI*ToolTip.padding: 1\n2\n")
                guard let app = try? Application(displayName: server.display) else { return false }
                app.close()
                return true
            }
            if !opened { exit(1) }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("\\u{1B}[31mred\\u{1B}]0;title\\u{7}"), "\(output.debugDescription)")
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(output.debugDescription)")
        #expect(output.hasSuffix("\n") && output.split(separator: "\n").count == 1, "\(output.debugDescription)")
    }

    @Test @MainActor func aServerWithoutRenderIsRefusedAtStartWithOneLine() throws {
        let server = try XvfbServer(extraArguments: ["-extension", "RENDER"])
        do {
            let app = try Application(displayName: server.display)
            app.close()
            Issue.record("an application opened on a server without RENDER")
        } catch {
            #expect(
                "\(error)"
                    == "cannot use display \"\(server.display)\": the X server lacks the RENDER extension, which X11UI draws text and shapes with"
            )
        }
    }

    @Test @MainActor func aDirectColorDefaultVisualStillShowsColours() throws {
        let display = try InProcessDisplay(width: 640, height: 480, serverArguments: ["-cc", "5"])
        let swatch = View()
        swatch.backgroundColor = Color(rgb: 0xff0000)
        swatch.preferredSize = Size(width: 100, height: 100)
        let window = Window(
            title: "direct", size: Size(width: 200, height: 200), content: VStack(padding: 50) { swatch },
            application: display.app)
        window.backgroundColor = Color(rgb: 0x00ff00)
        display.show(window)
        display.run(for: .milliseconds(50))
        // What the screen shows: the pixel through the window's colormap (an unfilled
        // DirectColor colormap shows every pixel black).
        func shown(_ x: Int, _ y: Int) -> UInt32 {
            let d = display.probe.display
            var attributes = XWindowAttributes()
            XGetWindowAttributes(d, window.windowID?.rawValue ?? 0, &attributes)
            var color = XColor()
            color.pixel = UInt(display.probe.pixel(x, y))
            XQueryColor(d, attributes.colormap, &color)
            return UInt32(color.red >> 8) << 16 | UInt32(color.green >> 8) << 8 | UInt32(color.blue >> 8)
        }
        #expect(shown(100, 100) == 0xff0000, "the swatch shows red, not \(String(shown(100, 100), radix: 16))")
        #expect(shown(5, 5) == 0x00ff00, "the background shows green, not \(String(shown(5, 5), radix: 16))")
    }
}
