import Foundation

/// A rectangle as the inspector and the server report it, in whole pixels.
public struct Frame: Equatable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var midX: Int { x + width / 2 }
    public var midY: Int { y + height / 2 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public func contains(_ px: Int, _ py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
    public func contains(_ other: Frame) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }
    public var description: String { "[\(x), \(y), \(width), \(height)]" }
}

/// An X11UI program (the demo, the embedding example) started on a test display, with its
/// inspector log read back.
public final class ProgramProcess: @unchecked Sendable {
    public let process: ChildProcess
    public let inspectorPath: String

    /// Starts a program built next to the running binary.
    public init(
        _ name: String, arguments: [String] = [], display: String, environment: [String: String] = [:],
        stdout: ChildProcess.Output = .null
    ) throws {
        inspectorPath = NSTemporaryDirectory() + "x11ui-inspect-\(UUID().uuidString).jsonl"
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env["X11UI_INSPECT"] = inspectorPath
        // Programs under test never reach the user's session or accessibility bus; a test that
        // wants one passes its own address in `environment`.
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        env["XDG_RUNTIME_DIR"] = nil  // where a user session's bus is found without the address
        env["AT_SPI_BUS_ADDRESS"] = nil
        for (key, value) in environment { env[key] = value }
        process = try ChildProcess(
            ProgramProcess.executablePath(name), arguments, environment: env, stdout: stdout, stderr: .pipe)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: inspectorPath)
    }

    /// The path of an executable built by SwiftPM in the same build folder as this process.
    public static func executablePath(_ name: String) -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = me.deletingLastPathComponent()
        // Inside an .xctest bundle on some toolchains, the binary sits one level deeper.
        if folder.pathExtension == "xctest" { folder = folder.deletingLastPathComponent() }
        return folder.appendingPathComponent(name).path
    }

    /// The inspector's JSON lines so far.
    public var events: [[String: Any]] {
        guard let text = try? String(contentsOfFile: inspectorPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The frames of identified views in the latest layout of each window (only the window
    /// titled `title`, when given).
    public func frames(windowTitle title: String? = nil) -> [String: Frame] {
        var latest: [Int: [[String: Any]]] = [:]
        for event in events where event["event"] as? String == "layout" {
            guard title == nil || event["title"] as? String == title, let window = event["window"] as? Int,
                let views = event["views"] as? [[String: Any]]
            else { continue }
            latest[window] = views
        }
        var result: [String: Frame] = [:]
        for views in latest.values {
            for view in views {
                guard let id = view["id"] as? String, let f = view["frame"] as? [Double], f.count == 4 else {
                    continue
                }
                result[id] = Frame(x: Int(f[0]), y: Int(f[1]), width: Int(f[2]), height: Int(f[3]))
            }
        }
        return result
    }

    /// Waits until a layout lists the view `id`, and returns its frame.
    public func waitForView(_ id: String, timeout: TimeInterval = 10) -> Frame? {
        var frame: Frame?
        _ = wait(timeout: timeout) {
            frame = self.frames()[id]
            return frame != nil
        }
        return frame
    }

    /// The X windows the inspector has reported layouts for.
    public var windows: Set<UInt> {
        Set(events.compactMap { $0["event"] as? String == "layout" ? ($0["window"] as? Int).map(UInt.init) : nil })
    }

    /// The tooltip events (`shown` / `hidden`) so far.
    public var toolTipEvents: [(state: String, source: String?, text: String)] {
        events.filter { $0["event"] as? String == "tooltip" }.map {
            ($0["state"] as? String ?? "", $0["source"] as? String, $0["text"] as? String ?? "")
        }
    }

    /// Stops the program (SIGTERM) and waits for it.
    public func stop() {
        process.stop()
    }

    /// Waits for the program to exit on its own; nil on timeout.
    public func waitForExit(timeout: TimeInterval) -> Int32? {
        process.wait(timeout: timeout)
    }

    private var stderrSoFar = ""

    /// What the program wrote on standard error so far.
    public var standardError: String {
        stderrSoFar += ChildProcess.read(process.stderrFD)
        return stderrSoFar
    }
}

/// Polls `condition` every 2 ms until it holds or `timeout` passes; returns whether it held.
@discardableResult
public func wait(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// Checks `condition` every 2 ms for `duration`, and returns false as soon as it fails: for
/// what must stay true (a tooltip that must not come back, one that must stay), checked on
/// the server's state all along rather than once after a sleep.
public func holds(for duration: TimeInterval, _ condition: () -> Bool) -> Bool {
    !wait(timeout: duration) { !condition() }
}
