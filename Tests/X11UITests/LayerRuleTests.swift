import Foundation
import Testing
import X11TestSupport

/// The layer rules of the source tree (scripts/check-layers.sh, also run by `make lint` and CI):
/// only the folders at the X edge (Platform, Desktop, Fonts, Text, Drawing) import CX11,
/// X11UICore has no dependency, and no library file is over 400 lines.
struct LayerRuleTests {
    @Test func onlyTheXEdgeImportsCX11AndNoFileIsTooLong() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/check-layers.sh")
        try #require(FileManager.default.fileExists(atPath: script.path))
        // A bounded wait on a file, not a read to the end of a pipe: the test must end even if
        // something else in this process holds the pipe open.
        let output = NSTemporaryDirectory() + "x11ui-layers-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let child = try ChildProcess("/bin/bash", [script.path], stdout: .file(output), stderr: .file(output))
        let status = child.wait(timeout: 60)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(text)")
        #expect(text.contains("check-layers: CX11 only at the X edge"))
    }
}
