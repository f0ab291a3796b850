import CXTest
import Foundation

/// A child process started with `posix_spawn`, with a clean signal mask and default signal
/// handlers (a child spawned from a thread that blocks signals otherwise ignores SIGTERM), and
/// stopped without hanging.
public final class ChildProcess: @unchecked Sendable {
    /// Where a child's output goes.
    public enum Output: Sendable {
        case null
        /// A pipe this object reads (`readAvailable()`).
        case pipe
        /// Appended to a file.
        case file(String)
    }

    public let pid: pid_t
    private var status: Int32?
    /// The read end of the stdout pipe (when `.pipe`).
    public let stdoutFD: Int32
    /// The read end of the stderr pipe (when `.pipe`).
    public let stderrFD: Int32
    /// This end of the child's standard input (when made with `standardInput`), else -1.
    public let stdinFD: Int32
    /// Whether the child leads a process group of its own, which `stop` ends whole (a
    /// `dbus-run-session` and what it started, say).
    public let leadsProcessGroup: Bool

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, stdout: Output = .null,
        stderr: Output = .null, standardInput: Bool = false, ownProcessGroup: Bool = false
    ) throws {
        leadsProcessGroup = ownProcessGroup
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var readEnds: [Int32] = [-1, -1]
        var writeEnds: [Int32] = []
        // Standard input, when asked for: a socket this object writes (`write(_:)`; a socket,
        // not a pipe, so that writing after the child is gone is an error, not SIGPIPE).
        var input: [Int32] = [-1, -1]
        if standardInput {
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &input) == 0
            else {
                throw SpawnError(description: "socketpair failed")
            }
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
            posix_spawn_file_actions_addclose(&actions, input[0])
        }
        for (index, output) in [stdout, stderr].enumerated() {
            let target = Int32(index + 1)
            switch output {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let file):
                posix_spawn_file_actions_addopen(&actions, target, file, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .pipe:
                // Both ends close on exec (dup2 clears the flag on the child's copy): a child
                // that another thread spawns meanwhile must not inherit the write end, or a
                // reader here would see no end of file until that child exits.
                var fds: [Int32] = [0, 0]
                guard pipe2(&fds, O_CLOEXEC) == 0 else { throw SpawnError(description: "pipe failed") }
                readEnds[index] = fds[0]
                writeEnds.append(fds[1])
                posix_spawn_file_actions_adddup2(&actions, fds[1], target)
                posix_spawn_file_actions_addclose(&actions, fds[1])
            }
        }
        // The child gets standard input, output and error and nothing else: a descriptor
        // another part of this process opened without close-on-exec (Foundation's Pipe does)
        // would otherwise live on in a server for as long as it runs.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, env)
        for fd in writeEnds { close(fd) }
        if input[0] >= 0 { close(input[0]) }
        guard result == 0 else {
            readEnds.filter { $0 >= 0 }.forEach { close($0) }
            if input[1] >= 0 { close(input[1]) }
            throw SpawnError(description: "cannot run \(path): \(String(cString: strerror(result)))")
        }
        pid = child
        stdoutFD = readEnds[0]
        stderrFD = readEnds[1]
        stdinFD = input[1]
        LiveChildren.shared.add(child)
    }

    /// Ends a tool that failed: `tool: message` on stderr, SIGTERM to every child still
    /// running (`exit` runs no deinit, so nothing else would stop its Xvfb), exit status 1.
    public static func exitFailing(_ tool: String, _ message: String) -> Never {
        FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
        LiveChildren.shared.terminateAll()
        exit(1)
    }

    /// Makes SIGINT, SIGTERM and SIGHUP to this process stop its running children (SIGTERM:
    /// an Xvfb then removes its own lock file and socket) before it exits with 128 + the
    /// signal. For the tools (the tour, the bench), so that killing one leaves no server behind.
    public static func stopChildrenOnTermination() {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            _ = Glibc.signal(signal) { received in
                LiveChildren.shared.terminateAll()
                _exit(128 + received)
            }
        }
    }

    deinit {
        stop()
        if stdoutFD >= 0 { close(stdoutFD) }
        if stderrFD >= 0 { close(stderrFD) }
        if stdinFD >= 0 { close(stdinFD) }
    }

    /// Writes to the child's standard input (made with `standardInput`); false when it cannot.
    @discardableResult
    public func write(_ text: String) -> Bool {
        guard stdinFD >= 0 else { return false }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes {
                send(stdinFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            written += count
        }
        return true
    }

    /// Whether the child still runs (reaps it when it has exited).
    public var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        if result == pid {
            status = raw
            LiveChildren.shared.remove(pid)
            return false
        }
        return result == 0
    }

    /// The exit status, once exited (128 + signal number when killed by a signal).
    public var exitStatus: Int32? {
        guard !isRunning, let status else { return nil }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// Sends a signal.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the child to exit; returns its status, or nil on timeout.
    @discardableResult
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(1000) }
        return exitStatus
    }

    /// SIGTERM (or SIGKILL when `abruptly`), then SIGKILL if the child lingers; to its whole
    /// process group when it leads one.
    public func stop(abruptly: Bool = false) {
        let target = leadsProcessGroup ? -pid : pid
        defer { if leadsProcessGroup { kill(target, SIGKILL) } }  // what it started, gone too
        guard isRunning else { return }
        kill(target, abruptly ? SIGKILL : SIGTERM)
        if wait(timeout: 3) == nil {
            kill(target, SIGKILL)
            wait(timeout: 3)
        }
    }

    /// Reads what the child wrote to a pipe so far (non-blocking after `timeout`).
    public static func read(_ fd: Int32, timeout: TimeInterval = 0) -> String {
        guard fd >= 0 else { return "" }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var wait = Int32(timeout * 1000)
        while poll(&pfd, 1, wait) > 0 {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            result += buffer.prefix(count)
            wait = 0
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// The pids of the children still running, in a fixed table that a signal handler can walk
/// without allocating or locking (writers take the lock; a handler reading a slot mid-update
/// at worst misses a child that was just starting or has just exited).
private final class LiveChildren: @unchecked Sendable {
    static let shared = LiveChildren()
    private static let capacity = 256
    private let slots: UnsafeMutablePointer<pid_t>
    private let lock = NSLock()

    private init() {
        slots = .allocate(capacity: LiveChildren.capacity)
        slots.initialize(repeating: 0, count: LiveChildren.capacity)
    }

    func add(_ pid: pid_t) {
        lock.withLock {
            if let free = (0..<LiveChildren.capacity).first(where: { slots[$0] == 0 }) { slots[free] = pid }
        }
    }

    func remove(_ pid: pid_t) {
        lock.withLock {
            for index in 0..<LiveChildren.capacity where slots[index] == pid { slots[index] = 0 }
        }
    }

    /// Async-signal-safe: only reads the table and calls kill(2).
    func terminateAll() {
        for index in 0..<LiveChildren.capacity where slots[index] > 0 { kill(slots[index], SIGTERM) }
    }
}
