import Foundation
import Testing
import X11TestSupport

/// `scripts/test-portal.py` never outlives its bus or its parent: a test that fails or is
/// stopped before it tells the portal to quit leaves none behind (one was found running 42
/// minutes after a run: a portal the bus had started on demand reads no commands, and its
/// connection's end did not stop it).
@Suite struct TestPortalExitTests {
    static func hasEnded(_ pid: pid_t) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Its standard input stays open (the test still holds it): only the bus's end stops it.
    @Test func itExitsWhenItsBusGoesAway() throws {
        var bus: TestSessionBus? = try TestSessionBus()
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus?.address
        let portal = try ChildProcess(
            "/usr/bin/python3", [TestPortal.script], environment: environment, stdout: .pipe, standardInput: true)
        defer { portal.stop() }
        var output = ""
        #expect(
            wait(timeout: 20) {
                output += ChildProcess.read(portal.stdoutFD, timeout: 0.05)
                return output.contains("READY")
            }, "the portal started: \(output)")
        bus = nil  // stops the daemon
        #expect(portal.wait(timeout: 10) != nil, "the portal exited with its bus")
    }

    /// Started by a parent that then ends (as the bus's activation helper does, or a test
    /// process killed at its time limit), on a bus that lives on: it exits too.
    @Test func itExitsWhenItsParentEnds() throws {
        let bus = try TestSessionBus()
        let log = NSTemporaryDirectory() + "x11ui-portal-exit-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        // A shell that starts the portal (reading no commands, as the bus starts it), says its
        // pid, and waits to be told to end.
        let parent = try ChildProcess(
            "/bin/sh",
            [
                "-c", "/usr/bin/python3 \"$0\" --activated \"$1\" </dev/null & echo $!; read line", TestPortal.script,
                log,
            ],
            environment: environment, stdout: .pipe, standardInput: true)
        defer { parent.stop() }
        var output = ""
        _ = wait(timeout: 10) {
            output += ChildProcess.read(parent.stdoutFD, timeout: 0.05)
            return output.contains("\n")
        }
        let pid = try #require(pid_t(output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(output)")
        defer { if !Self.hasEnded(pid) { kill(pid, SIGKILL) } }
        #expect(
            wait(timeout: 20) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("READY") },
            "the portal started")
        _ = parent.write("end\n")
        #expect(parent.wait(timeout: 10) != nil)
        #expect(wait(timeout: 10) { Self.hasEnded(pid) }, "the portal exited with its parent")
    }
}
