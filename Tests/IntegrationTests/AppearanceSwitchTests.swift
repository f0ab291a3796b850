import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// Switching the appearance while a window and a tooltip are on screen, read back from the X
/// server (XGetImage): the window and the tooltip repaint in the new colours without the tooltip
/// being hidden, a view's own colour stays, the X background pixel follows, and the program's
/// choice overrides the desktop's until it is withdrawn.
@Suite(.serialized)
@MainActor
final class AppearanceSwitchTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    /// The pixels of a window's rectangle on the screen.
    func pixels(of frame: (x: Int, y: Int, width: Int, height: Int)) -> [UInt32] {
        probe.pixels(frame.x, frame.y, frame.width, frame.height)
    }

    @Test func windowsAndAShownTooltipFollowTheAppearance() throws {
        let app = display.app
        let swatch = View()
        swatch.preferredSize = Size(width: 160, height: 40)
        swatch.backgroundColor = Color(rgb: 0x34c759)
        let interaction = ToolTipInteraction(defaultToolTip: "Follows the appearance")
        swatch.addInteraction(interaction)
        let caption = Label("Caption")
        let window = Window(
            title: "Appearance", size: Size(width: 300, height: 200),
            content: VStack(spacing: 8, padding: 30) {
                swatch; caption
            }, application: app)
        display.show(window)
        var changes: [Appearance] = []
        app.onAppearanceChange = { changes.append($0) }

        let id = try #require(window.windowID)
        let origin = try #require(probe.info(id)?.frame)
        func windowPixel(_ x: Int, _ y: Int) -> UInt32 { probe.pixel(origin.x + x, origin.y + y) }
        let swatchFrame = try #require(swatch.frameOnScreen)
        func swatchPixel() -> UInt32 { probe.pixel(Int(swatchFrame.midX), Int(swatchFrame.midY)) }
        #expect(windowPixel(4, 4) == 0xf2f2f7, "the light window background")
        #expect(swatchPixel() == 0x34c759)

        interaction.present()
        #expect(display.run(until: { !self.probe.mappedPopups().isEmpty }))
        display.settle()
        let tip = try #require(probe.mappedPopups().first)
        let tipFrame = (tip.frame.x, tip.frame.y, tip.frame.width, tip.frame.height)
        #expect(pixels(of: tipFrame).contains(0x2c2c2e), "the light appearance's bubble")

        app.preferredAppearance = .dark
        #expect(app.appearance == .dark)
        #expect(
            display.run(until: {
                windowPixel(4, 4) == 0x1c1c1e && self.pixels(of: tipFrame).contains(0x3a3a3d)
            }), "the window and the tooltip repaint in the dark appearance")
        #expect(!pixels(of: tipFrame).contains(0x2c2c2e), "nothing of the light bubble is left")
        #expect(swatchPixel() == 0x34c759, "the view's own colour stays its own")
        #expect(app.toolTips.isShowing, "the tooltip stayed up")
        #expect(probe.mappedPopups().first.map { $0.frame == tip.frame } == true, "mapped still, in the same place")
        #expect(changes == [.dark])

        // The X background pixel, which the server shows before X11UI paints, is the new one:
        // a clear from another client paints the window with it.
        XClearArea(probe.display, id.rawValue, 0, 0, 0, 0, 0)
        probe.sync()
        #expect(windowPixel(4, 4) == 0x1c1c1e)
        display.run(until: { windowPixel(4, 4) == 0x1c1c1e })

        // The desktop going high contrast changes nothing while the program's choice stands…
        app.desktopAppearanceDidChange(.highContrast)
        #expect(app.appearance == .dark)
        #expect(changes == [.dark])
        // … and is in force once the program withdraws it.
        app.preferredAppearance = nil
        #expect(app.appearance == .highContrast)
        #expect(
            display.run(until: {
                windowPixel(4, 4) == 0xffffff && self.pixels(of: tipFrame).contains(0x000000)
                    && !self.pixels(of: tipFrame).contains(0x3a3a3d)
            }), "white window, black bubble")
        #expect(changes == [.dark, .highContrast])
        // Setting what is in force already is no change.
        app.preferredAppearance = .highContrast
        #expect(changes == [.dark, .highContrast])
    }

    @Test func aWindowMadeAfterASwitchStartsInIt() throws {
        let app = display.app
        app.preferredAppearance = .highContrastDark
        let window = Window(
            title: "Late", size: Size(width: 200, height: 120), content: Label("Late"), application: app)
        display.show(window)
        let frame = try #require(probe.info(window.windowID)?.frame)
        #expect(display.run(until: { self.probe.pixel(frame.x + 3, frame.y + 3) == 0x000000 }))
    }
}

/// The demo's `--appearance`: the window comes up in it, and a bad value is one line and
/// status 1, as the demo's other bad options are.
@Suite(.serialized)
struct DemoAppearanceOptionTests {
    @Test func theDemoStartsInTheAppearanceAsked() throws {
        let server = try XvfbServer(width: 1280, height: 800)
        defer { server.stop() }
        let probe = try ServerProbe(display: server.display)
        let demo = try ProgramProcess("tooltip-demo", arguments: ["--appearance", "dark"], display: server.display)
        defer { demo.stop() }
        #expect(demo.waitForView("label") != nil, "\(demo.standardError)")
        let id = try #require(demo.windows.first)
        let frame = try #require(probe.info(id)?.frame)
        // The window's corner (its padding): the dark window background, not the light one.
        #expect(wait(timeout: 5) { probe.pixel(frame.x + 2, frame.y + 2) == 0x1c1c1e })
    }

    @Test(arguments: [["--appearance", "purple"], ["--appearance"]])
    func aBadAppearanceIsOneLineAndStatusOne(arguments: [String]) throws {
        let server = try XvfbServer(width: 320, height: 200)
        defer { server.stop() }
        let demo = try ProgramProcess("tooltip-demo", arguments: arguments, display: server.display)
        defer { demo.stop() }
        #expect(demo.waitForExit(timeout: 10) == 1)
        let lines = demo.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("tooltip-demo: --appearance needs light, dark"), "\(lines)")
    }
}
