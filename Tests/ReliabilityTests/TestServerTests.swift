import Foundation
import Testing
import X11TestSupport

/// The test support's Xvfb servers never outlive the tests: one whose owner is never released
/// is stopped when its process exits, and stopping one removes only the files it left itself.
@Suite struct TestServerTests {
    /// Whether a process is gone (or a zombie no one reaped yet: it runs no more).
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // "pid (comm) state …": the state follows the last parenthesis.
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// A child gets standard input, output and error and no other descriptor of the tests'
    /// process: a pipe another test made without close-on-exec must not live on in a server
    /// (its reader would wait for an end of file until that server stops).
    @Test func aChildInheritsOnlyItsStandardDescriptors() throws {
        var leaky: [Int32] = [0, 0]
        try #require(pipe(&leaky) == 0)
        defer { leaky.forEach { close($0) } }
        let child = try ChildProcess("/bin/sh", ["-c", "ls /proc/$$/fd"], stdout: .pipe)
        #expect(child.wait(timeout: 10) == 0)
        let descriptors = ChildProcess.read(child.stdoutFD, timeout: 1).split(separator: "\n").compactMap { Int32($0) }
        #expect(descriptors.sorted() == [0, 1, 2], "the shell's descriptors: \(descriptors)")
    }

    /// In a process of its own: a server whose owner is never released (as one held by a test
    /// object in a reference cycle was) and a process that exits without stopping it. The
    /// server must not run on after the process.
    @Test func aServerNeverReleasedIsStoppedWhenItsProcessExits() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            // This leak is on purpose: it is not one for the run's ledger to report.
            unsetenv("X11UI_SERVER_LEDGER")
            guard let server = try? XvfbServer(width: 320, height: 240) else { exit(2) }
            _ = Unmanaged.passRetained(server)
            FileHandle.standardError.write(Data("server \(server.pid) \(server.number)\n".utf8))
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("server ") })
        let fields = line.split(separator: " ")
        let pid = try #require(Int32(fields[1]))
        let number = try #require(Int(fields[2]))
        let deadline = Date().addingTimeInterval(5)
        while !Self.hasEnded(pid), Date() < deadline { usleep(10_000) }
        #expect(Self.hasEnded(pid), "Xvfb \(pid) still runs after its process exited")
        // Stopped with SIGTERM, it removed its lock file itself.
        let lock = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)) ?? ""
        #expect(Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)) != pid)
    }

    /// A killed server leaves its lock file and socket; by the time its owner stops it,
    /// another server may have taken the display number. Its lock file stays.
    @Test func stoppingAServerLeavesTheLockFileOfTheNextServerOnItsNumber() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let lock = "/tmp/.X\(server.number)-lock"
        let socket = "/tmp/.X11-unix/X\(server.number)"
        kill(server.pid, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while server.isRunning, Date() < deadline { usleep(10_000) }
        try #require(!server.isRunning)
        // The next server's lock file: this (running) process stands in for it.
        let next = String(format: "%10d\n", getpid())
        try next.write(toFile: lock, atomically: false, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(atPath: lock)
            try? FileManager.default.removeItem(atPath: socket)
        }
        server.stop()
        #expect((try? String(contentsOfFile: lock, encoding: .utf8)) == next)
    }

    /// The same for the socket: the next server's (listening) socket stays.
    @Test func stoppingAServerLeavesTheSocketOfTheNextServerOnItsNumber() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let path = "/tmp/.X11-unix/X\(server.number)"
        kill(server.pid, SIGKILL)
        let deadline = Date().addingTimeInterval(5)
        while server.isRunning, Date() < deadline { usleep(10_000) }
        try #require(!server.isRunning)
        // The next server's socket: one this test listens on.
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(listener)
            unlink(path)
        }
        let bound = UnixSocket.bind(listener, to: path)
        try #require(bound == 0 && listen(listener, 1) == 0)
        server.stop()
        #expect(FileManager.default.fileExists(atPath: path), "the next server's socket was removed")
    }

    /// Its own socket, left by a kill, is removed.
    @Test func stoppingAKilledServerRemovesItsSocket() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let path = "/tmp/.X11-unix/X\(server.number)"
        server.stop(abruptly: true)
        // Another test's server may take the number at once: a socket there that answers is
        // that server's. A dead one's is gone.
        #expect(!XvfbServer.nothingListens(at: path))
    }
}
