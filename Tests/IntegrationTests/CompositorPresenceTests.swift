import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// A compositor that starts or stops while the program runs (a session starting at the same
/// moment, a compositor restarted): tooltips are made for the screen as it is when they show,
/// translucent (32-bit, with a shadow and only an input shape) under a compositor, opaque with
/// their outline as shape without. The compositor is a fake one: the probe owning
/// `_NET_WM_CM_S0`, which is all X11UI looks at.
@Suite(.serialized)
@MainActor
final class CompositorPresenceTests {
    nonisolated static let selection = "_NET_WM_CM_S0"

    /// The compositor takes its selection after the server answered X11UI's question about
    /// its owner, and before X11UI's request for the selection's events could have arrived
    /// (a proxy delays each direction by 200 ms, so that the moment is wide). X11UI must
    /// still learn of it.
    @Test func aCompositorStartingWhileItsPresenceIsReadIsSeen() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let proxy = try XProxy(serverDisplay: server.number, firstDisplay: 680, latency: .milliseconds(200))
        defer { proxy.stop() }
        let probe = try ServerProbe(display: server.display)
        let app = try Application(displayName: proxy.display)
        defer { app.close() }
        // The extensions' round trips first: the next reply is the one for the owner.
        _ = app.connection.extensions
        let getSelectionOwner: UInt8 = 23
        let before = proxy.snapshot
        let claimed = Thread {
            // The owner's answer leaves the server: the compositor starts at once (the proxy
            // wakes this thread as each message crosses it).
            let answered = proxy.wait(timeout: 10) { now in
                (now.opcodes[getSelectionOwner] ?? 0) > (before.opcodes[getSelectionOwner] ?? 0)
                    && now.replies > before.replies
            }
            if answered { probe.ownSelection(Self.selection) }
        }
        claimed.start()
        _ = app.screen.isComposited
        app.connection.flush()
        let seen = (try? app.run(until: { app.screen.isComposited }, timeout: .seconds(3))) ?? false
        #expect(probe.ownsSelection(Self.selection), "the fake compositor took its selection")
        #expect(seen, "the compositor that started while X11UI asked for it was missed")
    }

    /// A tooltip made before the compositor came is made again when it comes, and again when
    /// it goes: the re-shown tooltip's window has the depth the screen needs now.
    @Test func aReshownTooltipFollowsTheCompositorComingAndGoing() throws {
        let display = try InProcessDisplay(width: 640, height: 480)
        let probe = display.probe
        let source = View()
        source.preferredSize = Size(width: 120, height: 40)
        source.backgroundColor = Color(rgb: 0x34c759)
        source.toolTip = "Made for the screen as it is"
        let window = Window(
            title: "compositor", size: Size(width: 300, height: 200), content: VStack(padding: 40) { source },
            application: display.app)
        display.show(window)
        let app = display.app

        /// Shows the tooltip over the source; returns its window's depth.
        func showTip() -> Int? {
            display.movePointer(to: source)
            guard display.run(until: { app.toolTips.isShowing }),
                let id = app.toolTips.windowID?.rawValue, display.run(until: { probe.info(id)?.isMapped == true })
            else { return nil }
            return probe.info(id)?.depth
        }
        func hideTip() {
            probe.movePointer(to: 600, 460)
            display.run(until: { !app.toolTips.isShowing })
        }

        #expect(showTip() == 24)
        hideTip()
        probe.ownSelection(Self.selection)
        #expect(display.run(until: { app.screen.isComposited }))
        #expect(showTip() == 32)
        #expect(app.toolTips.shownFrame.map { $0.width > 0 } == true)
        hideTip()
        probe.releaseSelection(Self.selection)
        #expect(display.run(until: { !app.screen.isComposited }))
        #expect(showTip() == 24)
    }
}
