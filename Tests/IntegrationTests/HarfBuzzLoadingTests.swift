import Foundation
import Testing
import X11TestSupport

/// HarfBuzz (and GLib with it, about 1 MB) is loaded by the first text that needs shaping, and
/// only then: the demo's sample scene (Latin and Korean) never loads it, the placements scene's
/// Arabic label loads it as the window first shows.
@Suite(.serialized)
struct HarfBuzzLoadingTests {
    /// A program's memory map (its libraries).
    func loadedLibraries(_ session: ProgramSession) throws -> String {
        // /proc files report no size: read them to the end rather than by their length.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(session.program.process.pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("libX11"), "the map was read")
        return maps
    }

    @Test func textThatNeedsNoShapingNeverLoadsHarfBuzz() throws {
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
        #expect(!(try loadedLibraries(session).contains("libharfbuzz")))
    }

    @Test func arabicOnScreenLoadsHarfBuzz() throws {
        let session = try ProgramSession(arguments: ["--scene", "placements"], readyView: "rtl-label")
        #expect(try loadedLibraries(session).contains("libharfbuzz"), "the Arabic label is shaped")
    }
}
