import Foundation
import Testing
import X11TestSupport

/// `scripts/test-portal.py` never outlives its bus or the test that started it: a test that
/// fails or is stopped before it tells the portal to quit leaves none behind (one was found
/// running 42 minutes after a run: a portal the bus had started on demand reads no commands,
/// and its connection's end did not stop it). A portal the bus started lives as long as the
/// bus, not as its parent, the bus's activation helper.
@Suite struct TestPortalExitTests {
    /// Whether process `pid` has ended: gone, or a zombie its new parent has not reaped.
    static func hasEnded(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        guard let stat = procFile("stat", ofProcess: pid), let end = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
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

    /// Started by a parent that then ends (a test process killed at its time limit), on a bus
    /// that lives on, with a standard input that never ends: it exits too.
    @Test func itExitsWhenItsParentEnds() throws {
        let bus = try TestSessionBus()
        let input = NSTemporaryDirectory() + "x11ui-portal-input-\(UUID().uuidString)"
        #expect(mkfifo(input, 0o600) == 0)
        defer { unlink(input) }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        // A shell that starts the portal (its commands from a FIFO it holds open for reading
        // and writing: never at its end), says its pid, and waits to be told to end.
        let parent = try ChildProcess(
            "/bin/sh", ["-c", "/usr/bin/python3 \"$0\" <>\"$1\" & echo $!; read line", TestPortal.script, input],
            environment: environment, stdout: .pipe, standardInput: true)
        defer { parent.stop() }
        var output = ""
        #expect(
            wait(timeout: 20) {
                output += ChildProcess.read(parent.stdoutFD, timeout: 0.05)
                return output.contains("READY")
            }, "the portal started: \(output)")
        let pid = try #require(output.split(separator: "\n").first.flatMap { pid_t($0) }, "\(output)")
        defer { if !Self.hasEnded(pid) { kill(pid, SIGKILL) } }
        #expect(!Self.hasEnded(pid), "it runs while its parent does")
        _ = parent.write("end\n")
        #expect(parent.wait(timeout: 10) != nil)
        #expect(wait(timeout: 10) { Self.hasEnded(pid) }, "the portal exited with its parent")
    }

    /// Started by the bus on demand: its parent is dbus-daemon's activation helper, which ends
    /// once the portal owns its name. The portal lives on, answering, and exits with the bus.
    @Test func aPortalTheBusStartedLivesAsLongAsItsBus() throws {
        let services = NSTemporaryDirectory() + "x11ui-services-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: services) }
        let log = services + "/portal.log"
        try """
        [D-BUS Service]
        Name=org.freedesktop.portal.Desktop
        Exec=/usr/bin/python3 \(TestPortal.script) --activated \(log) \(TestPortal.appearance) color-scheme "uint32 1"

        """.write(toFile: services + "/org.freedesktop.portal.Desktop.service", atomically: true, encoding: .utf8)
        var bus: TestSessionBus? = try TestSessionBus(serviceDirectory: services)
        let address = try #require(bus?.address)
        let said = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n") }
        /// Calls `member` of the bus or the portal with `dbus-send`; its answer, "" on failure.
        func send(_ destination: String, _ path: String, _ member: String, _ arguments: [String]) -> String {
            guard
                let sender = try? ChildProcess(
                    "/usr/bin/dbus-send",
                    ["--session", "--print-reply", "--reply-timeout=20000", "--dest=\(destination)", path, member]
                        + arguments,
                    environment: ["DBUS_SESSION_BUS_ADDRESS": address], stdout: .pipe)
            else { return "" }
            var answer = ""
            _ = wait(timeout: 25) {
                answer += ChildProcess.read(sender.stdoutFD, timeout: 0.05)
                return sender.exitStatus != nil
            }
            return answer + ChildProcess.read(sender.stdoutFD)
        }
        func read() -> String {
            send(
                "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                "org.freedesktop.portal.Settings.ReadAll", ["array:string:org.freedesktop.appearance"])
        }
        #expect(read().contains("uint32 1"), "the started portal answered: \(said())")
        func owner() -> pid_t? {
            send(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                ["string:org.freedesktop.portal.Desktop"]
            ).split(whereSeparator: \.isWhitespace).last.flatMap { pid_t($0) }
        }
        let pid = try #require(owner(), "the portal owns its name: \(said())")
        defer { if !Self.hasEnded(pid) { kill(pid, SIGKILL) } }
        // The helper's end, once the name is owned (dbus-daemon 1.14): the portal's parent is
        // then no longer a dbus-daemon.
        _ = wait(timeout: 10) { !Self.parentIsBus(of: pid) }
        #expect(holds(for: 0.5) { !Self.hasEnded(pid) }, "the portal lives on: \(said())")
        #expect(read().contains("uint32 1"), "and answers again: \(said())")
        #expect(owner() == pid, "the same portal: \(said())")
        #expect(said().filter { $0 == "READY" }.count == 1, "started once: \(said())")
        bus = nil  // stops the daemon
        #expect(wait(timeout: 10) { Self.hasEnded(pid) }, "the portal exited with its bus")
        #expect(said().allSatisfy { !$0.hasPrefix("EXIT") || $0 == "EXIT bus closed" }, "\(said())")
    }

    /// Whether process `pid`'s parent is a dbus-daemon (the bus's activation helper is one,
    /// forked without a new program).
    static func parentIsBus(of pid: pid_t) -> Bool {
        guard let status = procFile("status", ofProcess: pid),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("PPid:") }),
            let parent = pid_t(line.dropFirst(5).trimmingCharacters(in: .whitespaces)),
            let command = procFile("cmdline", ofProcess: parent)
        else { return false }
        return command.hasPrefix("/usr/bin/dbus-daemon") || command.hasPrefix("dbus-daemon")
    }
}
