import Foundation
import Testing
import X11TestSupport
@_spi(Testing) @testable import X11UI

/// The fade as the screen shows it under a real compositor (xcompmgr, which honours
/// `_NET_WM_WINDOW_OPACITY`), on virtual time: between two frames the opacity holds still, so
/// the test waits until the compositor painted it (a marker changed after it is on the screen)
/// and reads the pixel in the middle of the bubble, then moves the clock on.
@Suite(.serialized)
@MainActor
final class ToolTipFadeScreenTests {
    let harness: Harness
    let compositor: ChildProcess
    let marker: CompositorMarker
    let source = block(160, 60, toolTip: "Fading")
    var app: Application { harness.app }
    var probe: ServerProbe { harness.probe }

    init() throws {
        harness = try Harness(width: 640, height: 480)
        let display = harness.display.server.display
        compositor = try ChildProcess("/usr/bin/xcompmgr", ["-d", display], environment: ["DISPLAY": display])
        let probe = harness.probe
        _ = wait(timeout: 5) { probe.selectionOwner("_NET_WM_CM_S0") != 0 }
        // In the corner, clear of the window and its tooltip.
        marker = try CompositorMarker(probe: probe, x: 632, y: 472)
        // A dark window under the pale bubble: each step of the fade is a clear change.
        harness.show(VStack(padding: 40) { source }, size: Size(width: 400, height: 300)).backgroundColor = Color(
            rgb: 0x203040)
        let app = harness.app
        harness.run(until: { app.screen.isComposited })
    }

    deinit { compositor.stop() }

    /// How far a colour is from another, summed over the channels.
    static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        var sum = 0
        for shift: UInt32 in [0, 8, 16] {
            let x = Int((a >> shift) & 0xff)
            let y = Int((b >> shift) & 0xff)
            sum += abs(x - y)
        }
        return sum
    }

    /// The screen's pixel at `point` once the compositor has painted everything the
    /// application did so far (every frame of a virtual-time step, which it may paint one by
    /// one; the harness's steps end once the server has the application's requests).
    func painted(at point: (Int, Int)) -> UInt32 {
        #expect(marker.waitForCompositor(), "the compositor paints")
        return probe.pixel(point.0, point.1)
    }

    /// The middle of the bubble on the screen, while a tooltip is on it.
    func bubbleCenter() throws -> (Int, Int) {
        let geometry = try #require(app.toolTips.presenter.geometry)
        let frame = geometry.windowFrame
        return (Int(frame.minX + geometry.body.midX), Int(frame.minY + geometry.body.midY))
    }

    @Test func theBubbleFadesInAndOutOnTheScreen() throws {
        try #require(app.screen.isComposited)
        let before = probe.pixels(0, 0, 640, 480)
        harness.move(to: harness.center(of: source))
        harness.wait(40)
        try #require(app.toolTips.shownText == "Fading")
        let center = try bubbleCenter()
        let beneath = before[center.1 * 640 + center.0]
        let first = painted(at: center)
        harness.wait(50)
        let middle = painted(at: center)
        harness.wait(200)
        let full = painted(at: center)
        let whole = Self.distance(full, beneath)
        try #require(whole > 150, "the bubble stands out from what is under it: \(full) on \(beneath)")
        let (d1, d2) = (Self.distance(first, beneath), Self.distance(middle, beneath))
        #expect(d1 > 0 && d1 < whole / 3, "the first frame shows a little of the bubble, not all of it")
        #expect(d2 > d1 && d2 < whole, "then more: \(d1) \(d2) \(whole)")

        harness.move(to: Point(x: 390, y: 290))
        #expect(!app.toolTips.isShowing)
        harness.wait(60)
        let fading = painted(at: center)
        let d3 = Self.distance(fading, beneath)
        #expect(d3 > whole / 4 && d3 < whole * 3 / 4, "halfway out: \(d3) of \(whole)")
        harness.wait(100)
        #expect(painted(at: center) == beneath, "gone")
    }

    /// With animations off the first frame the compositor paints is the whole bubble.
    @Test func withAnimationsOffTheBubbleShowsWhole() throws {
        var settings = app.desktopSettings
        settings.enableAnimations = false
        app.desktopSettingsDidChange(settings)
        let before = probe.pixels(0, 0, 640, 480)
        harness.move(to: harness.center(of: source))
        harness.wait(40)
        let center = try bubbleCenter()
        let beneath = before[center.1 * 640 + center.0]
        let first = painted(at: center)
        harness.wait(200)  // past a fade's length
        #expect(first == painted(at: center), "no step after the first")
        #expect(Self.distance(first, beneath) > 150)
    }
}
