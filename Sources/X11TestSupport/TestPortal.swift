import Foundation

/// A private session bus: a `dbus-daemon` with a configuration of its own, which starts no
/// services (nothing installed on the machine answers on it, not even an xdg-desktop-portal)
/// and lets every client own any name. Stopped when released.
public final class TestSessionBus: @unchecked Sendable {
    /// The address to give programs as `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    private let daemon: ChildProcess
    private let configuration: String

    /// Starts the bus, listening on a socket of its own in the temporary directory, or at
    /// `socketPath` (`$XDG_RUNTIME_DIR/bus`, where a user session's bus listens); it starts
    /// the services of `serviceDirectory` on demand (none without it).
    /// `maxMessageSize` raises the bus's own limit on a message (32 MiB by default; a user
    /// session's bus allows 1 GB); the services it starts get `environment` (this process's
    /// without it).
    public init(
        socketPath: String? = nil, serviceDirectory: String? = nil, maxMessageSize: Int? = nil,
        environment: [String: String]? = nil
    ) throws {
        configuration = NSTemporaryDirectory() + "x11ui-bus-\(UUID().uuidString).conf"
        let listen = socketPath.map { "unix:path=\($0)" } ?? "unix:tmpdir=\(NSTemporaryDirectory())"
        let text = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(listen)</listen>
              <auth>EXTERNAL</auth>
              \(serviceDirectory.map { "<servicedir>\($0)</servicedir>" } ?? "")
              \(maxMessageSize.map { "<limit name=\"max_message_size\">\($0)</limit>" } ?? "")
              \(maxMessageSize.map { "<limit name=\"max_incoming_bytes\">\($0 * 2)</limit>" } ?? "")
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try text.write(toFile: configuration, atomically: true, encoding: .utf8)
        let daemon = try ChildProcess(
            "/usr/bin/dbus-daemon", ["--config-file=\(configuration)", "--nofork", "--print-address=1"],
            environment: environment, stdout: .pipe)
        self.daemon = daemon
        var output = ""
        _ = wait(timeout: 10) {
            output += ChildProcess.read(daemon.stdoutFD, timeout: 0.05)
            return output.contains("\n")
        }
        guard let line = output.split(separator: "\n").first, line.hasPrefix("unix:") else {
            daemon.stop()
            throw XvfbServer.StartError(description: "dbus-daemon gave no address: \(output)")
        }
        address = String(line)
    }

    deinit {
        daemon.stop()
        try? FileManager.default.removeItem(atPath: configuration)
    }
}

/// `scripts/test-portal.py` on a private session bus: a freedesktop settings portal that
/// starts with the given values, changes them on command and emits `SettingChanged`.
public final class TestPortal: @unchecked Sendable {
    public static let appearance = "org.freedesktop.appearance"
    /// `scripts/test-portal.py`.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/test-portal.py").path

    public let bus: TestSessionBus
    private let process: ChildProcess
    private var output = ""

    /// Starts the portal and waits until it owns its name.
    ///
    /// - Parameters:
    ///   - values: the `org.freedesktop.appearance` keys and their values in GVariant text
    ///     (`["color-scheme": "uint32 1"]`).
    ///   - others: keys of other namespaces, by namespace (GNOME's:
    ///     `["org.gnome.desktop.a11y.interface": ["high-contrast": "true"]]`).
    ///   - options: `--version 1` (no `ReadOne`), `--silent` (never answers), `--hold`
    ///     (answers when `release()` says), `--pad BYTES` (answers that large).
    public init(
        _ values: [String: String] = [:], others: [String: [String: String]] = [:], options: [String] = [],
        bus: TestSessionBus? = nil
    ) throws {
        self.bus = try bus ?? TestSessionBus()
        var arguments = [Self.script] + options
        for (key, value) in values.sorted(by: { $0.key < $1.key }) { arguments += [Self.appearance, key, value] }
        for (namespace, keys) in others.sorted(by: { $0.key < $1.key }) {
            for (key, value) in keys.sorted(by: { $0.key < $1.key }) { arguments += [namespace, key, value] }
        }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = self.bus.address
        process = try ChildProcess(
            "/usr/bin/python3", arguments, environment: environment, stdout: .pipe, standardInput: true)
        guard waitForLine("READY", timeout: 20) else {
            throw XvfbServer.StartError(description: "the test portal did not start: \(output)")
        }
    }

    deinit {
        process.write("quit\n")
        process.stop()
    }

    /// The environment that puts a program on the portal's bus.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus.address] }

    /// Everything the portal printed so far.
    public var lines: [String] {
        output += ChildProcess.read(process.stdoutFD)
        return output.split(separator: "\n").map(String.init)
    }

    /// The calls it received, as `"ReadOne color-scheme"`.
    public var calls: [String] { lines.filter { $0.hasPrefix("CALL ") }.map { String($0.dropFirst(5)) } }

    /// Waits until the portal printed `line`.
    @discardableResult
    public func waitForLine(_ line: String, timeout: TimeInterval = 5) -> Bool {
        wait(timeout: timeout) { self.lines.contains(line) }
    }

    /// Sets an `org.freedesktop.appearance` key (GVariant text) and emits `SettingChanged`;
    /// returns once the signal is sent.
    @discardableResult
    public func set(_ key: String, _ value: String) -> Bool {
        command("set \(Self.appearance) \(key) \(value)")
    }

    /// Sets a key of any namespace and emits `SettingChanged`.
    @discardableResult
    public func set(namespace: String, _ key: String, _ value: String) -> Bool {
        command("set \(namespace) \(key) \(value)")
    }

    /// Emits `SettingChanged` for any namespace and key, without changing what it reads.
    @discardableResult
    public func emit(namespace: String, _ key: String, _ value: String) -> Bool {
        command("emit \(namespace) \(key) \(value)")
    }

    /// Answers the calls held so far (a portal started with `--hold`).
    @discardableResult
    public func release() -> Bool { command("release") }

    private func command(_ text: String) -> Bool {
        process.write(text + "\n") && waitForLine("DONE " + text)
    }
}
