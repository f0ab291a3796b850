import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// A window larger than the monitor it opens on is made to fit the room there: the work area a
/// window manager leaves (`_NET_WORKAREA`), or the monitor without one; its content is laid out
/// for the size it got.
@Suite(.serialized) @MainActor struct WindowSizeTests {
    @Test func aWindowLargerThanTheScreenFitsItAndItsContentIsLaidOutForThat() throws {
        let display = try InProcessDisplay(width: 1280, height: 800, resources: "Xft.dpi: 960\n")
        let content = VStack(padding: 0) { Label("Big") }
        let window = Window(
            title: "huge", size: Size(width: 1280, height: 800), content: content, application: display.app)
        display.show(window)
        let info = try #require(display.probe.info(window.windowID))
        #expect(info.frame.width == 1280 && info.frame.height == 800, "\(info)")
        #expect(window.size == Size(width: 1280, height: 800))
        #expect(content.frame == Rect(x: 0, y: 0, width: 1280, height: 800))
    }

    @Test func theWorkAreaOfTheCurrentDesktopIsTheRoom() throws {
        let display = try InProcessDisplay(width: 1280, height: 800)
        // As a window manager with a 30-pixel panel on top and one of 40 at the bottom says it,
        // on the second desktop (the first has none).
        display.probe.setRootLongs("_NET_WORKAREA", [0, 0, 1280, 800, 0, 30, 1280, 730])
        display.probe.setRootLongs("_NET_CURRENT_DESKTOP", [1])
        let window = Window(title: "tall", size: Size(width: 900, height: 2000), application: display.app)
        display.show(window)
        #expect(window.size == Size(width: 900, height: 730))
        let info = try #require(display.probe.info(window.windowID))
        #expect(info.frame.width == 900 && info.frame.height == 730, "\(info)")
    }

    @Test func onceTheMonitorsAreKnownAWindowFitsTheMonitorItOpensOn() throws {
        let display = try InProcessDisplay(width: 1280, height: 800)
        display.app.monitorOverride = [
            Rect(x: 0, y: 0, width: 640, height: 800), Rect(x: 640, y: 0, width: 640, height: 480),
        ]
        let first = Window(title: "first", size: Size(width: 200, height: 100), application: display.app)
        display.show(first)
        let left = Window(title: "left", size: Size(width: 1000, height: 600), application: display.app)
        display.show(left)
        #expect(left.size == Size(width: 640, height: 600))
        let right = Window(title: "right", size: Size(width: 1000, height: 600), application: display.app)
        right.requestedPosition = Point(x: 700, y: 0)
        right.show()
        #expect(display.run(until: { right.isVisible }))
        #expect(right.size == Size(width: 640, height: 480))
        // One that fits is left as it is, and an explicit resize is the program's to make.
        let small = Window(title: "small", size: Size(width: 300, height: 200), application: display.app)
        display.show(small)
        #expect(small.size == Size(width: 300, height: 200))
        small.resize(to: Size(width: 1000, height: 1000))
        #expect(small.size == Size(width: 1000, height: 1000))
    }

    /// The demo at `Xft.dpi: 960` made an 8192 × 8000 window on a 1280 × 800 screen, and the
    /// server grew by about 260 MB for it.
    @Test nonisolated func theDemoAt960DpiFitsTheScreenAndTheServerStaysSmall() throws {
        let server = try XvfbServer(width: 1280, height: 800)
        let probe = try ServerProbe(display: server.display)
        probe.setResources("Xft.dpi: 960\n")
        func serverResident() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(server.pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        let before = serverResident()
        let program = try ProgramProcess("tooltip-demo", arguments: ["--scene", "sample"], display: server.display)
        #expect(program.waitForView("buy-button", timeout: 20) != nil, "\(program.standardError)")
        #expect(wait(timeout: 10) { program.windows.contains { probe.info($0)?.isMapped == true } })
        let window = try #require(program.windows.compactMap { probe.info($0) }.first { $0.isMapped })
        #expect(window.frame.width <= 1280 && window.frame.height <= 800, "\(window)")
        let grown = serverResident() - before
        #expect(grown < 64 * 1024, "the server grew by \(grown) kB")
    }
}
