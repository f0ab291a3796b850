import Foundation
import Testing
import X11TestSupport

/// `scripts/orca-probe.py` reads Orca's debug log, whose format changed between Orca 43
/// (Debian 12) and Orca 48 (Debian 13). Excerpts of both versions' real logs of the same walk
/// (Tests/Fixtures) go through the probe's own parser (`--parse-log`): it finds the version,
/// the application and every utterance in each.
@Suite struct OrcaProbeLogTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The parser's lines for a saved log and an application name.
    static func parse(_ fixture: String, application: String = "tooltip-demo") throws -> [String] {
        let output = NSTemporaryDirectory() + "x11ui-orca-parse-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let parser = try ChildProcess(
            "/usr/bin/python3",
            [
                package.appendingPathComponent("scripts/orca-probe.py").path, "--parse-log",
                package.appendingPathComponent("Tests/Fixtures/\(fixture)").path, application,
            ], stdout: .file(output))
        let status = parser.wait(timeout: 30)
        #expect(status == 0, "the parser ran")
        return ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func spoken(_ lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("SPOKEN ") }.map { String($0.dropFirst(7)) }
    }

    @Test func orca43sLogIsRead() throws {
        let lines = try Self.parse("orca-43-debug.log")
        #expect(lines.contains("VERSION 43.1"))
        #expect(lines.contains("APPLICATION tooltip-demo named"))
        #expect(
            Self.spoken(lines) == [
                "X11UI Tooltips frame.", "Buy, Only $9.99 push button.", Self.buyText, "Add to Cart push button.",
                "Add this item to your cart. Your cart is empty.", "Check Out push button Ctrl+Return.",
                "Check out 1 item for $9.99.", "tool tip Check out 1 item for $9.99. (Ctrl+Return)",
            ], "\(lines)")
    }

    @Test func orca48sLogIsRead() throws {
        let lines = try Self.parse("orca-48-debug.log")
        #expect(lines.contains("VERSION 48.1"))
        #expect(lines.contains("APPLICATION tooltip-demo named"))
        #expect(
            Self.spoken(lines) == [
                "X11UI Tooltips frame", "tab", "Buy, Only $9.99 button.", Self.buyText, "tab", "Add to Cart button.",
                "Add this item to your cart. Your cart is empty.", "tool tip", "space", "escape", "tab",
                "Check Out button.", "Ctrl+Return Check out 1 item for $9.99.",
                "tool tip Check out 1 item for $9.99. (Ctrl+Return)",
            ], "\(lines)")
    }

    /// An application the log never names is not taken for one it does (in either format).
    @Test(arguments: ["orca-43-debug.log", "orca-48-debug.log"])
    func anotherApplicationIsNotNamed(fixture: String) throws {
        #expect(try Self.parse(fixture, application: "tooltip").contains("APPLICATION tooltip absent"))
        #expect(try Self.parse(fixture, application: "embed-example").contains("APPLICATION embed-example absent"))
    }

    static let buyText =
        "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."
}
