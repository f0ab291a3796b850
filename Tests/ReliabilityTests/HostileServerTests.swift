import CX11
import Foundation
import Synchronization
import Testing
import X11TestSupport

@testable import X11UI

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

    @Test @MainActor func aResettingServerIsOpenedEveryTime() throws {
        // A server that resets when its last client leaves (Xvfb's and Xorg's default): each
        // application's leaving resets it, and the next one opens it all the same.
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

    @Test @MainActor func halfASetupTimesOutAndGarbageIsRefused() throws {
        let partial = try FakeServer(.partialSetup)
        #expect(throws: X11UIError.displayNotAnswering(name: partial.display, timeout: .milliseconds(300))) {
            try Application(displayName: partial.display, connectTimeout: .milliseconds(300))
        }
        // Garbage that announces more than it sends is half a setup too; garbage that ends
        // with the connection is no X server.
        let held = try FakeServer(.garbage)
        #expect(throws: X11UIError.displayNotAnswering(name: held.display, timeout: .milliseconds(300))) {
            try Application(displayName: held.display, connectTimeout: .milliseconds(300))
        }
        let garbage = try FakeServer(.garbageThenClose)
        let start = Date()
        #expect(throws: X11UIError.cannotOpenDisplay(name: garbage.display)) {
            try Application(displayName: garbage.display, connectTimeout: .seconds(5))
        }
        #expect(Date().timeIntervalSince(start) < 1.5)
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

    @Test(arguments: [[], ["0"], ["-3"], ["many"], ["--scene"]])
    func streamItemsWithoutAPositiveCountIsAnError(value: [String]) throws {
        let (status, stderr, _) = try runDemo(display: ":9999", arguments: ["--stream-items"] + value)
        #expect(status == 1)
        #expect(stderr == "tooltip-demo: --stream-items needs a positive number of items\n")
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
        // Painted: read until the screen shows both (or the time is up, and the checks say what
        // it showed).
        _ = display.run(until: { shown(100, 100) == 0xff0000 && shown(5, 5) == 0x00ff00 })
        #expect(shown(100, 100) == 0xff0000, "the swatch shows red, not \(String(shown(100, 100), radix: 16))")
        #expect(shown(5, 5) == 0x00ff00, "the background shows green, not \(String(shown(5, 5), radix: 16))")
    }
}
