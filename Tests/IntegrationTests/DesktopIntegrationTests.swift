import Foundation
import Testing
import X11TestSupport
import X11UI

/// HiDPI (every size scales with Xft.dpi) and X resources (tooltip defaults from
/// RESOURCE_MANAGER), checked against what the server reports.
@Suite(.serialized)
@MainActor
struct DesktopIntegrationTests {
    struct Measured {
        var window: Frame
        var button: Rect
        var toolTip: Frame
    }

    /// Shows a window with a button at a DPI and measures the window, the button and its tooltip.
    func measure(dpi: Int) throws -> Measured {
        let display = try InProcessDisplay(width: 2600, height: 1700, resources: "Xft.dpi:\t\(dpi)\n")
        #expect(display.app.scale == Double(dpi) / 96)
        let button = Button(title: "Scaled", image: .asset("cart"))
        button.toolTip = "A tooltip that is long enough to wrap at its maximum width when the text grows."
        let window = Window(
            title: "dpi", size: Size(width: 300, height: 200), content: VStack(padding: 20) { button },
            application: display.app)
        display.show(window)
        display.movePointer(to: button)
        // Mapped on the server: the frame the show sent with the map is the window's (the
        // window itself was made before the deadline, at another size).
        #expect(
            display.run(
                until: { display.app.toolTips.isShowing && !display.probe.mappedPopups().isEmpty },
                timeout: .seconds(3)))
        let tipID = display.app.toolTips.windowID
        let tip = try #require(display.probe.info(tipID)?.rect)
        let frame = try #require(display.probe.info(window.windowID)?.rect)
        return Measured(window: frame, button: try #require(button.frameOnScreen), toolTip: tip)
    }

    @Test func everySizeScalesWithXftDPI() throws {
        let base = try measure(dpi: 96)
        #expect(base.window.width == 300 && base.window.height == 200)
        for dpi in [144, 192] {
            let scale = Double(dpi) / 96
            let m = try measure(dpi: dpi)
            #expect(m.window.width == Int(300 * scale) && m.window.height == Int(200 * scale), "\(dpi) dpi window")
            func near(_ value: Double, _ expected: Double, _ what: String) {
                #expect(abs(value / expected - 1) < 0.12, "\(dpi) dpi \(what): \(value) for \(expected)")
            }
            near(m.button.height, base.button.height * scale, "button height")
            near(m.button.width, base.button.width * scale, "button width")
            near(Double(m.toolTip.width), Double(base.toolTip.width) * scale, "tooltip width")
            near(Double(m.toolTip.height), Double(base.toolTip.height) * scale, "tooltip height")
        }
    }

    @Test func tooltipDefaultsComeFromXResources() throws {
        let display = try InProcessDisplay(
            resources: """
                X11UI*ToolTip.background:\t#202020
                *toolTip.foreground:\tyellow
                X11UI*ToolTip.initialDelay:\t800
                X11UI*ToolTip.maxWidth:\t200
                X11UI*ToolTip.border:\tnot-a-colour
                X11UI*ToolTip.hoverGrace:\t-5

                """)
        let toolTips = display.app.toolTips
        #expect(toolTips.style.background == Color(rgb: 0x202020))
        #expect(toolTips.style.foreground == .yellow)
        #expect(toolTips.style.maxWidth == 200)
        #expect(toolTips.timings.initialDelay == .milliseconds(800))
        // Bad values are ignored: the defaults stay.
        #expect(toolTips.style.border == ToolTipStyle.standard.border)
        #expect(toolTips.timings.hoverGrace == ToolTipTimings.standard.hoverGrace)
        // And the tooltip shows with the resource's colour.
        let view = View()
        view.preferredSize = Size(width: 80, height: 30)
        view.backgroundColor = .gray
        view.toolTip = "Configured"
        let window = Window(
            title: "resources", size: Size(width: 200, height: 120), content: VStack(padding: 20) { view },
            application: display.app)
        display.show(window)
        display.movePointer(to: view)
        #expect(
            display.run(until: { toolTips.isShowing && !display.probe.mappedPopups().isEmpty }, timeout: .seconds(3)))
        let tip = try #require(display.probe.info(toolTips.windowID)?.rect)
        #expect(display.probe.pixel(tip.midX, tip.maxY - 3) == 0x202020)
    }
}
