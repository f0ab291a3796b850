import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// The desktop's XSETTINGS followed live, with a real settings manager on its own connection
/// (`XSettingsManager`) and everything read back from the X server: the scale of windows and a
/// shown tooltip, the font rendering, what a double click is, and a manager that dies and one
/// that starts later.
@Suite(.serialized)
@MainActor
final class DesktopSettingsTests {
    /// 1024ths of a dot per inch, as `Xft/DPI` gives them.
    static func dpi(_ value: Int32) -> XSettingsManager.Value { .integer(value * 1024) }

    /// The window's inside as the server has it.
    func geometry(_ window: X11UI.Window, _ display: InProcessDisplay) -> Size? {
        window.windowID.flatMap { display.probe.info($0.rawValue) }.map {
            Size(width: Double($0.frame.width), height: Double($0.frame.height))
        }
    }

    @Test func theFirstWindowOpensAtTheManagersScale() throws {
        let display = try InProcessDisplay(xsettings: ["Xft/DPI": Self.dpi(192)])
        #expect(display.app.scale == 2)
        #expect(display.app.desktopSettings.dpi == 192)
        let label = Label("Two times")
        let window = X11UI.Window(
            title: "Scale", size: Size(width: 200, height: 100), content: VStack(padding: 10) { label },
            application: display.app)
        display.show(window)
        #expect(
            geometry(window, display) == Size(width: 400, height: 200), "mapped at twice its size, never at the old one"
        )
        let frame = try #require(label.frameOnScreen)
        #expect(frame.minY == 20, "the padding at twice its size")
        #expect(frame.height >= 30, "13 px text at 192 dpi: \(frame.height)")
    }

    /// The manager's DPI changed while a window and a tooltip are shown: the window takes
    /// twice its size, its views lay out at the new scale, and the tooltip stays up, laid out
    /// and painted again at its source's new place. Then back.
    @Test func aLiveChangeOfDPILaysOutTheWindowAndTheShownTooltipAgain() throws {
        let display = try InProcessDisplay(xsettings: ["Xft/DPI": Self.dpi(96)])
        let probe = display.probe
        let app = display.app
        let manager = try #require(display.settingsManager)
        let swatch = View()
        swatch.preferredSize = Size(width: 160, height: 40)
        swatch.backgroundColor = Color(rgb: 0x34c759)
        let interaction = ToolTipInteraction(defaultToolTip: "Follows the desktop's scale")
        swatch.addInteraction(interaction)
        let window = X11UI.Window(
            title: "Live", size: Size(width: 300, height: 200),
            content: VStack(spacing: 8, padding: 30) {
                swatch; Label("Caption")
            }, application: app)
        display.show(window)
        var heard: [DesktopSettings] = []
        app.onDesktopSettingsChange = { heard.append($0) }
        interaction.present()
        #expect(display.run(until: { !probe.mappedPopups().isEmpty }))
        display.settle()
        let before = try #require(probe.mappedPopups().first)
        let swatchBefore = try #require(swatch.frameOnScreen)
        #expect(swatchBefore.size == Size(width: 160, height: 40))

        manager.update(["Xft/DPI": Self.dpi(192)])
        #expect(
            display.run(until: { app.scale == 2 && self.geometry(window, display) == Size(width: 600, height: 400) }))
        display.settle()
        #expect(heard.last?.dpi == 192)
        let swatchAfter = try #require(swatch.frameOnScreen)
        #expect(swatchAfter.size == Size(width: 320, height: 80), "laid out at the new scale")
        #expect(swatchAfter.origin == Point(x: 2 * swatchBefore.minX, y: 2 * swatchBefore.minY))
        #expect(probe.pixel(Int(swatchAfter.maxX) - 4, Int(swatchAfter.maxY) - 4) == 0x34c759, "and painted")
        #expect(app.toolTips.isShowing, "the tooltip stayed up")
        let after = try #require(probe.mappedPopups().first)
        #expect(after.id == before.id, "the same window, never hidden")
        #expect(abs(after.frame.width - 2 * before.frame.width) <= 4, "\(before.frame) → \(after.frame)")
        #expect(abs(after.frame.height - 2 * before.frame.height) <= 4, "\(before.frame) → \(after.frame)")
        #expect(after.frame.y >= Int(swatchAfter.maxY), "below its source's new place: \(after.frame)")
        #expect(app.toolTips.shownFrame?.width == Double(after.frame.width))
        let bubble = probe.pixels(after.frame.x, after.frame.y, after.frame.width, after.frame.height)
        #expect(bubble.contains(0x2c2c2e), "painted at its new size")

        manager.update(["Xft/DPI": nil])  // the manager no longer says it: Xft.dpi (96 here)
        #expect(
            display.run(until: { app.scale == 1 && self.geometry(window, display) == Size(width: 300, height: 200) }))
        display.settle()
        #expect(probe.mappedPopups().first?.frame.width == before.frame.width)
        #expect(heard.map(\.dpi) == [192, nil])
    }

    /// Xft/Antialias: off, the text of a label is drawn in two colours; on again (live), its
    /// edges blend.
    @Test func theFontRenderingFollowsTheManager() throws {
        let display = try InProcessDisplay(xsettings: ["Xft/Antialias": 0, "Xft/HintStyle": "hintfull"])
        let app = display.app
        let manager = try #require(display.settingsManager)
        let label = Label("Antialiasing is off, then on", font: Font(size: 16))
        let window = X11UI.Window(
            title: "Fonts", size: Size(width: 300, height: 60), content: VStack(padding: 10) { label },
            application: app)
        display.show(window)
        func colours() -> Int {
            let frame = label.frameOnScreen ?? .zero
            return Set(display.probe.pixels(Int(frame.minX), Int(frame.minY), Int(frame.width), Int(frame.height)))
                .count
        }
        let faces = app.resources.fonts.fontSet(for: label.font).fontFaces
        var antialias: FcBool = 1
        var style: Int32 = 0
        let pattern = try #require(faces.first?.font.pointee.pattern)
        FcPatternGetBool(pattern, "antialias", 0, &antialias)
        FcPatternGetInteger(pattern, "hintstyle", 0, &style)
        #expect(antialias == 0 && style == 3, "the font was opened with the manager's rendering")
        #expect(colours() == 2, "text and background only")

        manager.update(["Xft/Antialias": 1])
        #expect(display.run(until: { colours() > 8 }), "blended edges once the fonts are opened again")
        #expect(app.desktopSettings.antialias == true)
    }

    /// Net/DoubleClickTime and Net/DoubleClickDistance decide what a double click is, and so
    /// what a TextView selects: two presses 600 ms apart select a word with the manager's
    /// 1000 ms and do not with its 200 ms; two presses 12 px apart do with its 30 px.
    @Test func aDoubleClickIsWhatTheManagerSays() throws {
        let display = try InProcessDisplay(xsettings: ["Net/DoubleClickTime": 1000])
        let probe = display.probe
        let manager = try #require(display.settingsManager)
        let text = TextView("Supercalifragilistic expialidocious")
        let window = X11UI.Window(
            title: "Clicks", size: Size(width: 400, height: 80), content: VStack(padding: 10) { text },
            application: display.app)
        display.show(window)
        let frame = try #require(text.frameOnScreen)
        let (x, y) = (Int(frame.minX) + 40, Int(frame.minY) + 20)

        /// Two clicks `milliseconds` apart (server time), then a pause long enough that the
        /// next click starts afresh under the limit about to be set.
        func twoClicks(apart milliseconds: UInt, dx: Int = 0, pause: UInt) {
            probe.movePointer(to: x, y)
            probe.click()
            let first = probe.serverTime()
            wait(timeout: 5) { probe.serverTime() >= first + milliseconds }
            probe.movePointer(to: x + dx, y)
            probe.click()
            display.settle()
            let last = probe.serverTime()
            wait(timeout: 5) { probe.serverTime() >= last + pause }
        }

        twoClicks(apart: 600, pause: 300)
        #expect(text.selectedText == "Supercalifragilistic", "600 ms is a double click within 1000 ms")
        manager.update(["Net/DoubleClickTime": 200])
        #expect(display.run(until: { display.app.desktopSettings.doubleClickTime == 200 }))
        twoClicks(apart: 600, pause: 1100)
        #expect(text.selectedText == "", "600 ms is two clicks within 200 ms")

        manager.update(["Net/DoubleClickTime": 1000, "Net/DoubleClickDistance": 30])
        #expect(display.run(until: { display.app.desktopSettings.doubleClickDistance == 30 }))
        twoClicks(apart: 0, dx: 12, pause: 0)
        #expect(text.selectedText == "Supercalifragilistic", "12 px is within the manager's 30")
    }

    /// The manager dies (its window destroyed): the settings go back to X11UI's defaults. A
    /// new manager started later is heard of by its MANAGER message and followed, changes
    /// included; a manager whose property goes away says nothing.
    @Test func aManagerThatDiesAndOneThatStartsLaterAreFollowed() throws {
        let display = try InProcessDisplay(xsettings: ["Xft/DPI": Self.dpi(192), "Net/EnableAnimations": 0])
        let app = display.app
        let window = X11UI.Window(
            title: "Managers", size: Size(width: 200, height: 100), content: Label("Follows"), application: app)
        display.show(window)
        #expect(geometry(window, display) == Size(width: 400, height: 200))
        #expect(app.desktopSettings.enableAnimations == false)

        display.settingsManager?.stop()
        #expect(display.run(until: { app.desktopSettings == DesktopSettings() }), "back to the defaults")
        #expect(display.run(until: { self.geometry(window, display) == Size(width: 200, height: 100) }))

        let next = try XSettingsManager(
            display: display.server.display, settings: ["Xft/DPI": Self.dpi(144), "Gtk/CursorThemeSize": 48],
            byteOrder: .mostSignificantFirst)
        defer { next.stop() }
        #expect(display.run(until: { app.scale == 1.5 }), "the new manager, heard of by its MANAGER message")
        #expect(display.run(until: { self.geometry(window, display) == Size(width: 300, height: 150) }))
        #expect(app.desktopSettings.cursorThemeSize == 48)
        next.update(["Gtk/CursorThemeName": "Adwaita"])
        #expect(display.run(until: { app.desktopSettings.cursorThemeName == "Adwaita" }))
        next.deleteProperty()
        #expect(display.run(until: { app.desktopSettings == DesktopSettings() }))
        #expect(app.protocolErrorCount == 0)
    }

    /// The manager's window is gone between the answer naming it and the selection of its
    /// events: the BadWindow is a race X11UI survives, and the settings are the defaults.
    @Test func aManagerWindowThatIsGoneIsARaceSurvived() throws {
        let display = try InProcessDisplay()
        let app = display.app
        let reader = try #require(app.xsettings)
        let gone = XCreateSimpleWindow(display.probe.display, display.probe.root, 0, 0, 1, 1, 0, 0, 0)
        XDestroyWindow(display.probe.display, gone)
        display.probe.sync()
        let errors = app.protocolErrorCount
        var settings = DesktopSettings()
        settings.dpi = 144
        app.desktopSettingsDidChange(settings)
        reader.watch(gone)
        #expect(reader.managerWindow == 0)
        #expect(app.protocolErrorCount > errors, "the BadWindow reached the error trap")
        #expect(app.desktopSettings == DesktopSettings())
        #expect(app.connection.lastError?.isRace == true)
    }
}
