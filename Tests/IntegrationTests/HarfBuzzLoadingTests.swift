import Foundation
import Testing
import X11TestSupport

/// HarfBuzz (and GLib with it, about 1 MB) is loaded by the first text that needs shaping, and
/// only then: the demo's sample scene (Latin and Korean) never loads it, the placements scene's
/// Arabic label loads it as the window first shows.
@Suite(.serialized)
struct HarfBuzzLoadingTests {
    @Test func textThatNeedsNoShapingNeverLoadsHarfBuzz() throws {
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
        #expect(!(try #require(session.memoryMap()).contains("libharfbuzz")))
    }

    @Test func arabicOnScreenLoadsHarfBuzz() throws {
        let session = try ProgramSession(arguments: ["--scene", "placements"], readyView: "rtl-label")
        #expect(try #require(session.memoryMap()).contains("libharfbuzz"), "the Arabic label is shaped")
    }
}
