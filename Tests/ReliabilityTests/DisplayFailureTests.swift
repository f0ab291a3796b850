import Foundation
import Testing
import X11TestSupport
import X11UI

/// A program must fail cleanly without a usable display: no display, a bad one, a refused connection, a server that dies: a typed error or
/// exit status 1 with one line on stderr, quickly, never a hang or a core dump.
@Suite struct DisplayFailureTests {
    /// Runs the demo with an environment and returns (status, stderr, seconds).
    func runDemo(environment: [String: String], arguments: [String] = []) throws -> (Int32?, String, Double) {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        for (key, value) in environment { env[key] = value }
        let start = Date()
        let child = try ChildProcess(
            ProgramProcess.executablePath("tooltip-demo"), arguments, environment: env, stderr: .pipe)
        let status = child.wait(timeout: 5)
        let stderr = ChildProcess.read(child.stderrFD, timeout: 0.2)
        return (status, stderr, Date().timeIntervalSince(start))
    }

    @Test(arguments: [
        ([:], "cannot open display: DISPLAY is not set"),
        (["DISPLAY": ""], "cannot open display: DISPLAY is not set"),
        (["DISPLAY": ":9999"], "cannot open display \":9999\""),
        (["DISPLAY": "garbage"], "cannot open display \"garbage\""),
    ])
    func theDemoNamesTheDisplayAndExitsWithStatusOne(environment: [String: String], message: String) throws {
        let (status, stderr, seconds) = try runDemo(environment: environment)
        #expect(status == 1)
        #expect(stderr == "tooltip-demo: \(message)\n", "exactly one line naming the display")
        #expect(seconds < 2)
    }

    @Test func aStaleLockFileWithNoServerIsARefusedConnection() throws {
        // A display number nobody uses, with a lock file and socket left behind by a dead server.
        let number = 37000 + Int(getpid() % 1000)
        let lock = "/tmp/.X\(number)-lock"
        #expect(FileManager.default.createFile(atPath: lock, contents: Data("     99999\n".utf8)))
        defer { try? FileManager.default.removeItem(atPath: lock) }
        let (status, stderr, _) = try runDemo(environment: ["DISPLAY": ":\(number)"])
        #expect(status == 1)
        #expect(stderr == "tooltip-demo: cannot open display \":\(number)\"\n")
    }

    @Test @MainActor func theLibraryThrowsATypedErrorAndNeverExits() {
        XlibThreads.enable()
        #expect(throws: X11UIError.cannotOpenDisplay(name: ":9999")) { try Application(displayName: ":9999") }
        #expect(throws: X11UIError.cannotOpenDisplay(name: "garbage")) { try Application(displayName: "garbage") }
        // The error reads well on its own.
        #expect("\(X11UIError.cannotOpenDisplay(name: ":9999"))" == "cannot open display \":9999\"")
    }

    @Test func aServerThatDiesWhileATooltipShowsEndsTheDemoWithinOneSecond() throws {
        let server = try XvfbServer()
        let probe = try ServerProbe(display: server.display)
        let demo = try ProgramProcess("tooltip-demo", arguments: ["--scene", "sample"], display: server.display)
        let view = try #require(demo.waitForView("default-view"))
        probe.movePointer(to: view.midX, view.midY)
        #expect(wait(timeout: 3) { !probe.mappedPopups().isEmpty })
        let killed = Date()
        server.stop(abruptly: true)
        let status = demo.waitForExit(timeout: 3)
        #expect(Date().timeIntervalSince(killed) < 1.0)
        #expect(status == 1, "a clean exit with status 1, not a crash (\(String(describing: status)))")
        #expect(demo.standardError.hasPrefix("tooltip-demo: lost the connection to the X server"))
        #expect(demo.standardError.split(separator: "\n").count == 1)
    }

    @Test @MainActor func theLibrarySurvivesItsServerDyingAndReportsIt() throws {
        let server = try XvfbServer()
        let app = try Application(displayName: server.display)
        app.quitsWhenLastWindowCloses = false
        let window = Window(title: "Doomed", size: Size(width: 100, height: 100), application: app)
        window.show()
        #expect(try app.run(until: { window.isVisible }))
        server.stop(abruptly: true)
        #expect(throws: X11UIError.connectionLost(name: server.display)) { try app.run() }
        #expect(app.isConnectionLost)
        app.close()  // closing a dead connection is safe
    }
}
