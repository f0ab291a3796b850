import CX11
import Foundation
import Testing
import X11TestSupport

/// Another client of the display names windows that are no settings manager's as the owner of
/// `_XSETTINGS_S0` and announces them with `MANAGER`: the program's own window, then the root
/// window. The program follows neither: its window keeps every event it selected, hover and
/// clicks still work, and a real manager that comes later is followed.
@Suite(.serialized)
final class HostileSettingsOwnerTests {
    /// A client that takes the settings selection for any window and announces it.
    final class Impostor {
        let display: OpaquePointer
        let root: UInt
        let selection: UInt

        init(display name: String) throws {
            display = try #require(XOpenDisplay(name))
            root = XDefaultRootWindow(display)
            selection = XInternAtom(display, "_XSETTINGS_S0", 0)
        }

        deinit { XCloseDisplay(display) }

        /// Makes `window` the selection's owner (0: none) and sends `MANAGER` on the root.
        func claim(for window: UInt) {
            XSetSelectionOwner(display, selection, window, UInt(CurrentTime))
            var message = XEvent()
            message.xclient.type = ClientMessage
            message.xclient.window = root
            message.xclient.message_type = XInternAtom(display, "MANAGER", 0)
            message.xclient.format = 32
            message.xclient.data.l = (Int(CurrentTime), Int(selection), Int(window), 0, 0)
            XSendEvent(display, root, 0, StructureNotifyMask, &message)
            XSync(display, 0)
        }

        /// The events every client selects on `window`, together.
        func allEventMasks(_ window: UInt) -> Int {
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(display, window, &attributes) != 0 else { return 0 }
            return attributes.all_event_masks
        }
    }

    static let buyToolTip =
        "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."

    @Test func anOwnerThatIsTheProgramsWindowOrTheRootTakesNoInputAndARealManagerIsFollowed() throws {
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "checkout-button")
        let probe = session.probe
        let windowID = try #require(session.program.windows.first)
        let impostor = try Impostor(display: session.server.display)
        let maskBefore = impostor.allEventMasks(windowID)
        let input = ButtonPressMask | ButtonReleaseMask | PointerMotionMask | KeyPressMask | EnterWindowMask
        try #require(maskBefore & input == input, "the program's window selects its input")
        let warnings = { session.program.standardError.split(separator: "\n").filter { $0.contains("XSETTINGS") } }

        // The program's own window, then the root, then nobody (the "manager" goes away).
        impostor.claim(for: windowID)
        #expect(wait(timeout: 5) { warnings().count == 1 }, "\(session.program.standardError)")
        impostor.claim(for: impostor.root)
        #expect(wait(timeout: 5) { warnings().count == 2 }, "\(session.program.standardError)")
        impostor.claim(for: windowID)
        impostor.claim(for: 0)
        probe.sync()
        #expect(holds(for: 0.3) { impostor.allEventMasks(windowID) == maskBefore }, "the window's events untouched")
        #expect(warnings().count == 2, "each owner refused once: \(warnings())")

        // Hover and a click still reach it.
        let buy = try session.frame("buy-button")
        probe.movePointer(to: buy.midX, buy.midY)
        #expect(session.waitForToolTip(named: Self.buyToolTip) != nil, "a hover tooltip")
        let cart = try session.frame("cart-button")
        let checkout = try session.frame("checkout-button")
        let accent: UInt32 = 0x0a64d8
        #expect(probe.pixel(checkout.x + 8, checkout.midY) != accent)
        probe.movePointer(to: cart.midX, cart.midY)
        probe.click()
        #expect(wait(timeout: 3) { probe.pixel(checkout.x + 8, checkout.midY) == accent }, "a click adds to the cart")

        // A real manager comes: its 192 dpi doubles the window.
        let width = try #require(probe.info(windowID)).frame.width
        let manager = try XSettingsManager(display: session.server.display, settings: ["Xft/DPI": .integer(192 * 1024)])
        defer { manager.stop() }
        #expect(wait(timeout: 5) { probe.info(windowID)?.frame.width == 2 * width }, "the manager's dpi followed")
        #expect(impostor.allEventMasks(windowID) == maskBefore)
    }

    /// A manager alternating a malformed table and a good one, 300 times: one warning line for
    /// the malformed table and one for the bad value, however often they come back.
    @Test func aManagerAlternatingBadAndGoodTablesWritesEachWarningOnce() throws {
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "buy-button", xsettings: ["Xft/DPI": .integer(96 * 1024)])
        let manager = try #require(session.settingsManager)
        let hostile: [UInt8] = [0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]
        for round in 0..<300 {
            manager.writeRaw(hostile)
            manager.set(["Xft/DPI": .integer(96 * 1024), "Net/DoubleClickTime": .integer(-Int32(round % 2 + 1))])
        }
        let program = session.program
        let lines = { program.standardError.split(separator: "\n") }
        #expect(wait(timeout: 10) { lines().count >= 3 }, "\(lines())")
        // The last table read: a probe of the program's state once it has caught up.
        let buy = try session.frame("buy-button")
        session.probe.movePointer(to: buy.midX, buy.midY)
        #expect(session.waitForToolTip(named: Self.buyToolTip, timeout: 10) != nil)
        #expect(holds(for: 0.3) { lines().count == 3 }, "\(lines())")
        #expect(lines().filter { $0.contains("malformed") }.count == 1, "\(lines())")
        #expect(lines().filter { $0.contains("Net/DoubleClickTime: -1 ") }.count == 1, "\(lines())")
        #expect(lines().filter { $0.contains("Net/DoubleClickTime: -2 ") }.count == 1, "\(lines())")
    }
}
