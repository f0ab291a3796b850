import Foundation

/// `scripts/bus-client.py` on a private session bus: a client that owns no name unless told
/// and sends what any client of the bus can send to a program on it (signals to it alone, in
/// any number and size), or owns `org.a11y.Bus` and names an accessibility bus.
public final class TestBusClient: @unchecked Sendable {
    public static let script = URL(fileURLWithPath: TestPortal.script).deletingLastPathComponent()
        .appendingPathComponent("bus-client.py").path

    private let process: ChildProcess
    private var output = ""

    /// Starts the client on `bus` and waits until it is connected.
    public init(bus: TestSessionBus) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        process = try ChildProcess(
            "/usr/bin/python3", [Self.script], environment: environment, stdout: .pipe, standardInput: true)
        guard waitForLine("READY", timeout: 20) else {
            throw XvfbServer.StartError(description: "the bus client did not start: \(output)")
        }
    }

    deinit {
        process.write("quit\n")
        process.stop()
    }

    private var lines: [String] {
        output += ChildProcess.read(process.stdoutFD)
        return output.split(separator: "\n").map(String.init)
    }

    @discardableResult
    private func waitForLine(_ line: String, timeout: TimeInterval = 30) -> Bool {
        wait(timeout: timeout) { self.lines.contains(line) }
    }

    /// Sends a command and waits until it was sent.
    @discardableResult
    public func command(_ text: String, timeout: TimeInterval = 30) -> Bool {
        process.write(text + "\n") && waitForLine("DONE " + text, timeout: timeout)
    }

    /// The unique name of process `pid`'s connection to the bus, once it has one.
    public func uniqueName(ofProcess pid: Int32, timeout: TimeInterval = 10) -> String? {
        var name: String?
        _ = wait(timeout: timeout) {
            guard command("find \(pid)") else { return false }
            name = lines.last { $0.hasPrefix("NAME ") }.map { String($0.dropFirst(5)) }
            return name?.isEmpty == false
        }
        return name?.isEmpty == false ? name : nil
    }
}
