import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// The X window under every X11UI window: created with its visual, destroyed once by its owner,
/// never for a foreign window; the application's quit policy; the typed window id.
@Suite(.serialized)
@MainActor
final class NativeWindowTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    @Test func closingTwiceDestroysTheXWindowOnce() throws {
        let window = Window(title: "Once", size: Size(width: 120, height: 80), application: display.app)
        display.show(window)
        let id = try #require(window.windowID)
        #expect(probe.info(id)?.isMapped == true)
        let errors = display.app.protocolErrorCount
        window.close()
        window.close()
        display.settle()
        #expect(window.windowID == nil)
        #expect(probe.info(id) == nil, "the X window is gone")
        #expect(display.app.protocolErrorCount == errors, "and was destroyed by one request, not two")
        // Shown again, the window gets a new X window.
        display.show(window)
        let again = try #require(window.windowID)
        #expect(again != id && probe.info(again)?.isMapped == true)
    }

    @Test func aTranslucentPopupHasItsOwnVisualAndColormapFreedWithIt() throws {
        let popup = PopupWindow(application: display.app, translucent: true)
        popup.setFrame(Rect(x: 40, y: 40, width: 60, height: 30))
        popup.show()
        display.settle()
        let id = try #require(popup.windowID)
        let info = try #require(probe.info(id))
        #expect(info.isOverrideRedirect && info.isMapped)
        #expect(info.rect == Frame(x: 40, y: 40, width: 60, height: 30), "made where setFrame put it: \(info)")
        // Xvfb has a 32-bit TrueColor visual with alpha: the popup is made on it.
        #expect(popup.isTranslucent && info.depth == 32)
        let errors = display.app.protocolErrorCount
        popup.close()
        display.settle()
        #expect(probe.info(id) == nil)
        #expect(display.app.protocolErrorCount == errors, "window and colormap freed without an error")
    }

    @Test func aForeignWindowIsWatchedButNeverDestroyed() throws {
        let host = XCreateSimpleWindow(probe.display, probe.root, 0, 0, 200, 100, 0, 0, 0)
        XSelectInput(probe.display, host, ExposureMask)
        XMapWindow(probe.display, host)
        probe.sync()
        let foreign = ForeignWindow(windowID: X11WindowID(rawValue: host), application: display.app)
        #expect(foreign.windowID == X11WindowID(rawValue: host))
        #expect(foreign.size == Size(width: 200, height: 100))
        foreign.close()
        foreign.close()
        display.settle()
        #expect(foreign.windowID == nil)
        #expect(probe.info(host)?.isMapped == true, "the owner's window is still there")
        XDestroyWindow(probe.display, host)
        probe.sync()
    }

    @Test func theApplicationQuitsWhenItsLastTopLevelWindowCloses() throws {
        let app = display.app
        app.quitsWhenLastWindowCloses = true
        defer { app.quitsWhenLastWindowCloses = false }
        let first = Window(title: "First", size: Size(width: 80, height: 60), application: app)
        let second = Window(title: "Second", size: Size(width: 80, height: 60), application: app)
        let popup = PopupWindow(application: app)
        popup.setFrame(Rect(x: 300, y: 300, width: 40, height: 20))
        display.show(first)
        display.show(second)
        popup.show()
        #expect(app.openWindows.count == 2, "popups are not top-level windows")
        popup.close()
        #expect(!app.quitRequested)
        first.close()
        #expect(!app.quitRequested, "one top-level window is still open")
        second.close()
        #expect(app.quitRequested)
        #expect(app.openWindows.isEmpty)
    }

    @Test func windowEventsSelectTheirXMasks() {
        #expect(WindowEvents([]).xMask == 0)
        #expect(WindowEvents([.exposure, .focusChange]).xMask == ExposureMask | FocusChangeMask)
        let all: WindowEvents = [
            .exposure, .structure, .keyPress, .keyRelease, .buttonPress, .buttonRelease, .pointerMotion,
            .pointerEnter, .pointerLeave, .focusChange,
        ]
        #expect(
            all.xMask
                == ExposureMask | StructureNotifyMask | KeyPressMask | KeyReleaseMask | ButtonPressMask
                | ButtonReleaseMask | PointerMotionMask | EnterWindowMask | LeaveWindowMask | FocusChangeMask)
    }

    @Test func windowIDsAreTypedAndPrintInHex() {
        let id = X11WindowID(rawValue: 0x1a0_0003)
        #expect(id.rawValue == 0x1a0_0003)
        #expect(id.description == "0x1a00003")
        #expect(Set([id, X11WindowID(rawValue: 0x1a0_0003)]).count == 1)
    }

    @Test func theLogLevelIsSettable() {
        let saved = Application.logLevel
        defer { Application.logLevel = saved }
        Application.logLevel = .silent
        #expect(Application.logLevel == .silent && Log.level == .silent)
        Application.logLevel = .debug
        #expect(Log.level == .debug)
    }
}
