import Foundation
import Testing
import X11TestSupport

/// The demo started with FIFOs where it reads files: in place of its font store, and as the
/// text cursor of its cursor theme. Nobody ever writes them; a blocking open would wait for
/// ever. The program starts, paints, and stays answering with the pointer over the text view.
@Suite(.serialized)
struct HostileFilesProgramTests {
    @Test func fifosInPlaceOfTheFontStoreAndACursorFileNeitherBlockNorFeedTheProgram() throws {
        let folder = NSTemporaryDirectory() + "x11ui-hostile-program-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = folder + "/cache"
        let themes = folder + "/icons"
        try FileManager.default.createDirectory(atPath: themes + "/fifo/cursors", withIntermediateDirectories: true)
        try #require(mkfifo(themes + "/fifo/cursors/text", 0o600) == 0)
        let environment = [
            "XDG_CACHE_HOME": cache, "XCURSOR_PATH": themes, "XCURSOR_THEME": "fifo", "XCURSOR_SIZE": "",
        ]
        let storeFolder = cache + "/x11ui"
        func storeName() -> String? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: storeFolder)) ?? []
            return names.first { $0.hasPrefix("font-matches-") && !$0.hasSuffix(".tmp") }
        }

        // A first start writes the store; then a FIFO takes its place.
        do {
            let first = try ProgramSession(
                arguments: ["--scene", "sample"], readyView: "text-view", environment: environment)
            #expect(wait(timeout: 30) { storeName() != nil }, "\(first.program.standardError)")
        }
        let name = try #require(storeName())
        try FileManager.default.removeItem(atPath: storeFolder + "/" + name)
        try #require(mkfifo(storeFolder + "/" + name, 0o600) == 0)

        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "text-view", environment: environment)
        let probe = session.probe
        let window = try #require(session.program.windows.first)
        let frame = try #require(probe.info(window)).frame
        #expect(
            wait(timeout: 10) { Set(probe.windowPixels(window, width: frame.width, height: frame.height)).count > 2 },
            "the window is painted")
        let text = try session.frame("text-view")
        probe.movePointer(to: text.midX, text.midY)
        probe.sync()
        let buy = try session.frame("buy-button")
        probe.movePointer(to: buy.midX, buy.midY)
        #expect(session.waitForToolTip(timeout: 5) != nil, "still answering: \(session.program.standardError)")
        #expect(session.program.standardError.contains("cursor file"), "\(session.program.standardError)")
    }
}
