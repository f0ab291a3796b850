import Foundation
import Testing
import X11TestSupport
import X11UI

/// A tooltip is placed sanely on any screen geometry: tiny and huge screens, sources at every edge and corner, several RandR
/// monitors with gaps, a source spanning two monitors. The tooltip lies wholly on one monitor
/// and never under the pointer. Hovering goes through XTest, the real path. (Xvfb's RandR does
/// not take `xrandr --setmonitor`, so the monitor layouts are given to the application.)
@Suite(.serialized)
@MainActor
struct GeometryTests {
    /// Shows a window filling the screen with a view at each edge and corner, hovers each, and
    /// checks where its tooltip went.
    func checkEdgesAndCorners(width: Int, height: Int, monitors: [Frame]? = nil) throws {
        let harness = try Harness(width: width, height: height)
        if let monitors {
            harness.app.monitorOverride = monitors.map {
                Rect(x: Double($0.x), y: Double($0.y), width: Double($0.width), height: Double($0.height))
            }
        }
        let size = 24.0
        let w = Double(width)
        let h = Double(height)
        let positions: [(String, Double, Double)] = [
            ("top-left", 0, 0), ("top", w / 2 - size / 2, 0), ("top-right", w - size, 0),
            ("left", 0, h / 2 - size / 2), ("right", w - size, h / 2 - size / 2),
            ("bottom-left", 0, h - size), ("bottom", w / 2 - size / 2, h - size), ("bottom-right", w - size, h - size),
        ]
        let container = View()
        var views: [(String, View)] = []
        for (name, x, y) in positions {
            let view = block(size, size, toolTip: "A tooltip long enough to need shifting at \(name)")
            view.frame = Rect(x: x, y: y, width: size, height: size)
            container.addSubview(view)
            views.append((name, view))
        }
        let window = harness.show(container, size: Size(width: w, height: h))
        // A window is made to fit its monitor; this one is to span them all, as the program
        // may make it by resizing it.
        window.resize(to: Size(width: w, height: h))
        harness.settle()
        let screens = monitors ?? [Frame(x: 0, y: 0, width: width, height: height)]
        for (name, view) in views {
            harness.probe.movePointer(to: width / 2, height / 2)
            harness.wait(80)
            let frame = try #require(view.frameOnScreen)
            let pointer = (Int(frame.midX), Int(frame.midY))
            harness.probe.movePointer(to: pointer.0, pointer.1)
            #expect(harness.run(until: { harness.app.toolTips.isShowing }), "\(name): no tooltip")
            guard let tip = harness.toolTipFrame else { continue }
            #expect(screens.contains { $0.contains(tip) }, "\(name): \(tip) is not wholly on one monitor")
            #expect(!tip.contains(pointer.0, pointer.1), "\(name): \(tip) covers the pointer \(pointer)")
        }
    }

    @Test func aTinyScreen() throws {
        try checkEdgesAndCorners(width: 320, height: 240)
    }

    @Test func aHugeScreen() throws {
        try checkEdgesAndCorners(width: 7680, height: 4320)
    }

    @Test func twoMonitorsWithAGap() throws {
        try checkEdgesAndCorners(
            width: 1600, height: 600,
            monitors: [Frame(x: 0, y: 0, width: 700, height: 600), Frame(x: 800, y: 0, width: 800, height: 600)])
    }

    @Test func threeMonitorsOfDifferentSizes() throws {
        try checkEdgesAndCorners(
            width: 1800, height: 700,
            monitors: [
                Frame(x: 0, y: 100, width: 500, height: 400), Frame(x: 520, y: 0, width: 640, height: 700),
                Frame(x: 1200, y: 50, width: 600, height: 600),
            ])
    }

    @Test func aSourceSpanningTwoMonitorsGetsItsTooltipOnTheOneItOverlapsMost() throws {
        let harness = try Harness(width: 1400, height: 600)
        harness.app.monitorOverride = [
            Rect(x: 0, y: 0, width: 700, height: 600), Rect(x: 700, y: 0, width: 700, height: 600),
        ]
        let container = View()
        let wide = block(400, 60, toolTip: "Mostly on the right monitor")
        wide.frame = Rect(x: 600, y: 200, width: 400, height: 60)  // 100 px left, 300 px right
        container.addSubview(wide)
        harness.show(container, size: Size(width: 1400, height: 600)).resize(to: Size(width: 1400, height: 600))
        harness.settle()
        harness.probe.movePointer(to: 680, 230)  // the pointer on the left monitor's part
        #expect(harness.run(until: { harness.app.toolTips.isShowing }))
        let tip = try #require(harness.toolTipFrame)
        #expect(Frame(x: 700, y: 0, width: 700, height: 600).contains(tip), "\(tip)")
        #expect(!tip.contains(680, 230))
    }
}
