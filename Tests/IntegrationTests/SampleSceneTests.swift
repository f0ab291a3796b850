import Foundation
import Testing
import X11TestSupport

/// The demo's sample scene, driven from outside with XTest on a private Xvfb, as a user would;
/// every check reads the X server's state (mapped windows, their properties and geometry).
@Suite(.serialized)
final class SampleSceneTests {
    let session: ProgramSession
    var probe: ServerProbe { session.probe }

    init() throws {
        session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
    }

    /// Hovers the middle of a view (or a point in it) and returns the tooltip that appears.
    func hover(_ id: String, dx: Int? = nil, dy: Int? = nil) throws -> ServerProbe.WindowInfo? {
        let view = try session.frame(id)
        probe.movePointer(to: view.x + (dx ?? view.width / 2), view.y + (dy ?? view.height / 2))
        return session.waitForToolTip()
    }

    @Test func defaultViewShowsItsTooltipBelowCentredAndClearOfThePointer() throws {
        let view = try session.frame("default-view")
        let tip = try #require(try hover("default-view"))
        #expect(probe.string(tip.id, "_NET_WM_NAME") == "The default tooltip for the view.")
        #expect(probe.windowType(tip.id) == "_NET_WM_WINDOW_TYPE_TOOLTIP")
        #expect(tip.isOverrideRedirect)
        #expect(tip.rect.y >= view.maxY)
        #expect(abs(tip.rect.midX - view.midX) <= 1)
        #expect(!tip.rect.contains(view.midX, view.midY))
        // WM_TRANSIENT_FOR names the demo's window; WM_CLASS is set.
        let owner = try #require(probe.longs(tip.id, "WM_TRANSIENT_FOR")?.first)
        #expect(probe.string(UInt(owner), "_NET_WM_NAME") == "X11UI Tooltips: sample")
        #expect(probe.string(tip.id, "WM_CLASS")?.contains("X11UI-ToolTip") == true)
    }

    /// The demo's sample views and the texts of their tooltips, as the demo must show them.
    static let texts = [
        ("default-view", "The default tooltip for the view."),
        ("label", "The label's tooltip."),
        (
            "buy-button",
            "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."
        ),
        ("color-view", "The color is yellow."),
        ("cart-button", "Add this item to your cart. Your cart is empty."),
        ("checkout-button", "Add an item to your cart to check out. (Ctrl+Return)"),  // with its shortcut
    ]

    @Test func everySampleViewHasItsText() throws {
        for (id, text) in Self.texts {
            session.park()
            session.waitForNoToolTip()
            let view = try session.frame(id)
            probe.movePointer(to: view.midX, view.midY)
            let tip = session.waitForToolTip(named: text)
            #expect(tip != nil, "\(id) should show \"\(text)\"; showing \(session.toolTipText ?? "nothing")")
        }
    }

    @Test func theLongBuyTooltipWrapsWithinTheMaximumWidth() throws {
        let tip = try #require(try hover("buy-button"))
        #expect(tip.rect.width <= 360 + 2 * 8 + 2)
        #expect(tip.rect.height >= 2 * 15 + 2 * 8)  // two lines at least
    }

    @Test func theTooltipWaitsForTheInitialDelay() throws {
        let view = try session.frame("default-view")
        let start = Date()
        probe.movePointer(to: view.midX, view.midY)
        _ = try #require(session.waitForToolTip())
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 0.45, "shown after \(elapsed) s, before the 500 ms delay")
    }

    @Test func browsingToTheNextViewUsesTheShortDelay() throws {
        // From the label up to the view above it (the label's tooltip hangs below the label).
        _ = try #require(try hover("label"))
        let next = try session.frame("default-view")
        let start = Date()
        probe.movePointer(to: next.midX, next.midY)
        let tip = session.waitForToolTip(named: "The default tooltip for the view.")
        #expect(tip != nil)
        // A show without browse mode cannot come before the initial delay after the motion:
        // one that came sooner used the browse delay.
        #expect(Date().timeIntervalSince(start) < 0.5)
    }

    @Test func regionViewHasTooltipsInItsTopAndBottomThirdsOnly() throws {
        let region = try session.frame("region-view")
        let third = region.height / 3
        probe.movePointer(to: region.midX, region.y + third / 2)
        let top = session.waitForToolTip(named: "Top area of the view.")
        #expect(top != nil)
        // Above the view, so that it covers none of the view's other bands.
        if let top { #expect(top.rect.maxY <= region.y) }
        // Into the middle: nothing there, so the tooltip hides.
        probe.movePointer(to: region.midX, region.y + third + third / 2)
        #expect(session.waitForNoToolTip(timeout: 2))
        #expect(holds(for: 0.7) { probe.mappedPopups().isEmpty })
        // Into the bottom third: the other text.
        probe.movePointer(to: region.midX, region.maxY - third / 2)
        let bottom = session.waitForToolTip(named: "Bottom area of the view.")
        #expect(bottom != nil)
        // Placed at the bottom band, not at the whole view.
        if let bottom { #expect(bottom.rect.y >= region.maxY) }
    }

    /// A pointer that never rests for the initial delay, moving inside the region at least
    /// every 50 ms, still gets the tooltip: had a motion restarted the delay, none would show
    /// while it moves.
    @Test func motionInsideTheRegionDoesNotRestartTheDelay() throws {
        let view = try session.frame("color-view")
        var shownWhileMoving = false
        for step in 0..<120 {
            probe.movePointer(to: view.x + 4 + (step * 3) % max(1, view.width - 8), view.midY)
            if wait(timeout: 0.05, { !probe.mappedPopups().isEmpty }) {
                shownWhileMoving = true
                break
            }
        }
        #expect(shownWhileMoving, "no tooltip while the pointer kept moving inside the region")
    }

    @Test func escapeDismissesWithoutMovingThePointerUntilThePointerLeaves() throws {
        _ = try #require(try hover("default-view"))
        probe.key(0xff1b)  // Escape
        #expect(session.waitForNoToolTip(timeout: 1))
        #expect(
            holds(for: 0.9) { probe.mappedPopups().isEmpty }, "an Escape-dismissed tooltip must not come back by itself"
        )
        // Leaving and coming back shows it again.
        session.park()
        #expect(try hover("default-view") != nil)
    }

    @Test func thePointerCanTravelOntoTheTooltipAndRestThere() throws {
        let view = try session.frame("default-view")
        let tip = try #require(try hover("default-view"))
        // Cross the gap in steps, then rest on the tooltip.
        for y in stride(from: view.midY, through: tip.rect.midY, by: 6) {
            probe.movePointer(to: view.midX, y)
            probe.sync()
        }
        probe.movePointer(to: tip.rect.midX, tip.rect.midY)
        #expect(holds(for: 0.8) { probe.mappedPopups().count == 1 }, "the tooltip is hoverable")
        // Leaving both hides it.
        session.park()
        #expect(session.waitForNoToolTip(timeout: 1))
    }

    @Test func aTooltipIsPersistent() throws {
        _ = try #require(try hover("default-view"))
        #expect(holds(for: 2.5) { probe.mappedPopups().count == 1 })
    }

    @Test func keyboardFocusShowsTheTooltipAtTheViewAndEscapeHidesIt() throws {
        // Keys go to the window under the pointer (pointer-root focus on a bare server):
        // rest the pointer on an empty part of the window.
        let buy = try session.frame("buy-button")
        let cart = try session.frame("cart-button")
        probe.movePointer(to: cart.maxX + 30, cart.midY)
        // The window opened with the buy button focused: Tab moves on to the cart button.
        probe.key(0xff09)
        let cartTip = try #require(session.waitForToolTip(named: "Add this item to your cart. Your cart is empty."))
        #expect(cartTip.rect.y >= cart.maxY, "placed at the focused view")
        probe.key(0xff09, shift: true)  // Shift-Tab → the buy button: the cart's tooltip goes, the buy's comes
        let tip = try #require(
            session.waitForToolTip(
                named:
                    "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."
            ))
        #expect(tip.rect.y >= buy.maxY, "placed at the focused view")
        probe.key(0xff1b)
        #expect(session.waitForNoToolTip(timeout: 1))
    }

    @Test func spaceOnTheFocusedCartUpdatesItsTooltipInPlace() throws {
        let cart = try session.frame("cart-button")
        probe.movePointer(to: cart.maxX + 30, cart.midY)
        probe.key(0xff09)  // the cart button (the window opened on the buy button)
        let tip = try #require(session.waitForToolTip(named: "Add this item to your cart. Your cart is empty."))
        probe.key(0x20)  // Space adds an item
        var sawUnmapped = false
        let updated = wait(timeout: 2) {
            let popups = probe.mappedPopups()
            if popups.isEmpty { sawUnmapped = true }
            return popups.last.flatMap { probe.string($0.id, "_NET_WM_NAME") }
                == "Add this item to your cart. Your cart contains 1 item."
        }
        #expect(updated)
        #expect(!sawUnmapped, "the tooltip re-renders in place, without hiding")
        #expect(probe.mappedPopups().last?.id == tip.id)
    }

    @Test func clickingTheCartHidesItsTooltipAndTheNextOneCounts() throws {
        let cart = try session.frame("cart-button")
        _ = try #require(try hover("cart-button"))
        probe.click()
        #expect(session.waitForNoToolTip(timeout: 1))
        #expect(
            holds(for: 0.7) { probe.mappedPopups().isEmpty },
            "no tooltip comes back while the pointer rests after the click")
        probe.movePointer(to: cart.midX + 3, cart.midY)
        #expect(session.waitForToolTip(named: "Add this item to your cart. Your cart contains 1 item.") != nil)
    }

    @Test func hoveringASelectionQuotesIt() throws {
        let text = try session.frame("text-view")
        // Double-click the first word ("Select"), then rest on it.
        probe.movePointer(to: text.x + 24, text.y + 16)
        probe.click()
        probe.click()
        probe.movePointer(to: text.x + 26, text.y + 16)
        #expect(
            session.waitForToolTip(named: "Selected text: Select") != nil,
            "showing \(session.toolTipText ?? "nothing"); events \(session.program.toolTipEvents)")
        // Outside the selection, no tooltip.
        session.park()
        session.waitForNoToolTip()
        probe.movePointer(to: text.x + 200, text.maxY - 14)
        #expect(holds(for: 0.9) { probe.mappedPopups().isEmpty })
    }

    @Test func theTooltipWindowIsReusedAndShapedWithoutACompositor() throws {
        let first = try #require(try hover("default-view"))
        session.park()
        session.waitForNoToolTip()
        let second = try #require(try hover("color-view"))
        #expect(first.id == second.id, "one popup window per display, reused")
        #expect(second.depth == 24)
        #expect(probe.isShaped(second.id), "an exact outline through the Shape extension")
        // Inside the body: the dark bubble. At the very corner: whatever lies under it.
        let body = probe.pixel(second.rect.midX, second.rect.maxY - 3)
        #expect(body == 0x2c2c2e)
        let corner = probe.pixel(second.rect.x, second.rect.maxY - 1)
        #expect(corner != 0x2c2c2e && corner != 0x000000)
    }
}

/// The sample scene again with a compositor running: the same texts at the same places, in
/// 32-bit ARGB windows (translucent, with a shadow) instead of shaped ones.
@Suite(.serialized)
final class CompositedSampleSceneTests {
    let session: ProgramSession
    var probe: ServerProbe { session.probe }

    init() throws {
        session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view", composited: true)
    }

    @Test func everySampleViewHasItsTextBelowItInAnARGBWindow() throws {
        for (id, text) in SampleSceneTests.texts {
            session.park()
            session.waitForNoToolTip()
            let view = try session.frame(id)
            probe.movePointer(to: view.midX, view.midY)
            let tip = try #require(session.waitForToolTip(named: text), "\(id) should show \"\(text)\"")
            #expect(tip.depth == 32)
            #expect(!probe.isShaped(tip.id), "translucency, not a shape, makes the corners round")
            #expect(probe.windowType(tip.id) == "_NET_WM_WINDOW_TYPE_TOOLTIP")
            // The window includes the shadow's margin (6 px above the body at most).
            #expect(tip.rect.y >= view.maxY - 6, "\(id): below the view")
            #expect(!tip.rect.contains(view.midX, view.midY))
        }
    }

    /// The bubble's shadow lies whole inside the window, fading to nothing before its edges,
    /// and the margin it lies in takes no pointer: only the bubble's outline does.
    @Test func theShadowIsWholeAndTransparentToThePointer() throws {
        let view = try session.frame("default-view")
        probe.movePointer(to: view.midX, view.midY)
        let tip = try #require(session.waitForToolTip(named: SampleSceneTests.texts[0].1))
        let (width, height) = (tip.frame.width, tip.frame.height)
        let pixels = probe.windowPixels(tip.id, width: width, height: height)
        try #require(pixels.count == width * height)
        func alpha(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] >> 24 }
        let edges =
            (0..<width).flatMap { [alpha($0, 0), alpha($0, height - 1)] }
            + (0..<height).flatMap { [alpha(0, $0), alpha(width - 1, $0)] }
        #expect(edges.allSatisfy { $0 == 0 }, "nothing reaches the window's edge: the shadow is not cut")
        // Down the middle column: margin, bubble, then the shadow fading out below it.
        let column = (0..<height).map { alpha(width / 2, $0) }
        let body = try #require(column.lastIndex(of: 255), "an opaque bubble")
        let below = column[(body + 1)...]
        #expect(below.contains { $0 > 0 && $0 < 255 }, "a soft shadow below the bubble: \(Array(below))")
        #expect(probe.takesPointer(tip.id, at: width / 2, body - 2), "the bubble takes the pointer")
        for y in (body + 1)..<height {
            #expect(!probe.takesPointer(tip.id, at: width / 2, y), "the shadow at y \(y) lets the pointer through")
        }
        #expect(!probe.takesPointer(tip.id, at: 0, 0) && !probe.takesPointer(tip.id, at: width - 1, height - 1))
    }

    @Test func regionViewBandsUnderACompositor() throws {
        let region = try session.frame("region-view")
        let third = region.height / 3
        probe.movePointer(to: region.midX, region.y + third / 2)
        #expect(session.waitForToolTip(named: "Top area of the view.") != nil)
        probe.movePointer(to: region.midX, region.y + third + third / 2)
        #expect(session.waitForNoToolTip(timeout: 2))
        probe.movePointer(to: region.midX, region.maxY - third / 2)
        #expect(session.waitForToolTip(named: "Bottom area of the view.") != nil)
    }
}
