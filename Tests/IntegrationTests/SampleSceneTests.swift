import Foundation
import Testing
import X11TestSupport

/// The demo's sample scene, driven from outside with XTest on a private Xvfb, as a user would.
@Suite(.serialized)
final class SampleSceneTests {
    let server: XvfbServer
    let probe: ServerProbe
    let demo: ProgramProcess

    init() throws {
        server = try XvfbServer()
        probe = try ServerProbe(display: server.display)
        demo = try ProgramProcess("tooltip-demo", arguments: ["--scene", "sample"], display: server.display)
        _ = demo.waitForView("text-view")
        probe.movePointer(to: server.width - 1, server.height - 1)
    }

    /// Hovers a point and waits for a mapped tooltip window; returns it.
    func hover(_ x: Int, _ y: Int, timeout: TimeInterval = 3) -> ServerProbe.WindowInfo? {
        probe.movePointer(to: x, y)
        var tip: ServerProbe.WindowInfo?
        wait(timeout: timeout) {
            tip = probe.mappedPopups().last
            return tip != nil
        }
        return tip
    }

    func waitForNoTooltip(timeout: TimeInterval = 2) -> Bool {
        wait(timeout: timeout) { probe.mappedPopups().isEmpty }
    }

    @Test func defaultViewShowsItsTooltipBelow() throws {
        let view = try #require(demo.frames()["default-view"])
        let tip = try #require(hover(view.midX, view.midY))
        #expect(probe.string(tip.id, "_NET_WM_NAME") == "The default tooltip for the view.")
        #expect(probe.windowType(tip.id) == "_NET_WM_WINDOW_TYPE_TOOLTIP")
        // Below the view, centred on it, clear of the pointer.
        #expect(tip.frame.y >= view.maxY)
        #expect(abs((tip.frame.x + tip.frame.width / 2) - view.midX) <= 1)
        #expect(
            !Frame(x: tip.frame.x, y: tip.frame.y, width: tip.frame.width, height: tip.frame.height)
                .contains(view.midX, view.midY))
    }
}
