import Foundation
import Testing

/// The layer rules of the source tree (scripts/check-layers.sh, also run by `make lint` and CI):
/// only Platform/ and Drawing/ import CX11, and no library file is over 400 lines.
struct LayerRuleTests {
    @Test func onlyPlatformAndDrawingImportCX11AndNoFileIsTooLong() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/check-layers.sh")
        try #require(FileManager.default.fileExists(atPath: script.path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("check-layers: CX11 only in Platform/ and Drawing/"))
    }
}
