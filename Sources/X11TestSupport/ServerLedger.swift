import Foundation
import Synchronization

/// The Xvfb servers this process started and has not stopped, stopped for it when it exits,
/// and, when `X11UI_SERVER_LEDGER` names a file, written down there so that a check after a
/// test run (`scripts/check-test-servers.sh`) can tell whether any of them outlived it.
///
/// A server whose owner is never released (a test object caught in a reference cycle, a
/// server kept in a static) is never stopped by its `deinit`, and `exit` runs no `deinit`: such
/// a server ran on after the test process, holding its display number. At exit, each one
/// still running gets SIGTERM (Xvfb then removes its own lock file and socket) and a
/// `left-running` line in the ledger, which the check counts as a failure: the leak is still
/// reported, and no server survives it.
///
/// The ledger's lines: `started PID NUMBER`, `stopped PID`, `left-running PID NUMBER`.
enum ServerLedger {
    private static let live = Mutex<[Int32: Int]>([:])
    private static let path = ProcessInfo.processInfo.environment["X11UI_SERVER_LEDGER"].flatMap {
        $0.isEmpty ? nil : $0
    }
    private static let exitHook: Void = { atexit { ServerLedger.stopAllAtExit() } }()

    /// A server started.
    static func started(pid: Int32, number: Int) {
        _ = exitHook
        live.withLock { $0[pid] = number }
        write("started \(pid) \(number)")
    }

    /// A server was stopped by its owner (or had ended, and its owner saw it: a test that
    /// kills its server).
    static func stopped(pid: Int32) {
        guard live.withLock({ $0.removeValue(forKey: pid) }) != nil else { return }
        write("stopped \(pid)")
    }

    /// At exit: every server still running is written down and terminated.
    private static func stopAllAtExit() {
        // Not waiting for the lock: a thread that held it when `exit` was called never gives
        // it back.
        let left =
            live.withLockIfAvailable { servers -> [Int32: Int] in
                defer { servers = [:] }
                return servers
            } ?? [:]
        for (pid, number) in left.sorted(by: { $0.key < $1.key }) {
            // Only a child of this process that still runs (not reaped: the pid is still its).
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == 0 else { continue }
            write("left-running \(pid) \(number)")
            kill(pid, SIGTERM)
        }
    }

    /// Appends a line (one `write` on an `O_APPEND` descriptor: lines of processes writing at
    /// once do not mix).
    private static func write(_ line: String) {
        guard let path else { return }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
