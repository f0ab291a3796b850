import CX11
import Foundation
import Testing
import X11TestSupport

/// The demo's keyboard shortcut, pressed from outside with XTest: Ctrl+Return checks out from
/// anywhere in the window (focus on the cart), and the Check Out button's tooltip shows
/// "Ctrl+Return" dimmed at the bubble's right edge, on the first line.
@Suite(.serialized)
final class DemoShortcutTests {
    let session: ProgramSession
    var probe: ServerProbe { session.probe }

    init() throws {
        session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "checkout-button")
    }

    /// Ctrl+Return on the focused cart (whose own key is Space) checks out: the cart empties,
    /// and the cart's focus tooltip says so in place.
    @Test func controlReturnChecksOutWhileTheCartHasFocus() throws {
        let cart = try session.frame("cart-button")
        let checkout = try session.frame("checkout-button")
        probe.movePointer(to: cart.maxX + 30, cart.midY)
        probe.key(0xff09)  // the cart (the window opened on the buy button)
        #expect(session.waitForToolTip(named: "Add this item to your cart. Your cart is empty.") != nil)
        probe.key(0x20)
        probe.key(0x20)
        #expect(session.waitForToolTip(named: "Add this item to your cart. Your cart contains 2 items.") != nil)
        probe.key(0xff0d, control: true)
        #expect(session.waitForToolTip(named: "Add this item to your cart. Your cart is empty.") != nil)
        #expect(probe.mappedPopups().count == 1)
        // Checked out, Check Out is disabled again (its fill dimmed, its tooltip says why).
        probe.key(0xff1b)
        #expect(session.waitForNoToolTip())
        #expect(wait(timeout: 2) { DemoEventTests.bodyPixel(self.probe, checkout) != DemoEventTests.accent })
        probe.movePointer(to: checkout.midX, checkout.midY)
        #expect(session.waitForToolTip(named: "Add an item to your cart to check out. (Ctrl+Return)") != nil)
    }

    /// The tooltip: the text in the tooltip's colour, "Ctrl+Return" in the dimmer secondary
    /// colour at the right edge of the bubble, level with the first line only.
    @Test func theCheckoutTooltipShowsItsShortcutDimmedAtTheRightEdge() throws {
        let checkout = try session.frame("checkout-button")
        probe.movePointer(to: checkout.midX, checkout.midY)
        let tip = try #require(session.waitForToolTip(named: "Add an item to your cart to check out. (Ctrl+Return)"))
        let (width, height) = (tip.frame.width, tip.frame.height)
        let pixels = probe.windowPixels(tip.id, width: width, height: height)
        try #require(pixels.count == width * height)
        let background: UInt32 = 0x2c2c2e
        func isInk(_ pixel: UInt32) -> Bool { pixel & 0xffffff != background && (pixel >> 16) & 0xff > 0x60 }
        // Columns with ink, from the right: the shortcut's, then a gap, then the text's.
        let inkColumns = (0..<width).filter { x in (0..<height).contains { isInk(pixels[$0 * width + x]) } }
        let right = try #require(inkColumns.last)
        #expect(right >= width - 8 - 2 - 1, "the shortcut ends at the padding: \(right) of \(width)")
        // The widest gap between inked columns: between the text and the shortcut (24 px),
        // wider than any between words.
        let gaps = zip(inkColumns, inkColumns.dropFirst()).map { (start: $0, width: $1 - $0) }
        let widest = try #require(gaps.max { $0.width < $1.width })
        #expect(widest.width >= 20, "a gap before the shortcut: \(widest)")
        let shortcut = inkColumns.filter { $0 > widest.start }
        let text = inkColumns.filter { $0 <= widest.start }
        #expect(!shortcut.isEmpty && !text.isEmpty, "\(inkColumns)")
        func brightest(in columns: [Int]) -> (value: UInt32, rows: ClosedRange<Int>) {
            var value: UInt32 = 0
            var rows: [Int] = []
            for x in columns {
                for y in 0..<height where isInk(pixels[y * width + x]) {
                    value = max(value, (pixels[y * width + x] >> 16) & 0xff)
                    rows.append(y)
                }
            }
            return (value, (rows.min() ?? 0)...(rows.max() ?? 0))
        }
        let shortcutInk = brightest(in: shortcut)
        let textInk = brightest(in: text)
        #expect(abs(Int(shortcutInk.value) - 0xae) <= 8, "the secondary colour, #aeaeb2: \(shortcutInk.value)")
        #expect(textInk.value >= 0xf0, "the text's colour, #f5f5f7: \(textInk.value)")
        // On the first line: the shortcut's ink starts where the text's does and ends well
        // before the text's last line.
        #expect(abs(shortcutInk.rows.lowerBound - textInk.rows.lowerBound) <= 3, "\(shortcutInk.rows) \(textInk.rows)")
        #expect(shortcutInk.rows.upperBound < textInk.rows.upperBound || textInk.rows.count < 20)
    }
}
