import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// A window larger than the screen under openbox on a 1366 × 768 screen: fitted to the work
/// area with openbox's frame counted, so the frame lies entirely on the screen.
@Suite(.serialized)
@MainActor
final class WindowFrameFitTests {
    let display: InProcessDisplay
    let manager: ChildProcess
    var probe: ServerProbe { display.probe }

    struct NoWindowManager: Error {}

    init() throws {
        display = try InProcessDisplay(width: 1366, height: 768)
        manager = try ChildProcess(
            "/usr/bin/openbox", ["--sm-disable"],
            environment: ["DISPLAY": display.server.display, "HOME": NSTemporaryDirectory()])
        let probe = display.probe
        // The theme is loaded late in openbox's start.
        guard wait(timeout: 10, { probe.string(probe.root, "_OB_THEME") != nil }) else {
            throw NoWindowManager()
        }
    }

    isolated deinit {
        manager.stop()
    }

    /// The frame around `window` on the screen, from what the server and openbox say.
    func frame(of window: X11UI.Window) -> Rect? {
        guard let info = probe.info(window.windowID),
            let extents = probe.longs(window.windowID!.rawValue, "_NET_FRAME_EXTENTS"),
            extents.count == 4
        else { return nil }
        let f = info.frame
        return Rect(
            x: Double(f.x - extents[0]), y: Double(f.y - extents[2]), width: Double(f.width + extents[0] + extents[1]),
            height: Double(f.height + extents[2] + extents[3]))
    }

    /// With a position asked for (openbox then keeps the window where it is, at its size) and
    /// without (openbox places it).
    @Test(
        arguments: [Size(width: 1280, height: 800), Size(width: 1500, height: 900), Size(width: 1300, height: 760)],
        [true, false])
    func aLargeWindowsFrameLiesOnTheScreen(size: Size, positioned: Bool) throws {
        let screen = Rect(x: 0, y: 0, width: 1366, height: 768)
        let label = Label("A window larger than the screen")
        let window = X11UI.Window(title: "large", size: size, content: VStack { label }, application: display.app)
        if positioned { window.requestedPosition = Point(x: 0, y: 0) }
        // A window mapped while the manager was still starting may stay unmanaged: map it
        // again until the manager has framed it.
        for _ in 0..<5 {
            window.show()
            if display.run(
                until: { self.frame(of: window) != nil && self.probe.info(window.windowID)?.isMapped == true },
                timeout: .seconds(2))
            {
                break
            }
            window.hide()
            display.run(until: { self.probe.info(window.windowID)?.isMapped != true })
        }
        let framed = display.run(until: { self.frame(of: window).map { screen.contains($0) } == true })
        let frame = try #require(self.frame(of: window))
        #expect(framed, "the frame \(frame) lies on the screen \(screen)")
        #expect(frame.height >= 700, "the window is as large as the screen allows: \(frame)")
        if let path = ProcessInfo.processInfo.environment["X11UI_FRAME_SHOTS"] {
            try probe.screenshot(to: "\(path)/frame-\(Int(size.width))x\(Int(size.height))-\(positioned).png")
        }
    }
}
