import CX11
import Foundation

/// A private Xvfb for tests, tours and the benchmark: it picks a free display number itself
/// (`-displayfd`), and on `stop()` it is killed and its lock file and socket are removed — never
/// any other display's.
public final class XvfbServer: @unchecked Sendable {
    /// The display name (`":93"`).
    public let display: String
    /// The display number.
    public let number: Int
    private let process: ChildProcess
    /// The screen size.
    public let width: Int
    public let height: Int

    /// Why Xvfb could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Starts Xvfb with one screen and waits until it accepts connections.
    ///
    /// - Parameters:
    ///   - extraArguments: more Xvfb arguments (`["-dpi", "144"]`).
    public init(width: Int = 1280, height: Int = 800, depth: Int = 24, extraArguments: [String] = []) throws {
        XlibThreads.enable()
        self.width = width
        self.height = height
        // Xvfb writes the display number to its standard output once it accepts connections;
        // the pipe stays open for its lifetime (closing it would kill Xvfb with SIGPIPE).
        process = try ChildProcess(
            XvfbServer.xvfbPath,
            ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x\(depth)", "-nolisten", "tcp", "-noreset"]
                + extraArguments, stdout: .pipe)
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n") && Date() < deadline && process.isRunning {
            text += ChildProcess.read(process.stdoutFD, timeout: 0.05)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.stop(abruptly: true)
            throw StartError(description: "Xvfb did not start (is the xvfb package installed?)")
        }
        self.number = number
        display = ":\(number)"
        ServerLedger.started(pid: process.pid, number: number)
    }

    deinit { stop() }

    /// The Xvfb binary.
    static var xvfbPath: String {
        for path in ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return "/usr/bin/Xvfb"
    }

    /// The server's process id.
    public var pid: Int32 { process.pid }

    /// Whether the server still runs.
    public var isRunning: Bool { process.isRunning }

    /// Kills the server (SIGKILL when `abruptly`, to test a server that dies) and removes the
    /// socket (and lock file) it left behind.
    ///
    /// A server stopped with SIGTERM removes its files itself; a killed one leaves them. Only
    /// files that are still this server's go: once it is gone, a server of another test
    /// running in parallel may already have taken the display number (Xvfb picks the lowest
    /// free one), and removing its socket would leave it listening where no client finds it.
    /// A socket that nothing listens on any more is a dead server's; a lock file is this one's
    /// when it holds its pid (Xvfb started with `-displayfd` writes none).
    public func stop(abruptly: Bool = false) {
        process.stop(abruptly: abruptly)
        ServerLedger.stopped(pid: process.pid)
        let lock = "/tmp/.X\(number)-lock"
        let owner = (try? String(contentsOfFile: lock, encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        if owner == process.pid { try? FileManager.default.removeItem(atPath: lock) }
        let socket = "/tmp/.X11-unix/X\(number)"
        if XvfbServer.nothingListens(at: socket) { unlink(socket) }
    }

    /// Whether a Unix socket file exists that refuses connections: its server is dead.
    public static func nothingListens(at path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let result = UnixSocket.connect(fd, to: path)
        return result != 0 && errno == ECONNREFUSED
    }
}

/// Test processes use Xlib from several threads at once (each test its own connections, run in
/// parallel); Xlib then needs XInitThreads before any other call. X11UI itself is
/// single-threaded and does not call it.
public enum XlibThreads {
    private static let once: Void = { _ = XInitThreads() }()

    /// Calls XInitThreads once per process; call it before any other Xlib call.
    public static func enable() { _ = once }
}
