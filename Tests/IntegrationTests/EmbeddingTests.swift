import CX11
import Foundation
import Testing
import X11TestSupport
import X11UI

/// A host program with its own `Display*`, window and loop that uses X11UI for tooltips and an
/// embedded view, in both driving styles; and the embed-example program from outside.
@Suite(.serialized)
@MainActor
final class EmbeddingTests {
    let server: XvfbServer
    let probe: ServerProbe
    let hostDisplay: OpaquePointer
    let hostWindow: UInt
    let hostMask = ExposureMask | KeyPressMask | StructureNotifyMask
    /// Events the host's loop saw (after X11UI declined them).
    var hostEvents: [Int32] = []

    init() throws {
        server = try XvfbServer()
        probe = try ServerProbe(display: server.display)
        hostDisplay = try #require(XOpenDisplay(server.display))
        TestDisplays.watch(hostDisplay)
        let screen = XDefaultScreen(hostDisplay)
        hostWindow = XCreateSimpleWindow(
            hostDisplay, XRootWindow(hostDisplay, screen), 0, 0, 400, 300, 0, 0, XWhitePixel(hostDisplay, screen))
        XSelectInput(hostDisplay, hostWindow, hostMask)
        XMapWindow(hostDisplay, hostWindow)
        XSync(hostDisplay, 0)
    }

    isolated deinit {
        XCloseDisplay(hostDisplay)
        TestDisplays.unwatch(hostDisplay)
        server.stop()
    }

    /// The host's loop, XNextEvent style: events go through `handle`, the rest are the host's.
    func pumpHandling(_ app: Application, until condition: () -> Bool, timeout: TimeInterval = 3) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            while XPending(hostDisplay) > 0 {
                var event = XEvent()
                XNextEvent(hostDisplay, &event)
                if !app.handle(event) { hostEvents.append(event.type) }
            }
            app.fireTimers()
            app.flush()
            if condition() { return true }
            // Sleep as a host does: until the connection has data or X11UI's next deadline,
            // bounded by the test's timeout.
            var descriptor = pollfd(fd: XConnectionNumber(hostDisplay), events: Int16(POLLIN), revents: 0)
            var wait = deadline.timeIntervalSinceNow * 1000
            if let next = app.nextDeadline { wait = min(wait, (next - .now()).milliseconds) }
            if XPending(hostDisplay) == 0 { _ = poll(&descriptor, 1, Int32(max(0, wait.rounded(.up)))) }
        }
        return condition()
    }

    /// The host's loop, poll style: X11UI reads, the host gets what is not X11UI's.
    func pumpPolling(_ app: Application, until condition: () -> Bool, timeout: TimeInterval = 3) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var descriptor = pollfd(fd: app.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let wait = app.nextDeadline.map { Int32(max(0, ($0 - .now()).milliseconds.rounded(.up))) } ?? 5
            _ = poll(&descriptor, 1, min(wait, 5))
            app.processPending()
            if condition() { return true }
        }
        return condition()
    }

    func attachChart(_ app: Application) -> View {
        let foreign = ForeignWindow(windowID: X11WindowID(rawValue: hostWindow), application: app)
        let region = foreign.addRegion(Rect(x: 50, y: 50, width: 100, height: 100))
        region.toolTip = "Host rectangle"
        return region
    }

    @Test func aForeignRegionGetsTooltipsWhileTheHostKeepsItsEvents() throws {
        let app = Application(display: hostDisplay)
        _ = attachChart(app)
        // The host's mask is kept, X11UI's input added.
        var attributes = XWindowAttributes()
        XGetWindowAttributes(hostDisplay, hostWindow, &attributes)
        #expect(attributes.your_event_mask & hostMask == hostMask)
        #expect(attributes.your_event_mask & PointerMotionMask != 0)
        probe.movePointer(to: 100, 100)
        #expect(pumpHandling(app, until: { app.toolTips.shownText == "Host rectangle" }))
        #expect(probe.mappedPopups().last.flatMap { probe.string($0.id, "_NET_WM_NAME") } == "Host rectangle")
        // A key on the host window still reaches the host.
        probe.key(0x61)
        #expect(pumpHandling(app, until: { self.hostEvents.contains(KeyPress) }))
        app.close()
        // Closing X11UI leaves the host's display open and the host's mask as it was.
        XGetWindowAttributes(hostDisplay, hostWindow, &attributes)
        #expect(attributes.your_event_mask == hostMask)
        #expect(XSync(hostDisplay, 0) != 0)
    }

    @Test func thePollingStyleDeliversTheHostsEventsToItsHandler() throws {
        let app = Application(display: hostDisplay)
        var hostSaw: [Int32] = []
        app.hostEventHandler = { hostSaw.append($0.type) }
        _ = attachChart(app)
        probe.movePointer(to: 90, 90)
        #expect(pumpPolling(app, until: { app.toolTips.shownText == "Host rectangle" }))
        probe.key(0x61)
        #expect(pumpPolling(app, until: { hostSaw.contains(KeyPress) }))
        app.close()
    }

    /// A host that closes the display X11UI drew text on and opens another gets a clean
    /// connection, even when malloc puts it at the same address (Xft's cached fonts used to leave
    /// a stale Xrender record behind; see FontCache.disableUnreferencedFontCache).
    @Test func closingAndReopeningHostDisplaysStaysClean() throws {
        for _ in 0..<6 {
            let display = try #require(XOpenDisplay(server.display))
            TestDisplays.watch(display)
            let screen = XDefaultScreen(display)
            let window = XCreateSimpleWindow(
                display, XRootWindow(display, screen), 0, 0, 300, 200, 0, 0, XWhitePixel(display, screen))
            XMapWindow(display, window)
            XSync(display, 0)
            let app = Application(display: display)
            let embedded = Window(
                embeddedIn: X11WindowID(rawValue: window), frame: Rect(x: 10, y: 10, width: 200, height: 80),
                content: VStack(padding: 8) { Button(title: "Text drawn with Xft") }, application: app)
            embedded.show()
            app.processPending()
            app.close()
            XSync(display, 0)
            #expect(TestDisplays.errorCount(on: display) == 0)
            XCloseDisplay(display)
            TestDisplays.unwatch(display)
        }
    }

    @Test func anEmbeddedButtonWorksInsideTheHostWindow() throws {
        let app = Application(display: hostDisplay)
        var clicks = 0
        let button = Button(title: "Embedded") { clicks += 1 }
        button.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "Inside"))
        let embedded = Window(
            embeddedIn: X11WindowID(rawValue: hostWindow), frame: Rect(x: 200, y: 150, width: 160, height: 80),
            content: VStack(padding: 10) { button }, application: app)
        embedded.show()
        #expect(pumpHandling(app, until: { embedded.isVisible && embedded.screenOrigin != nil }))
        let info = try #require(probe.info(embedded.windowID))
        #expect(info.frame.x == 200 && info.frame.y == 150)
        let frame = try #require(button.frameOnScreen)
        probe.movePointer(to: Int(frame.midX), Int(frame.midY))
        probe.click()
        #expect(pumpHandling(app, until: { clicks == 1 && app.toolTips.shownText == "Inside" }))
        // The host resizes the embedded area.
        embedded.setFrame(Rect(x: 10, y: 10, width: 200, height: 100))
        #expect(pumpHandling(app, until: { self.probe.info(embedded.windowID)?.frame.width == 200 }))
        app.close()
        #expect(XSync(hostDisplay, 0) != 0)
    }
}

/// The embed-example program, from outside.
@Suite(.serialized)
final class EmbedExampleTests {
    let session: ProgramSession

    init() throws {
        session = try ProgramSession("embed-example", readyView: "embedded-button", alsoReady: ["host-chart"])
    }

    @Test func itsHostDrawingAndX11UIsButtonAndTooltipsCoexist() throws {
        let probe = session.probe
        let host = try #require(
            probe.window(named: "embed-example")
                ?? probe.topLevelWindows().first {
                    probe.string($0.id, "WM_CLASS")?.hasPrefix("embed-example") == true
                })
        #expect(probe.string(host.id, "WM_CLASS") == "embed-example\0Embed-example\0")
        // The host drew its bars: Q2's sea green.
        let chart = try session.frame("host-chart")
        #expect(wait(timeout: 2) { probe.pixel(chart.x + 60 + 30, chart.maxY - 10) == 0x2e8b57 })
        // Hovering a bar names it; the next bar names itself.
        probe.movePointer(to: chart.x + 90, chart.maxY - 20)
        #expect(session.waitForToolTip(named: "Q2: 42 units") != nil)
        probe.movePointer(to: chart.x + 150, chart.maxY - 20)
        #expect(session.waitForToolTip(named: "Q3: 25 units") != nil)
        // The embedded button's click tooltip.
        let button = try session.frame("embedded-button")
        probe.movePointer(to: button.midX, button.midY)
        probe.click()
        #expect(session.waitForToolTip(named: "An X11UI view inside an Xlib window", timeout: 1) != nil)
    }
}
