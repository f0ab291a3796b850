import CX11
import Foundation
import Testing
import X11TestSupport

/// The demo driven from outside with XTest: the disabled checkout button, a click through Buy's
/// tooltip onto the button it covers, keyboard focus on the icons and the placements scene's
/// click-tooltip views, and the inspector following a window that another client moves.
@Suite(.serialized)
final class DemoEventTests {
    /// The checkout button's body, left of its title: the fill shows whether it is enabled.
    static func bodyPixel(_ probe: ServerProbe, _ frame: Frame) -> UInt32 {
        probe.pixel(frame.x + 8, frame.midY)
    }

    static let accent: UInt32 = 0x0a64d8

    @Test func checkoutIsDisabledUntilTheCartHasAnItemAndAClickThroughBuysTooltipChecksOut() throws {
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "checkout-button")
        let probe = session.probe
        let checkout = try session.frame("checkout-button")
        let cart = try session.frame("cart-button")
        let buy = try session.frame("buy-button")
        // Disabled: dimmed, its tooltip says why, a click does nothing.
        #expect(Self.bodyPixel(probe, checkout) != Self.accent)
        probe.movePointer(to: checkout.midX, checkout.midY)
        #expect(session.waitForToolTip(named: "Add an item to your cart to check out. (Ctrl+Return)") != nil)
        probe.click()
        probe.movePointer(to: checkout.midX + 2, checkout.midY)
        #expect(session.waitForToolTip(named: "Add an item to your cart to check out. (Ctrl+Return)") != nil)
        // Tab from the cart goes past it (to the text view, which has no tooltip of its own).
        probe.movePointer(to: cart.maxX + 30, cart.midY)
        #expect(session.waitForNoToolTip())
        probe.key(0xff09)  // from the buy button, where the window opened
        #expect(session.waitForToolTip(named: "Add this item to your cart. Your cart is empty.") != nil)
        probe.key(0xff09)
        #expect(session.waitForNoToolTip(timeout: 2))
        #expect(holds(for: 0.8) { session.toolTipText == nil }, "no focus tooltip: the checkout button was skipped")
        // An item in the cart: enabled, its tooltip says what it buys.
        probe.movePointer(to: cart.midX, cart.midY)
        probe.click()
        #expect(wait(timeout: 2) { Self.bodyPixel(probe, checkout) == Self.accent }, "enabled, in full colour")
        probe.movePointer(to: checkout.midX, checkout.midY)
        #expect(session.waitForToolTip(named: "Check out 1 item for $9.99. (Ctrl+Return)") != nil)
        probe.click()  // checking out empties the cart
        #expect(wait(timeout: 2) { Self.bodyPixel(probe, checkout) != Self.accent })
        // Again, and this time click the checkout button through Buy's tooltip, which covers it.
        probe.movePointer(to: cart.midX, cart.midY)
        probe.click()
        #expect(wait(timeout: 2) { Self.bodyPixel(probe, checkout) == Self.accent })
        session.park()
        session.waitForNoToolTip()
        probe.movePointer(to: buy.midX, buy.midY)
        let tip = try #require(session.waitForToolTip(named: SampleSceneTests.texts[2].1))
        let x = checkout.x + 20
        #expect(tip.rect.contains(x, checkout.midY), "Buy's tooltip covers the checkout button")
        for y in stride(from: buy.midY, through: checkout.midY, by: 6) {
            probe.movePointer(to: buy.midX + (x - buy.midX) * (y - buy.midY) / (checkout.midY - buy.midY), y)
            probe.sync()
        }
        probe.movePointer(to: x, checkout.midY)
        #expect(
            holds(for: 0.05) { session.toolTipText == SampleSceneTests.texts[2].1 }, "resting on the tooltip keeps it")
        probe.click()
        // Buy's tooltip goes (the checkout button's own may follow, the pointer being on it).
        #expect(wait(timeout: 1) { session.toolTipText != SampleSceneTests.texts[2].1 })
        #expect(
            wait(timeout: 2) { Self.bodyPixel(probe, checkout) != Self.accent }, "the checkout button got the click")
        probe.movePointer(to: x + 2, checkout.midY)
        #expect(session.waitForToolTip(named: "Add an item to your cart to check out. (Ctrl+Return)") != nil)
    }

    /// Whether a focus ring is drawn just left of a view (the window's background otherwise).
    static func ringLeft(of frame: Frame, _ probe: ServerProbe) -> Bool {
        probe.pixel(frame.x - 4, frame.midY) != 0xf2f2f7
    }

    @Test func tabReachesTheIconsWithAFocusRing() throws {
        let session = try ProgramSession(arguments: ["--scene", "icons"], readyView: "icon-mic")
        let probe = session.probe
        let home = try session.frame("icon-home")
        let video = try session.frame("icon-video")
        let mic = try session.frame("icon-mic")
        probe.movePointer(to: mic.maxX + 20, mic.maxY + 60)
        probe.sync()
        #expect(!Self.ringLeft(of: home, probe), "the window opened on the home icon, without a ring")
        probe.key(0xff09)
        #expect(wait(timeout: 2) { Self.ringLeft(of: video, probe) && !Self.ringLeft(of: home, probe) })
        // The microphone has no tooltip and is no control: Tab goes on to the button below
        // (`truncated-button`), then wraps to the home icon.
        probe.key(0xff09)
        #expect(wait(timeout: 2) { !Self.ringLeft(of: video, probe) && !Self.ringLeft(of: home, probe) })
        probe.key(0xff09)
        #expect(wait(timeout: 2) { Self.ringLeft(of: home, probe) })
        #expect(!Self.ringLeft(of: mic, probe))
    }

    @Test func tabReachesTheItemButtonsAndTheLabelsWithClickTooltips() throws {
        let session = try ProgramSession(arguments: ["--scene", "placements"], readyView: "shaped-label")
        let probe = session.probe
        let shaped = try session.frame("shaped-label")
        let korean = try session.frame("korean-label")
        probe.movePointer(to: shaped.maxX + 40, shaped.maxY + 40)
        // From Flip ↓, where the window opened: Shift, the twelve placements, Items, Likes, then
        // the Korean label.
        for _ in 0..<16 { probe.key(0xff09) }
        #expect(wait(timeout: 2) { Self.ringLeft(of: korean, probe) }, "the Korean label has focus, with a ring")
        probe.key(0xff09)
        probe.key(0xff09)
        #expect(wait(timeout: 2) { Self.ringLeft(of: shaped, probe) && !Self.ringLeft(of: korean, probe) })
    }

    @Test func theCopyButtonInTheKoreanTooltipCopiesItsTextAndTheTooltipStays() throws {
        let text = "툴팁 도움말: 여기를 누르세요"
        let session = try ProgramSession(arguments: ["--scene", "placements"], readyView: "korean-label")
        let probe = session.probe
        let korean = try session.frame("korean-label")
        probe.movePointer(to: korean.midX, korean.midY)
        probe.click()
        let tip = try #require(session.waitForToolTip(named: text, timeout: 2), "the button is no part of the name")
        // The Copy button ends the body, at its right; the arrow is above the body.
        probe.movePointer(to: tip.rect.maxX - 8 - 28, tip.rect.y + (tip.rect.height + 8) / 2)
        probe.click()
        #expect(wait(timeout: 2) { probe.selectionOwner("CLIPBOARD") != 0 }, "the button's action ran")
        probe.requestSelectionText("CLIPBOARD")
        var pasted: String?
        #expect(
            wait(timeout: 2) {
                pasted = probe.requestedSelectionText()
                return pasted != nil
            })
        #expect(pasted == text)
        #expect(session.toolTipText == text, "a click in the tooltip keeps it")
    }

    @Test func theInspectorReportsANewLayoutWhenAnotherClientMovesTheWindow() throws {
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
        let before = try session.frame("buy-button")
        let window = try #require(session.program.windows.first)
        XMoveWindow(session.probe.display, window, 100, 50)
        session.probe.sync()
        var after: Frame?
        #expect(
            wait(timeout: 3) {
                after = session.program.frames()["buy-button"]
                return after?.x == before.x + 100
            })
        #expect(after?.y == before.y + 50)
        #expect(after?.width == before.width && after?.height == before.height)
    }
}
