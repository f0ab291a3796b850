import CX11
import Foundation
import Testing
import X11TestSupport

@_spi(Testing) @testable import X11UI

/// The fade on the tooltip window, on virtual time: the window's `_NET_WM_WINDOW_OPACITY` as
/// the server has it, frame by frame. The compositor is a fake one (the probe owns
/// `_NET_WM_CM_S0`, which is all X11UI looks at): what a real one shows is
/// ToolTipFadeScreenTests'.
@Suite(.serialized)
@MainActor
final class ToolTipFadeDriverTests {
    let harness: Harness
    let first = block(120, 60, toolTip: "First")
    let second = block(120, 60, toolTip: "Second")
    var app: Application { harness.app }
    var probe: ServerProbe { harness.probe }

    init() throws {
        harness = try Harness()
        harness.probe.ownSelection("_NET_WM_CM_S0")
        harness.show(
            HStack(spacing: 40, padding: 40) {
                first; second
            })
        let app = harness.app
        harness.run(until: { app.screen.isComposited })
    }

    var tip: UInt { app.toolTips.windowID?.rawValue ?? 0 }
    var isMapped: Bool { probe.info(tip)?.isMapped == true }
    /// The window's opacity property (0 … 1); nil when it has none (fully opaque).
    var opacity: Double? {
        probe.longs(tip, "_NET_WM_WINDOW_OPACITY")?.first.map { Double($0 & 0xffff_ffff) / Double(UInt32.max) }
    }
    var timers: Int { harness.pendingTimerCount }

    /// Shows the first view's tooltip and lets its fade-in end.
    func showFirst() throws {
        harness.move(to: harness.center(of: first))
        harness.wait(40)
        try #require(app.toolTips.shownText == "First")
        harness.wait(200)
        try #require(opacity == nil && timers == 0)
    }

    @Test func aTooltipFadesInFrameByFrameThenHasNoOpacityAndNoTimer() throws {
        #expect(app.screen.isComposited)
        harness.move(to: harness.center(of: first))
        harness.wait(40)
        #expect(app.toolTips.shownText == "First" && isMapped)
        #expect(probe.info(tip)?.depth == 32)
        var seen: [Double] = []
        while let value = opacity, seen.count < 20 {
            seen.append(value)
            harness.wait(17)
        }
        #expect(seen.count >= 6 && seen.count <= 8, "about 120 ms at 60 Hz: \(seen)")
        #expect(seen.first.map { $0 > 0.1 && $0 < 0.2 } == true, "mapped at the first frame's opacity: \(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "\(seen)")
        #expect(opacity == nil && isMapped, "fully opaque: the property is gone")
        #expect(timers == 0, "the fade's timer stopped at its end")
    }

    /// Hidden at once for the state machine, the program and the pointer; the window fades out,
    /// then unmaps and takes the pointer again for the next show.
    @Test func aHiddenTooltipIsHiddenAtOnceForAllButTheEye() throws {
        try showFirst()
        let size = try #require(probe.info(tip)).frame
        #expect(probe.takesPointer(tip, at: size.width / 2, size.height / 2))
        harness.move(to: Point(x: 5, y: 5))
        #expect(!app.toolTips.isShowing && app.toolTips.shownText == nil)
        #expect(isMapped && opacity == 1)
        #expect(probe.inputRectangles(tip).isEmpty, "a fading tooltip takes no pointer")
        harness.wait(60)
        #expect(opacity.map { abs($0 - 0.5) < 0.1 } == true, "\(String(describing: opacity))")
        harness.wait(61)
        #expect(!isMapped && opacity == nil && timers == 0)
        #expect(probe.takesPointer(tip, at: size.width / 2, size.height / 2), "the bubble takes the pointer again")
    }

    /// Browsing to the next tooltip while the last fades out: the fade is cut, the new tooltip
    /// is at full opacity at once in the same window, which never unmapped.
    @Test func aShowDuringAFadeOutCutsItAndShowsAtFullOpacity() throws {
        try showFirst()
        harness.move(to: harness.center(of: second))
        #expect(!app.toolTips.isShowing && isMapped && opacity != nil)
        harness.wait(10)  // the harness's browse delay
        #expect(app.toolTips.shownText == "Second")
        #expect(opacity == nil, "at full opacity at once")
        #expect(!probe.inputRectangles(tip).isEmpty)
        #expect(timers == 0)
        harness.wait(300)
        #expect(isMapped && app.toolTips.shownText == "Second", "the cut fade-out unmaps nothing later")
    }

    /// Once a tooltip faded out, the next one within the browse timeout shows at once too.
    @Test func aTooltipBrowsedToAfterTheFadeOutShowsAtOnce() throws {
        app.toolTips.timings = ToolTipTimings(
            initialDelay: .milliseconds(40), browseDelay: .milliseconds(200), browseTimeout: .milliseconds(300),
            hoverGrace: .milliseconds(20))
        try showFirst()
        harness.move(to: harness.center(of: second))
        harness.wait(150)
        #expect(!isMapped, "the fade-out ended")
        harness.wait(50)
        #expect(app.toolTips.shownText == "Second" && isMapped && opacity == nil)
    }

    /// A hide during the fade-in fades out from the opacity reached, never from full.
    @Test func aHideDuringTheFadeInFadesOutFromWhereItGot() throws {
        harness.move(to: harness.center(of: first))
        harness.wait(40)
        harness.wait(34)
        let reached = try #require(opacity)
        #expect(reached > 0.3 && reached < 0.7)
        harness.move(to: Point(x: 5, y: 5))
        let start = try #require(opacity)
        #expect(abs(start - reached) < 0.15, "\(start) after \(reached)")
        harness.wait(Int((start * 120).rounded(.up)) + 1)
        #expect(!isMapped && opacity == nil && timers == 0)
    }

    /// With animations off (`Net/EnableAnimations`) a tooltip shows and hides as without a
    /// compositor: no property, no timer, unmapped at once.
    @Test func withAnimationsOffNothingFades() throws {
        var settings = app.desktopSettings
        settings.enableAnimations = false
        app.desktopSettingsDidChange(settings)
        harness.move(to: harness.center(of: first))
        harness.wait(40)
        #expect(app.toolTips.shownText == "First" && isMapped && opacity == nil && timers == 0)
        harness.move(to: Point(x: 5, y: 5))
        harness.settle()
        #expect(!isMapped && timers == 0)
    }

    /// The opacity is on the window before the map: a compositor never paints the first frame
    /// at full opacity, then less. The probe watches the window's events in order.
    @Test func theOpacityIsSetBeforeTheWindowMaps() throws {
        try showFirst()
        harness.move(to: Point(x: 5, y: 5))
        harness.wait(200)
        try #require(!isMapped)
        XSelectInput(probe.display, tip, PropertyChangeMask | StructureNotifyMask)
        probe.sync()
        harness.wait(100)  // past the browse timeout: the next show fades in
        harness.move(to: harness.center(of: first))
        harness.wait(40)
        #expect(app.toolTips.shownText == "First")
        probe.sync()
        let opacityAtom = probe.atom("_NET_WM_WINDOW_OPACITY")
        var order: [String] = []
        var event = XEvent()
        while XPending(probe.display) > 0 {
            XNextEvent(probe.display, &event)
            if event.type == PropertyNotify, event.xproperty.atom == opacityAtom {
                order.append(event.xproperty.state == PropertyNewValue ? "opacity" : "opacity deleted")
            } else if event.type == MapNotify {
                order.append("map")
            }
        }
        #expect(order.first == "opacity" && order.dropFirst().first == "map", "\(order)")
    }
}

/// Without a compositor a tooltip neither fades in nor out: the requests are those of before.
@Suite(.serialized)
@MainActor
final class ToolTipNoFadeTests {
    @Test func withoutACompositorNothingFades() throws {
        let harness = try Harness()
        let view = block(120, 60, toolTip: "Opaque")
        harness.show(VStack(padding: 40) { view })
        harness.move(to: harness.center(of: view))
        harness.wait(40)
        let tip = try #require(harness.app.toolTips.windowID?.rawValue)
        #expect(harness.probe.info(tip)?.isMapped == true && harness.probe.info(tip)?.depth == 24)
        #expect(harness.probe.longs(tip, "_NET_WM_WINDOW_OPACITY") == nil && harness.pendingTimerCount == 0)
        harness.move(to: Point(x: 5, y: 5))
        harness.settle()
        #expect(harness.probe.info(tip)?.isMapped == false)
    }
}
