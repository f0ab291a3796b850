import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Events around tooltips, in windows of this process on a private Xvfb driven with XTest:
/// presses that go through hover tooltips, interactive click tooltips, disabled buttons, and
/// views that take focus because of a click tooltip. Checks read the X server.
@Suite(.serialized)
@MainActor
final class ToolTipEventTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    func point(_ view: View, dx: Double? = nil, dy: Double? = nil) -> (Int, Int) {
        let f = view.frameOnScreen ?? .zero
        return (Int(f.minX + (dx ?? f.width / 2)), Int(f.minY + (dy ?? f.height / 2)))
    }

    // MARK: - No swallowed clicks

    /// The README's first program: Buy's tooltip lies over Add to Cart. Moving from Buy down onto
    /// the covered cart and clicking adds an item, and the tooltip goes.
    @Test func aClickOnBuysTooltipOverTheCartAddsAnItem() throws {
        var items = 0
        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        buy.toolTip = "Click to buy this item."
        let cart = Button(title: "Add to Cart", image: .asset("cart"), style: .plain)
        cart.action = { items += 1 }
        let window = Window(
            title: "Shop", size: Size(width: 420, height: 300),
            content: VStack(spacing: 12, padding: 16) {
                buy; cart
            },
            application: display.app)
        display.show(window)
        display.movePointer(to: buy)
        #expect(display.run(until: { self.display.app.toolTips.isShowing }))
        let tip = try #require(display.app.toolTips.shownFrame)
        let target = try #require(cart.frameOnScreen)
        // A point of the cart that the tooltip covers, straight down from Buy's middle.
        let (x, buyY) = point(buy)
        let y = Int(max(tip.minY, target.minY) + min(tip.maxY, target.maxY)) / 2
        let covered = Point(x: Double(x), y: Double(y))
        #expect(tip.contains(covered) && target.contains(covered), "Buy's tooltip covers the cart")
        for step in stride(from: buyY, through: y, by: 6) {
            probe.movePointer(to: x, step)
            display.run(for: .milliseconds(8))
        }
        probe.movePointer(to: x, y)
        #expect(
            display.holds(for: .milliseconds(60)) { self.display.app.toolTips.isShowing },
            "the pointer rests on the tooltip: it stays")
        probe.click()
        #expect(display.run(until: { items == 1 }), "the click reached the cart under the tooltip")
        #expect(display.run(until: { self.probe.mappedPopups().isEmpty }), "and the tooltip went")
        // The next motion reaches the cart too: it shows its hover state.
        probe.movePointer(to: x + 3, y)
        #expect(display.run(until: { cart.isHovered }))
        #expect(items == 1)
    }

    /// A focus tooltip (Buy focused by Tab) over the cart: a click on it reaches the cart too.
    @Test func aClickOnAFocusTooltipReachesTheViewBeneath() throws {
        var items = 0
        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        buy.toolTip = "Click to buy this item."
        let cart = Button(title: "Add to Cart", image: .asset("cart"), style: .plain)
        cart.action = { items += 1 }
        let window = Window(
            title: "Shop", size: Size(width: 420, height: 300),
            content: VStack(spacing: 12, padding: 16) {
                buy; cart
            },
            application: display.app)
        display.show(window)
        probe.movePointer(to: 410, 290)  // keys go to the window under the pointer
        display.settle()
        // The window opened with Buy focused: Tab moves on to the cart, Shift-Tab comes back.
        probe.key(0xff09)
        #expect(display.run(until: { window.focusedView === cart }))
        probe.key(0xff09, shift: true)
        #expect(display.run(until: { self.display.app.toolTips.shownText == "Click to buy this item." }))
        let tip = try #require(display.app.toolTips.shownFrame)
        let target = try #require(cart.frameOnScreen)
        let covered = tip.intersection(target)
        #expect(!covered.isEmpty, "the focus tooltip covers the cart")
        probe.movePointer(to: Int(covered.midX), Int(covered.midY))
        #expect(display.holds(for: .milliseconds(40)) { self.display.app.toolTips.isShowing })
        probe.click()
        #expect(display.run(until: { items == 1 }))
        #expect(display.run(until: { !self.display.app.toolTips.isShowing }))
    }

    /// A press held on a hover tooltip and released elsewhere: the view beneath gets the press,
    /// the drag and the release as if the tooltip had not been there (no action: released outside).
    @Test func aPressThroughATooltipIsFollowedByItsDragAndRelease() throws {
        var clicks = 0
        let top = View()
        top.preferredSize = Size(width: 200, height: 40)
        top.toolTip = "A tooltip that hangs over the button below."
        let button = Button(title: "Under the tooltip") { clicks += 1 }
        let window = Window(
            title: "Drag", size: Size(width: 320, height: 200),
            content: VStack(spacing: 2, padding: 10) {
                top; button
            },
            application: display.app)
        display.show(window)
        display.movePointer(to: top, dy: 36)
        #expect(display.run(until: { self.display.app.toolTips.isShowing }))
        let tip = try #require(display.app.toolTips.shownFrame)
        let b = try #require(button.frameOnScreen)
        #expect(tip.intersects(b))
        let x = Int(b.minX + 12)
        let y = Int(max(tip.minY, b.minY) + 4)
        probe.movePointer(to: x, Int(tip.minY) + 1)
        probe.movePointer(to: x, y)
        #expect(display.holds(for: .milliseconds(40)) { self.display.app.toolTips.isShowing })
        probe.button(1, down: true)
        #expect(display.run(until: { button.isPressed }), "the press reached the button")
        probe.movePointer(to: 310, 190)
        #expect(display.run(until: { !button.isPressed }), "the drag out reached it")
        probe.button(1, down: false)
        display.settle()
        #expect(clicks == 0 && !button.isPressed)
        // Pressed and released over it: a click.
        probe.movePointer(to: x, y)
        display.settle()
        probe.click()
        #expect(display.run(until: { clicks == 1 }))
    }

    /// Over no window of this program (the root window), a press on a hover tooltip hides it.
    @Test func aPressOnATooltipOverAnotherWindowHidesIt() throws {
        let view = View()
        view.preferredSize = Size(width: 120, height: 30)
        view.toolTip = "This tooltip hangs below the window, over the root window."
        let window = Window(
            title: "Small", size: Size(width: 140, height: 40), content: VStack(padding: 5) { view },
            application: display.app)
        display.show(window)
        display.movePointer(to: view)
        #expect(display.run(until: { self.display.app.toolTips.isShowing }))
        let tip = try #require(display.app.toolTips.shownFrame)
        #expect(tip.maxY > 52, "most of it lies below the 40 px window")
        probe.movePointer(to: Int(tip.midX), Int(tip.minY) + 2)
        probe.movePointer(to: Int(tip.midX), Int(tip.maxY) - 6)
        #expect(display.holds(for: .milliseconds(40)) { self.display.app.toolTips.isShowing })
        probe.click()
        #expect(display.run(until: { self.probe.mappedPopups().isEmpty }))
        #expect(display.app.protocolErrorCount == 0)
    }

    // MARK: - Interactive click tooltips

    func copyScene(_ copies: @escaping () -> Void) -> (ImageView, Button, Window) {
        var copyButton: Button?
        let icon = ImageView(.asset("house"), size: Size(width: 44, height: 44), tint: .label)
        icon.addInteraction(
            ToolTipInteraction(trigger: .click, placement: .bottom) {
                let copy = Button(title: "Copy", style: .plain, action: copies)
                copyButton = copy
                return HStack(spacing: 8) {
                    Label("12 Main Street"); copy
                }
            })
        let other = Button(title: "Other")
        let window = Window(
            title: "Copy", size: Size(width: 360, height: 220),
            content: VStack(spacing: 20, padding: 20) {
                icon; other
            }, application: display.app)
        display.show(window)
        display.click(icon)
        display.run(until: { self.display.app.toolTips.isShowing && copyButton?.window != nil })
        return (icon, copyButton ?? Button(title: "none"), window)
    }

    @Test func aButtonInAClickTooltipWorksAndAPressThereKeepsTheTooltip() throws {
        var copies = 0
        let (_, copy, _) = copyScene { copies += 1 }
        #expect(display.app.toolTips.shownText == "12 Main Street", "the name leaves out the button")
        let tipID = try #require(display.app.toolTips.windowID).rawValue
        display.movePointer(to: copy)
        #expect(display.run(until: { copy.isHovered }), "the button in the tooltip hears the pointer")
        probe.button(1, down: true)
        #expect(display.run(until: { copy.isPressed }))
        probe.button(1, down: false)
        #expect(display.run(until: { copies == 1 }), "its action runs")
        #expect(
            display.holds(for: .milliseconds(50)) { self.probe.mappedPopups().map(\.id) == [tipID] },
            "and the tooltip stays")
    }

    @Test func tabFromTheSourceEntersTheTooltipAndEscapeComesBack() throws {
        var copies = 0
        let (icon, copy, window) = copyScene { copies += 1 }
        probe.movePointer(to: 350, 210)  // keys go to the window under the pointer
        display.settle()
        window.focus(icon, byKeyboard: true)
        probe.key(0xff09)  // Tab: into the tooltip
        #expect(display.run(until: { copy.isFocused }))
        #expect(window.focusedView === icon, "focus in the window stays on the source")
        #expect(!icon.showsFocusRing && copy.showsFocusRing, "one ring, on the button in the tooltip")
        probe.key(0x20)  // Space: the button's action
        #expect(display.run(until: { copies == 1 }))
        #expect(display.app.toolTips.isShowing)
        probe.key(0xff1b)  // Escape: the tooltip closes, focus is back on the source with its ring
        #expect(display.run(until: { !self.display.app.toolTips.isShowing }))
        #expect(display.run(until: { icon.showsFocusRing }))
        #expect(!copy.isFocused)
        #expect(copies == 1)
    }

    // MARK: - Disabled buttons and focus

    @Test func aDisabledButtonIsDimmedInertSkippedByTabAndKeepsItsTooltip() throws {
        var clicks = 0
        let first = Button(title: "First")
        let checkout = Button(title: "Check Out") { clicks += 1 }
        checkout.toolTip = "Add an item to your cart to check out."
        let last = Button(title: "Last")
        let window = Window(
            title: "Disabled", size: Size(width: 360, height: 120),
            content: HStack(spacing: 12, padding: 20) {
                first; checkout; last
            }, application: display.app)
        display.show(window)
        let frame = try #require(checkout.frameOnScreen)
        let (bx, by) = (Int(frame.minX) + 8, Int(frame.midY))
        let enabledPixel = probe.pixel(bx, by)
        checkout.isEnabled = false
        #expect(display.run(until: { self.probe.pixel(bx, by) != enabledPixel }), "dimmed")
        let disabledPixel = probe.pixel(bx, by)
        // Lighter: each channel closer to the window's background.
        #expect(
            (disabledPixel & 0xff) > (enabledPixel & 0xff) || (disabledPixel >> 16 & 0xff) > (enabledPixel >> 16 & 0xff)
        )
        // No hover look, no pressed look, no action; the tooltip still shows.
        display.movePointer(to: checkout)
        #expect(display.holds(for: .milliseconds(30)) { self.probe.pixel(bx, by) == disabledPixel })
        #expect(display.run(until: { self.display.app.toolTips.shownText == "Add an item to your cart to check out." }))
        probe.button(1, down: true)
        display.settle()
        #expect(
            display.holds(for: .milliseconds(30)) { !checkout.isPressed && self.probe.pixel(bx, by) == disabledPixel })
        probe.button(1, down: false)
        display.settle()
        #expect(clicks == 0)
        #expect(window.focusedView === first, "a click does not focus it either (the window opened on the first)")
        // Tab goes from the first button to the last.
        probe.movePointer(to: 355, 115)
        display.settle()
        probe.key(0xff09)
        #expect(display.run(until: { window.focusedView === last }))
        // Enabled again: it clicks.
        checkout.isEnabled = true
        display.click(checkout)
        #expect(display.run(until: { clicks == 1 }))
    }

    @Test func aDisabledTextViewTakesNoSelectionAndNoFocus() throws {
        let text = TextView("Nothing here can be selected")
        text.preferredWidth = 300
        text.isEnabled = false
        let button = Button(title: "Next")
        let window = Window(
            title: "Text", size: Size(width: 340, height: 160),
            content: VStack(spacing: 10, padding: 10) {
                text; button
            },
            application: display.app)
        display.show(window)
        let frame = try #require(text.frameOnScreen)
        probe.movePointer(to: Int(frame.minX) + 9, Int(frame.minY) + 16)
        display.settle()
        probe.button(1, down: true)
        probe.movePointer(to: Int(frame.maxX) - 10, Int(frame.minY) + 16)
        display.settle()
        probe.button(1, down: false)
        display.settle()
        #expect(text.selectedText.isEmpty && window.focusedView !== text)
        probe.key(0xff09)
        #expect(display.run(until: { window.focusedView === button }), "Tab skips the disabled text view")
        // Enabled, the same drag selects.
        text.isEnabled = true
        probe.movePointer(to: Int(frame.minX) + 9, Int(frame.minY) + 16)
        display.settle()
        probe.button(1, down: true)
        probe.movePointer(to: Int(frame.maxX) - 10, Int(frame.minY) + 16)
        display.settle()
        probe.button(1, down: false)
        #expect(display.run(until: { !text.selectedText.isEmpty }))
    }

    @Test func viewsWithClickTooltipsTakeFocusByTabWithARing() throws {
        let icon = ImageView(.asset("house"), size: Size(width: 44, height: 44), tint: .label)
        icon.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "Home"))
        let label = Label("툴팁 도움말")
        label.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "도움말"))
        let plain = Label("No tooltip")
        let window = Window(
            title: "Focus", size: Size(width: 360, height: 140),
            content: HStack(spacing: 24, padding: 30) {
                icon; plain; label
            }, application: display.app)
        display.show(window)
        let frame = try #require(icon.frameOnScreen)
        let outside = (Int(frame.minX) - 4, Int(frame.midY))
        // The window opened with the icon focused, without a ring.
        #expect(window.focusedView === icon)
        #expect(probe.pixel(outside.0, outside.1) == 0xf2f2f7)
        probe.movePointer(to: 355, 135)
        display.settle()
        probe.key(0xff09)
        #expect(display.run(until: { window.focusedView === label }), "the plain label is skipped")
        probe.key(0xff09, shift: true)
        #expect(display.run(until: { window.focusedView === icon }))
        #expect(display.run(until: { self.probe.pixel(outside.0, outside.1) != 0xf2f2f7 }), "a ring around the icon")
        probe.key(0xff09)
        #expect(display.run(until: { window.focusedView === label }))
        #expect(display.run(until: { self.probe.pixel(outside.0, outside.1) == 0xf2f2f7 }), "the icon's ring is gone")
        // A click on the icon focuses it without a ring.
        display.click(icon)
        #expect(window.focusedView === icon && !window.isFocusVisible)
    }
}
