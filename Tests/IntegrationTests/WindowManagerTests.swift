import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Under a reparenting window manager (openbox): the window sits inside the manager's frame, so
/// a press through a tooltip has to find it below the frame, and a move by the manager has to
/// reach the window's idea of where it is on the screen.
@Suite(.serialized)
@MainActor
final class WindowManagerTests {
    let display: InProcessDisplay
    let manager: ChildProcess
    var probe: ServerProbe { display.probe }

    struct NoWindowManager: Error {}

    init() throws {
        display = try InProcessDisplay()
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

    /// Shows the README's program (Buy above the cart) and waits until the manager framed it.
    func showShop(_ add: @escaping () -> Void) -> (X11UI.Window, Button, Button) {
        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        buy.toolTip = "Click to buy this item."
        let cart = Button(title: "Add to Cart", image: .asset("cart"), style: .plain)
        cart.action = add
        let window = X11UI.Window(
            title: "Shop", size: Size(width: 420, height: 300),
            content: VStack(spacing: 12, padding: 16) {
                buy; cart
            },
            application: display.app)
        window.requestedPosition = Point(x: 40, y: 40)
        // A window mapped while the manager was still starting may stay unmanaged: map it
        // again until the manager has framed it.
        for _ in 0..<5 {
            window.show()
            let framed = display.run(
                until: {
                    self.probe.info(window.windowID)?.isMapped == true
                        && !self.probe.topLevelWindows().contains { $0.id == window.windowID?.rawValue }
                        && window.screenOrigin.map { Int($0.x) } == self.probe.info(window.windowID)?.frame.x
                        && window.screenOrigin.map { Int($0.y) } == self.probe.info(window.windowID)?.frame.y
                }, timeout: .seconds(2))
            if framed { break }
            window.hide()
            display.run(until: { self.probe.info(window.windowID)?.isMapped != true })
        }
        display.settle()
        return (window, buy, cart)
    }

    @Test func aClickThroughBuysTooltipReachesTheCartInsideTheManagersFrame() throws {
        var items = 0
        let (window, buy, cart) = showShop { items += 1 }
        let framed = try #require(probe.info(window.windowID))
        #expect(!probe.topLevelWindows().contains { $0.id == window.windowID?.rawValue }, "reparented into a frame")
        #expect(window.screenOrigin == Point(x: Double(framed.frame.x), y: Double(framed.frame.y)))
        display.movePointer(to: buy)
        #expect(display.run(until: { self.display.app.toolTips.isShowing }))
        let tip = try #require(display.app.toolTips.shownFrame)
        let target = try #require(cart.frameOnScreen)
        let x = Int(tip.midX.rounded())
        let y = Int(max(tip.minY, target.minY) + min(tip.maxY, target.maxY)) / 2
        #expect(tip.contains(Point(x: Double(x), y: Double(y))) && target.contains(Point(x: Double(x), y: Double(y))))
        let buyY = Int(try #require(buy.frameOnScreen).midY)
        for step in stride(from: buyY, through: y, by: 6) {
            probe.movePointer(to: x, step)
            display.run(for: .milliseconds(8))
        }
        probe.movePointer(to: x, y)
        #expect(display.holds(for: .milliseconds(60)) { self.display.app.toolTips.isShowing })
        probe.click()
        #expect(display.run(until: { items == 1 }), "the cart got the click, two windows down from the root")
        #expect(display.app.protocolErrorCount == 0)
    }

    @Test func aMoveByTheManagerKeepsScreenCoordinatesTrue() throws {
        let (window, buy, _) = showShop {}
        // Another client asks for a move; the manager moves its frame and tells the window.
        XMoveWindow(probe.display, try #require(window.windowID).rawValue, 300, 200)
        probe.sync()
        #expect(
            display.run(until: {
                guard let server = self.probe.info(window.windowID), server.frame.x >= 300 else { return false }
                return window.screenOrigin == Point(x: Double(server.frame.x), y: Double(server.frame.y))
            }),
            "origin \(String(describing: window.screenOrigin)), server \(String(describing: probe.info(window.windowID)))"
        )
        // The tooltip goes below the button where the button now is.
        display.movePointer(to: buy)
        #expect(display.run(until: { self.display.app.toolTips.isShowing }))
        let tip = try #require(display.app.toolTips.shownFrame)
        let button = try #require(buy.frameOnScreen)
        #expect(tip.minY >= button.maxY - 4 && abs(tip.midX - button.midX) < button.width)
    }
}
