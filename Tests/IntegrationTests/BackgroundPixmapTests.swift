import CX11
import Testing
import X11TestSupport

@testable import X11UI

/// A popup's back buffer (a tooltip's) is its background pixmap: the server repaints a tooltip
/// that another window uncovered from it, with no request from X11UI. Top-level windows keep
/// no background and copy an uncovered area once; a foreign window's background is left to
/// its owner.
@Suite(.serialized)
@MainActor
final class BackgroundPixmapTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    /// A sample of the screen's pixels in a rectangle.
    func pixels(x: Int, y: Int, width: Int, height: Int) -> [UInt32] {
        var result: [UInt32] = []
        for row in stride(from: y, to: y + height, by: 3) {
            for column in stride(from: x, to: x + width, by: 3) { result.append(probe.pixel(column, row)) }
        }
        return result
    }

    /// Maps a window of the probe's (magenta) over a rectangle, checks that it shows, unmaps it;
    /// returns the requests the application made while it handled what the server sent it until
    /// then (the Expose of the uncovered area among it).
    func coverAndUncover(x: Int, y: Int, width: Int, height: Int) -> Int {
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = 0xff00ff
        let cover = XCreateWindow(
            probe.display, probe.root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, Int32(CopyFromParent),
            UInt32(InputOutput), nil, UInt(CWOverrideRedirect | CWBackPixel), &attributes)
        defer { probe.destroy(cover) }
        XMapRaised(probe.display, cover)
        probe.sync()
        #expect(probe.pixel(x + width / 2, y + height / 2) == 0xff00ff, "the cover shows")
        display.settle()
        XUnmapWindow(probe.display, cover)
        // The server has processed the unmap, so the Expose it brought reaches the application
        // before the reply to its sync (one request, not counted).
        probe.sync()
        let connection = display.app.connection
        let before = connection.nextRequestSerial
        display.app.sync()
        display.app.processPending()
        return Int(connection.nextRequestSerial - before) - 1
    }

    func content() -> View {
        let label = Label("Background pixmap")
        label.backgroundColor = Color(rgb: 0x34c759)
        return VStack(padding: 20) { label }
    }

    /// A top-level window keeps no background (a window manager resizes it before X11UI can
    /// paint, and a buffer background would show old content tiled over the new area): an
    /// uncovered area is copied from the buffer once.
    @Test func anUncoveredTopLevelWindowIsCopiedFromItsBufferOnce() throws {
        let window = Window(
            title: "Uncovered", size: Size(width: 240, height: 120), content: content(), application: display.app)
        display.show(window)
        #expect(!window.bufferIsBackground)
        let before = pixels(x: 0, y: 0, width: 240, height: 120)
        #expect(Set(before).contains(0x34c759), "the content is on the screen")
        let requests = coverAndUncover(x: 10, y: 10, width: 200, height: 90)
        #expect(pixels(x: 0, y: 0, width: 240, height: 120) == before, "the content was copied back")
        #expect(requests == 1, "one copy on Expose: \(requests) requests")
    }

    @Test func anUncoveredToolTipShowsItsContentWithNoRequest() throws {
        let source = View()
        source.preferredSize = Size(width: 160, height: 40)
        let interaction = ToolTipInteraction(defaultToolTip: "Painted by the server")
        source.addInteraction(interaction)
        let window = Window(
            title: "Source", size: Size(width: 300, height: 200), content: VStack(padding: 30) { source },
            application: display.app)
        display.show(window)
        interaction.present()
        #expect(display.run(until: { !self.probe.mappedPopups().isEmpty }))
        display.settle()
        let tip = try #require(probe.mappedPopups().first)
        let host = try #require(display.app.toolTips.presenter.hostWindow)
        #expect(host.bufferIsBackground)
        // Inside the bubble: the rounded corners and the arrow's sides let the source's window
        // show through, and uncovering those would expose it (a copy of its own).
        let f = tip.frame
        let (x, y, width, height) = (f.x + 12, f.y + 12, f.width - 24, f.height - 24)
        let before = pixels(x: x, y: y, width: width, height: height)
        let requests = coverAndUncover(x: x, y: y, width: width, height: height)
        #expect(pixels(x: x, y: y, width: width, height: height) == before)
        #expect(requests == 0, "no copy on Expose: \(requests) requests")
        interaction.dismiss()
    }

    @Test func aTopLevelWindowThatGrewShowsItsContentWhenUncovered() throws {
        let window = Window(
            title: "Grows", size: Size(width: 120, height: 80), content: content(), application: display.app)
        display.show(window)
        let small = try #require(window.buffer)
        window.resize(to: Size(width: 400, height: 260))
        #expect(display.run(until: { window.buffer !== small && window.buffer != nil }))
        display.settle()
        #expect(!window.bufferIsBackground)
        let before = pixels(x: 0, y: 0, width: 400, height: 260)
        #expect(Set(before).contains(0x34c759))
        let requests = coverAndUncover(x: 0, y: 0, width: 400, height: 260)
        #expect(pixels(x: 0, y: 0, width: 400, height: 260) == before)
        #expect(requests == 1)
    }

    @Test func aForeignWindowsBackgroundIsLeftAlone() throws {
        let hostWindow = XCreateSimpleWindow(probe.display, probe.root, 0, 0, 200, 100, 0, 0, 0x2060a0)
        probe.sync()
        let (native, _) = try #require(
            NativeWindow.watch(hostWindow, on: display.app.connection, events: [.structure]))
        #expect(!native.setBackground(pixmap: 0), "a foreign window's background is its owner's")
        native.destroy()
        let foreign = ForeignWindow(windowID: X11WindowID(rawValue: hostWindow), application: display.app)
        #expect(!foreign.bufferIsBackground)
        foreign.detach()
        // The application's requests on the window are through before its owner destroys it.
        display.app.sync()
        probe.destroy(hostWindow)
    }
}
