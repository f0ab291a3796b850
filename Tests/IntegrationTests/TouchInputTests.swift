import CX11
import CXTest
import Foundation
import Testing
import X11TestSupport

@_spi(Testing) @testable import X11UI

/// Touch through XInput 2.2, in windows of this process on a private Xvfb. Xvfb has no touch
/// device, so no touch comes from the server: the touches are fed in as the translator hands
/// them on (`Application.dispatch(.touch)`), or as recorded wire events that Xlib and libXi
/// convert as they would the server's. What the server is asked is checked on the server:
/// the touch selection on X11UI's windows, the tooltip window mapped and unmapped.
@Suite(.serialized)
@MainActor
final class TouchInputTests {
    let display: InProcessDisplay
    var app: Application { display.app }
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    /// A window with a hover tooltip's button low enough for a tooltip above it, a button that
    /// counts its clicks, and a view with a click tooltip.
    private struct Scene {
        let window: X11UI.Window
        let info: Button
        let buy: Button
        let help: Label
    }

    private var clicks = 0

    private func scene(infoAtTop: Bool = false) -> Scene {
        let info = Button(title: "Info")
        info.toolTip = "What this shop sells."
        let buy = Button(title: "Buy") { [unowned self] in clicks += 1 }
        let help = Label("Help")
        help.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "Tap again to close."))
        let window = Window(
            title: "Touch", size: Size(width: 420, height: 460),
            content: VStack(spacing: 12, padding: 16) {
                if !infoAtTop { Spacer(minLength: 160) }
                info; buy; help
            },
            application: app)
        display.show(window)
        app.flush()  // the start-up work that waits for the first window: the extensions
        return Scene(window: window, info: info, buy: buy, help: help)
    }

    private func virtualClock() -> VirtualClock {
        let clock = VirtualClock()
        app.toolTips.drive(on: clock)
        app.toolTips.timings = .standard
        return clock
    }

    private var time: UInt = 10_000

    /// Feeds one touch event at `root` (screen coordinates) to `window`, through the entry
    /// point the event translator's output takes, and flushes.
    private func touch(_ evtype: Int32, id: Int32 = 1, at root: Point, in window: X11UI.Window, after ms: UInt = 16) {
        time += ms
        let origin = window.screenOrigin ?? .zero
        let record = XITouchRecord(
            evtype: evtype, detail: id, eventX: root.x - origin.x, eventY: root.y - origin.y, rootX: root.x,
            rootY: root.y, flags: Int32(XITouchRecord.emulatingPointer), time: time)!
        app.dispatch(.touch(window: window.xid, record))
        app.flush()
    }

    private func middle(_ view: View) -> Point {
        let frame = view.frameOnScreen ?? .zero
        return Point(x: frame.midX, y: frame.midY)
    }

    private var toolTipMapped: Bool {
        guard let id = app.toolTips.windowID?.rawValue else { return false }
        return probe.info(UInt(id))?.isMapped == true
    }

    // MARK: - The server

    /// Xvfb has XI 2.2: X11UI's window selects touch events on it. Only one client may select
    /// them on a window, so the probe's own selection on that window is refused (BadAccess),
    /// while on the tooltip's window, which selects none, it is taken.
    @Test func windowsSelectTouchEventsOnAServerWithXI22() throws {
        let s = scene()
        #expect(app.connection.selectsTouch)
        #expect(app.connection.touchWindowsWaiting.isEmpty)
        var xi = try #require(ExtensionLibraries.xi?.functions)
        var opcode: Int32 = 0
        #expect(cx11_xi_query(&xi, probe.display, &opcode) != 0, "Xvfb answers XIQueryVersion with 2.2 or later")
        #expect(opcode == app.connection.extensions.touchOpcode)
        let before = TestDisplays.errorCount(on: probe.display)
        cx11_xi_select_touch(&xi, probe.display, s.window.xid)
        probe.sync()
        #expect(TestDisplays.errorCount(on: probe.display) == before + 1, "the window's touch events are taken")
        // A window made after the extensions were asked for selects at its creation.
        let later = Window(title: "Later", size: Size(width: 100, height: 100), content: Label("x"), application: app)
        display.show(later)
        cx11_xi_select_touch(&xi, probe.display, later.xid)
        probe.sync()
        #expect(TestDisplays.errorCount(on: probe.display) == before + 2)
        // The tooltip's window selects none: its events are the emulated pointer's.
        let clock = virtualClock()
        touch(XI_TouchBegin, at: middle(s.info), in: s.window)
        clock.advance(by: .milliseconds(500))
        let toolTip = try #require(app.toolTips.windowID?.rawValue)
        cx11_xi_select_touch(&xi, probe.display, UInt(toolTip))
        probe.sync()
        #expect(TestDisplays.errorCount(on: probe.display) == before + 2, "the tooltip's window selected none")
        touch(XI_TouchEnd, at: middle(s.info), in: s.window)
        app.sync()
        #expect(app.protocolErrorCount == 0)
    }

    // MARK: - Long press, tap, click tooltips

    @Test func aLongPressShowsTheHoverToolTipAboveTheFingerUntilATouchElsewhere() throws {
        let s = scene()
        let clock = virtualClock()
        let point = middle(s.info)
        touch(XI_TouchBegin, at: point, in: s.window)
        touch(XI_TouchUpdate, at: Point(x: point.x + 3, y: point.y + 2), in: s.window, after: 200)
        clock.advance(by: .milliseconds(499))
        #expect(!app.toolTips.isShowing, "not before the hold's 500 ms")
        clock.advance(by: .milliseconds(1))
        #expect(app.toolTips.isShowing)
        #expect(app.toolTips.shownText == "What this shop sells.")
        #expect(display.run(until: { self.toolTipMapped }), "the tooltip window is mapped on the server")
        let frame = try #require(app.toolTips.shownFrame)
        let finger = ToolTipPresenter.Request.fingerSide * app.scale / 2
        #expect(frame.maxY <= point.y + 2 - finger, "above the finger, clear of its contact: \(frame) \(point)")
        touch(XI_TouchEnd, at: Point(x: point.x + 3, y: point.y + 2), in: s.window, after: 400)
        clock.advance(by: .seconds(10))
        #expect(app.toolTips.isShowing, "it stays after the finger lifts")
        #expect(toolTipMapped)
        #expect(clicks == 0)
        // A touch elsewhere: the tooltip goes.
        let away = middle(s.help)
        touch(XI_TouchBegin, id: 2, at: Point(x: away.x + 150, y: away.y), in: s.window, after: 800)
        #expect(!app.toolTips.isShowing)
        #expect(display.run(until: { !self.toolTipMapped }), "the tooltip window is unmapped on the server")
        touch(XI_TouchEnd, id: 2, at: Point(x: away.x + 150, y: away.y), in: s.window, after: 80)
    }

    /// Without room above the finger, the tooltip goes below it, still clear of it.
    @Test func aLongPressToolTipFlipsBelowTheFingerWithoutRoomAbove() throws {
        let s = scene(infoAtTop: true)
        let clock = virtualClock()
        let point = middle(s.info)
        touch(XI_TouchBegin, at: point, in: s.window)
        clock.advance(by: .milliseconds(500))
        let frame = try #require(app.toolTips.shownFrame)
        let finger = ToolTipPresenter.Request.fingerSide * app.scale / 2
        #expect(frame.minY >= point.y + finger, "below the finger: \(frame) \(point)")
        touch(XI_TouchEnd, at: point, in: s.window, after: 600)
    }

    @Test func aTapClicksAButtonAndShowsNoHoverToolTip() throws {
        let s = scene()
        let clock = virtualClock()
        let point = middle(s.info)
        touch(XI_TouchBegin, at: point, in: s.window)
        touch(XI_TouchEnd, at: point, in: s.window, after: 120)
        clock.advance(by: .seconds(3))
        #expect(!app.toolTips.isShowing, "a tap is no long press")
        let buy = middle(s.buy)
        touch(XI_TouchBegin, id: 2, at: buy, in: s.window, after: 500)
        touch(XI_TouchEnd, id: 2, at: buy, in: s.window, after: 90)
        #expect(clicks == 1, "the tap clicked Buy")
        clock.advance(by: .seconds(3))
        #expect(!app.toolTips.isShowing)
        #expect(probe.mappedPopups().isEmpty)
    }

    @Test func aTapTogglesAClickToolTip() throws {
        let s = scene()
        _ = virtualClock()
        let point = middle(s.help)
        touch(XI_TouchBegin, at: point, in: s.window)
        touch(XI_TouchEnd, at: point, in: s.window, after: 100)
        #expect(app.toolTips.shownText == "Tap again to close.")
        #expect(display.run(until: { self.toolTipMapped }))
        touch(XI_TouchBegin, id: 2, at: point, in: s.window, after: 600)
        touch(XI_TouchEnd, id: 2, at: point, in: s.window, after: 100)
        #expect(!app.toolTips.isShowing)
        #expect(display.run(until: { !self.toolTipMapped }))
    }

    /// A touch never leaves a hover tooltip behind: one the mouse showed goes at the first
    /// touch elsewhere, and the finger's own motion starts no hover delay.
    @Test func aTouchLeavesNoMouseHoverToolTipBehind() throws {
        let s = scene()
        let clock = virtualClock()
        let info = middle(s.info)
        probe.movePointer(to: Int(info.x), Int(info.y))
        display.settle()
        clock.advance(by: .milliseconds(500))
        #expect(app.toolTips.isShowing, "the mouse's hover tooltip")
        #expect(display.run(until: { self.toolTipMapped }))
        let buy = middle(s.buy)
        touch(XI_TouchBegin, at: buy, in: s.window)
        #expect(!app.toolTips.isShowing)
        // The finger slides back over Info and lifts there quickly: no hover delay from it.
        touch(XI_TouchUpdate, at: Point(x: buy.x, y: buy.y - 30), in: s.window)
        touch(XI_TouchUpdate, at: info, in: s.window)
        touch(XI_TouchEnd, at: info, in: s.window)
        clock.advance(by: .seconds(3))
        #expect(!app.toolTips.isShowing)
        #expect(display.run(until: { !self.toolTipMapped }))
        #expect(clicks == 0, "a press dragged off Buy and lifted elsewhere is no click")
    }

    /// A second finger makes the touch a gesture: no long press, and no click of what the
    /// first finger pressed.
    @Test func aSecondFingerCancelsTheLongPressAndTheClick() throws {
        let s = scene()
        let clock = virtualClock()
        let buy = middle(s.buy)
        touch(XI_TouchBegin, id: 1, at: buy, in: s.window)
        touch(XI_TouchBegin, id: 2, at: Point(x: buy.x + 60, y: buy.y), in: s.window, after: 50)
        touch(XI_TouchEnd, id: 1, at: buy, in: s.window, after: 50)
        touch(XI_TouchEnd, id: 2, at: Point(x: buy.x + 60, y: buy.y), in: s.window, after: 50)
        clock.advance(by: .seconds(2))
        #expect(clicks == 0)
        #expect(!app.toolTips.isShowing)
        let info = middle(s.info)
        touch(XI_TouchBegin, id: 3, at: info, in: s.window, after: 500)
        clock.advance(by: .milliseconds(500))
        #expect(app.toolTips.isShowing, "once all fingers lifted, the next one is followed again")
        touch(XI_TouchEnd, id: 3, at: info, in: s.window, after: 600)
    }

    /// A window hidden under a finger whose end never comes does not leave that finger down:
    /// the next touch, in another window, is followed (its long press shows a tooltip).
    @Test func aFingerLostWithItsWindowIsForgotten() throws {
        let s = scene()
        let clock = virtualClock()
        let other = Button(title: "Other")
        other.toolTip = "In the other window."
        let window = Window(
            title: "Other", size: Size(width: 200, height: 120), content: VStack(padding: 20) { other },
            application: app)
        display.show(window)
        window.setFrame(Rect(x: 600, y: 300, width: 200, height: 120))
        #expect(display.run(until: { window.screenOrigin == Point(x: 600, y: 300) }))
        touch(XI_TouchBegin, id: 1, at: middle(s.buy), in: s.window)
        s.window.hide()
        #expect(!app.touches.isEmulated(time: UInt32(time + 1000), root: Point(x: 1, y: 1)))
        touch(XI_TouchBegin, id: 2, at: middle(other), in: window, after: 300)
        clock.advance(by: .milliseconds(500))
        #expect(app.toolTips.shownText == "In the other window.")
        touch(XI_TouchEnd, id: 2, at: middle(other), in: window, after: 600)
        #expect(clicks == 0)
    }
}
