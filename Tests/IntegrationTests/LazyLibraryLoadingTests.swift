import Foundation
import Testing
import X11TestSupport

/// libXrandr, libXfixes and FriBidi are not linked: FriBidi is mapped by the first text with a
/// right-to-left character, and only then (the sample scene, Latin and Korean, never maps it,
/// even with a tooltip shown; the placements scene's Hebrew and Arabic labels map it), and the
/// extension libraries by the work that waits until the first window shows.
@Suite(.serialized)
struct LazyLibraryLoadingTests {
    @Test func latinTextAndItsTooltipNeverLoadFriBidi() throws {
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
        let view = try session.frame("default-view")
        session.probe.movePointer(to: view.midX, view.midY)
        #expect(session.waitForToolTip(named: "The default tooltip for the view.") != nil)
        let maps = try #require(session.memoryMap())
        #expect(!maps.contains("libfribidi"))
        // The tooltip's shape goes as rectangles: no 1-bit pixmap, whose creation makes Xlib
        // load libXcursor.
        #expect(!maps.contains("libXcursor"))
    }

    @Test func rightToLeftTextOnScreenLoadsFriBidi() throws {
        let session = try ProgramSession(arguments: ["--scene", "placements"], readyView: "rtl-label")
        #expect(try #require(session.memoryMap()).contains("libfribidi"), "the right-to-left labels are reordered")
    }

    /// Once the first window shows, the extensions are asked for through the libraries, opened
    /// then (the monitors come from RandR: see the monitor tests).
    @Test func theExtensionLibrariesAreOpenedAfterTheFirstWindowShows() throws {
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
        let view = try session.frame("default-view")
        session.probe.movePointer(to: view.midX, view.midY)
        #expect(session.waitForToolTip() != nil)
        let maps = try #require(session.memoryMap())
        #expect(maps.contains("libXrandr.so.2") && maps.contains("libXfixes.so.3"))
    }
}
