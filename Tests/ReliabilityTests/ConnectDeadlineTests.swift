import CX11
import Foundation
import Synchronization
import Testing
import X11TestSupport

@testable import X11UI

/// The connect deadline covers the connection Xlib itself makes, at every stage: the connect,
/// the setup answer, and the replies `XOpenDisplay` waits for after it. Each server below is
/// connected to 50 times; none may take longer than the deadline and a second.
@Suite struct ConnectDeadlineTests {
    static let deadline = Duration.milliseconds(100)

    /// Opens `display` `count` times; each must fail as `expected` says, within the deadline and
    /// a second. Returns the slowest.
    @MainActor @discardableResult
    func openRepeatedly(
        _ display: String, count: Int = 50, expecting expected: X11UIError,
        matches: (X11UIError) -> Bool = { _ in false }
    ) -> Double {
        var slowest = 0.0
        for attempt in 0..<count {
            let start = MonotonicInstant.now()
            do {
                let connection = try DisplayConnection(name: display, timeout: Self.deadline)
                connection.close()
                Issue.record("attempt \(attempt): \(display) opened")
            } catch {
                if error != expected && !matches(error) { Issue.record("attempt \(attempt): \(error)") }
            }
            let seconds = Double((MonotonicInstant.now() - start).nanoseconds) / 1e9
            slowest = max(slowest, seconds)
        }
        #expect(slowest < 0.1 + 1, "the slowest open took \(slowest) s")
        return slowest
    }

    /// The process's sockets connected to the local socket `path` (the client ends: the fake
    /// server's own ends, in this process too, have no peer name).
    func socketsConnected(to path: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { fd in
            var address = sockaddr_un()
            var length = socklen_t(MemoryLayout<sockaddr_un>.size)
            let got = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
            }
            guard got == 0, address.sun_family == sa_family_t(AF_UNIX) else { return false }
            let peer = withUnsafeBytes(of: address.sun_path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return peer == path
        }.count
    }

    @Test @MainActor func aTCPServerThatRefusesBeforeReadingTheRequestIsReportedEveryTime() throws {
        // The server sends its refusal as soon as it accepts and keeps the connection open.
        let server = try FakeServer(.refuseAtOnce("go away"), tcp: true)
        // (Other tests write to standard error meanwhile, and Xlib's refusal is read from there:
        // the reason must be in the error; the exact line is checked in a process of its own, in
        // HostileServerTests.)
        let slowest = openRepeatedly(
            server.display, expecting: .connectionRefused(name: server.display, reason: "go away")
        ) { error in
            if case .connectionRefused(server.display, let reason) = error { return reason.contains("go away") }
            return false
        }
        #expect(slowest < 0.2, "a refusal is an answer: no wait for the deadline (\(slowest) s)")
        // Xlib's connection, and one in which X11UI hears the reason itself (what libxcb wrote
        // to standard error may be mixed with other threads' output).
        #expect(server.connectionCount == 100)
    }

    @Test @MainActor func aSilentServerIsGivenUpOnAtTheDeadlineEveryTime() throws {
        let local = try FakeServer(.silent)
        openRepeatedly(local.display, expecting: .displayNotAnswering(name: local.display, timeout: Self.deadline))
        let tcp = try FakeServer(.silent, tcp: true)
        openRepeatedly(tcp.display, expecting: .displayNotAnswering(name: tcp.display, timeout: Self.deadline))
        #expect(tcp.connectionCount == 50)
    }

    @Test @MainActor func aLocalNameThatLibxcbTriesOnTCPIsBoundedToo() throws {
        // `:N` with no local socket is tried by libxcb on TCP at localhost, port 6000 + N: a
        // silent server there hung the open for good (the watchdog looked for local sockets
        // only), and a refusal there is heard as one.
        let silent = try FakeServer(.silent, tcp: true)
        try #require(!FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(silent.number)"))
        let local = ":\(silent.number)"
        openRepeatedly(local, expecting: .displayNotAnswering(name: local, timeout: Self.deadline))
        #expect(silent.connectionCount == 50)
        let refusing = try FakeServer(.refuseAtOnce("go away"), tcp: true)
        let name = ":\(refusing.number)"
        openRepeatedly(name, expecting: .connectionRefused(name: name, reason: "go away")) { error in
            if case .connectionRefused(name, let reason) = error { return reason.contains("go away") }
            return false
        }
        // `unix:N` names the local socket alone: nothing there, at once.
        #expect(throws: X11UIError.cannotOpenDisplay(name: "unix:\(silent.number)")) {
            try DisplayConnection(name: "unix:\(silent.number)", timeout: .seconds(5))
        }
    }

    @Test @MainActor func aServerThatFallsSilentAfterItsSetupIsGivenUpOnAtTheDeadline() throws {
        // A real setup answer, then no reply to what XOpenDisplay asks next: the wait is in
        // Xlib's reply path, after the setup, where an I/O error would end the process.
        let xvfb = try XvfbServer()
        let server = try FakeServer(.setupThenSilence(try FakeServer.setupAnswer(of: xvfb)))
        openRepeatedly(server.display, expecting: .displayNotAnswering(name: server.display, timeout: Self.deadline))
        #expect(server.connectionCount == 50)
        #expect(socketsConnected(to: "/tmp/.X11-unix/X\(server.number)") == 0, "every connection given up is closed")
        // The process still opens a real display afterwards, with its I/O error handling intact.
        let connection = try DisplayConnection(name: xvfb.display, timeout: .seconds(5))
        #expect(connection.isUsable)
        connection.close()
    }

    @Test @MainActor func halfASetupIsGivenUpOnAtTheDeadlineEveryTime() throws {
        let server = try FakeServer(.partialSetup, tcp: true)
        openRepeatedly(server.display, expecting: .displayNotAnswering(name: server.display, timeout: Self.deadline))
    }

    @Test @MainActor func noServerAtAllFailsAtOnce() throws {
        // A stale socket file (a killed server's) and a display number nothing uses.
        let server = try FakeServer(.silent)
        server.stop()
        let start = MonotonicInstant.now()
        for name in [server.display, "127.0.0.1:\(server.number)"] {
            #expect(throws: X11UIError.cannotOpenDisplay(name: name)) {
                try DisplayConnection(name: name, timeout: .seconds(5))
            }
        }
        #expect(MonotonicInstant.now() - start < .milliseconds(500))
    }

    /// XKEYBOARD's set-up is put off for X11UI's display alone: another thread that opens a
    /// display while X11UI's open is waiting still gets XKB.
    @Test @MainActor func anotherThreadOpeningADisplayMeanwhileKeepsItsKeyboardExtension() throws {
        let xvfb = try XvfbServer()
        let slow = try FakeServer(.silent)
        let name = xvfb.display
        let result = Mutex<String?>(nil)
        let other = Thread {
            // X11UI's open is under way.
            let start = MonotonicInstant.now()
            while slow.connectionCount == 0, MonotonicInstant.now() - start < .seconds(5) { usleep(1000) }
            guard let display = XOpenDisplay(name) else {
                result.withLock { $0 = "no display" }
                return
            }
            var state = XkbStateRec()
            let status = XkbGetState(display, UInt32(XkbUseCoreKbd), &state)
            XCloseDisplay(display)
            result.withLock { $0 = "XkbGetState: \(status)" }
        }
        other.start()
        #expect(throws: X11UIError.displayNotAnswering(name: slow.display, timeout: .seconds(2))) {
            try DisplayConnection(name: slow.display, timeout: .seconds(2))
        }
        let deadline = MonotonicInstant.now() + .seconds(5)
        while result.withLock({ $0 }) == nil, MonotonicInstant.now() < deadline { usleep(1000) }
        #expect(result.withLock { $0 } == "XkbGetState: \(Success)", "the other thread's display uses XKB")
        // X11UI's own display still has it deferred, then set up.
        let connection = try DisplayConnection(name: name, timeout: .seconds(5))
        #expect(!connection.usesKeyboardExtension)
        connection.useDeferredKeyboardExtension()
        #expect(connection.usesKeyboardExtension)
        connection.close()
    }
}
