import X11UI

/// The UIKit tooltip sample, on X11: static tooltips, a delegate per view for dynamic text and
/// sub-regions, a shopping cart whose tooltip counts, and selectable text.
@MainActor
final class SampleScene {
    let view: View
    private let shop = Shop()
    private let colorDelegate = ColorToolTips()
    private let regionDelegate = RegionToolTips()
    private let textDelegate = SelectionToolTips()
    private let cartTip = ToolTipInteraction()

    init() {
        let defaultView = View()
        defaultView.identifier = "default-view"
        defaultView.backgroundColor = Color(rgb: 0x34c759)
        defaultView.cornerRadius = 8
        defaultView.preferredSize = Size(width: 300, height: 44)
        defaultView.toolTip = "The default tooltip for the view."

        let label = Label("A label with a tooltip of its own. Rest the pointer here to read it.")
        label.identifier = "label"
        label.toolTip = "The label's tooltip."

        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        buy.identifier = "buy-button"
        buy.toolTip =
            "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."

        let colorView = View()
        colorView.identifier = "color-view"
        colorView.backgroundColor = Color(rgb: 0xffcc00)
        colorView.cornerRadius = 8
        colorView.preferredSize = Size(width: 300, height: 44)
        let colorTip = ToolTipInteraction()
        colorTip.delegate = colorDelegate
        colorView.addInteraction(colorTip)

        let cart = Button(title: "Add to Cart", image: .asset("cart"), style: .plain)
        cart.identifier = "cart-button"
        let cartTip = self.cartTip
        cartTip.delegate = shop
        cart.addInteraction(cartTip)
        // Disabled while the cart is empty; its tooltip says why, and once enabled what it buys.
        // Ctrl+Return checks out from anywhere in the window, as it sends a message elsewhere.
        let checkout = Button(title: "Check Out", keyboardShortcut: KeyboardShortcut(.return))
        checkout.identifier = "checkout-button"
        shop.onChange = { [shop] in
            checkout.isEnabled = shop.itemCount > 0
            checkout.toolTip = shop.checkoutToolTip
            cartTip.setNeedsUpdate()
        }
        shop.onChange?()
        cart.action = { [shop] in shop.itemCount += 1 }
        checkout.action = { [shop] in shop.itemCount = 0 }

        let region = RegionView()
        region.identifier = "region-view"
        region.preferredSize = Size(width: 300, height: 96)
        let regionTip = ToolTipInteraction()
        regionTip.delegate = regionDelegate
        region.addInteraction(regionTip)

        let text = TextView(
            "Select some of this text with the mouse, then rest the pointer on the selection: its tooltip quotes it. Double-click selects a word."
        )
        text.identifier = "text-view"
        let textTip = ToolTipInteraction()
        textTip.delegate = textDelegate
        text.addInteraction(textTip)
        text.onSelectionChange = { _ in textTip.setNeedsUpdate() }

        let title = Label("Sample", font: .title)
        view = VStack(spacing: 12, alignment: .fill) {
            title
            defaultView
            label
            HStack(spacing: 12) {
                buy; cart; Spacer()
            }
            HStack {
                checkout; Spacer()
            }
            colorView
            region
            text
        }
        view.preferredWidth = 340
    }
}

extension SampleScene {
    /// Fills the cart from a simulated network stream: another thread yields one item every
    /// `interval`, `count` times; a task on the main actor adds each to the cart, and the cart's
    /// tooltip, when it shows, updates in place (`tooltip-demo --stream-cart`).
    func streamCart(every interval: Duration, count: Int) {
        let (items, continuation) = AsyncStream.makeStream(of: Int.self)
        Task.detached {
            for _ in 0..<count {
                try await Task.sleep(for: interval)
                continuation.yield(1)
            }
            continuation.finish()
        }
        Task { [shop, cartTip] in
            for await added in items {
                shop.itemCount += added
                cartTip.setNeedsUpdate()
            }
        }
    }
}

/// The cart behind the cart button's tooltip.
@MainActor
final class Shop: ToolTipInteractionDelegate {
    var itemCount = 0 {
        didSet { onChange?() }
    }
    /// Called when the count changes (the checkout button and the tooltips follow it).
    var onChange: (() -> Void)?

    /// What the checkout button's tooltip says: why it is disabled, or what it buys.
    var checkoutToolTip: String {
        switch itemCount {
        case 0: return "Add an item to your cart to check out."
        case 1: return "Check out 1 item for $9.99."
        default:
            let cents = itemCount * 999
            return "Check out \(itemCount) items for $\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)."
        }
    }

    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        let contents: String
        switch itemCount {
        case 0: contents = "Your cart is empty."
        case 1: contents = "Your cart contains 1 item."
        default: contents = "Your cart contains \(itemCount) items."
        }
        return ToolTipConfiguration(toolTip: "Add this item to your cart. " + contents)
    }
}

/// Names the colour of the view it is asked about.
@MainActor
final class ColorToolTips: ToolTipInteractionDelegate {
    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        guard let color = interaction.view?.backgroundColor else { return nil }
        let names: [(Color, String)] = [
            (Color(rgb: 0xffcc00), "yellow"), (Color(rgb: 0x34c759), "green"), (Color(rgb: 0xff3b30), "red"),
        ]
        let name = names.first { $0.0 == color }?.1 ?? "unnamed"
        return ToolTipConfiguration(toolTip: "The color is \(name).")
    }
}

/// A view drawn in three bands; only the top and bottom ones have tooltips.
@MainActor
final class RegionView: View {
    override func draw(in context: DrawContext) {
        let third = bounds.height / 3
        let colors = [Color(rgb: 0x5ac8fa), Color(rgb: 0xe5e5ea), Color(rgb: 0xaf52de)]
        for (index, color) in colors.enumerated() {
            context.fill(
                Rect(x: 0, y: Double(index) * third, width: bounds.width, height: third), color: color)
        }
    }
}

@MainActor
final class RegionToolTips: ToolTipInteractionDelegate {
    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        guard let bounds = interaction.view?.bounds else { return nil }
        let third = bounds.height / 3
        let top = Rect(x: 0, y: 0, width: bounds.width, height: third)
        let bottom = Rect(x: 0, y: bounds.height - third, width: bounds.width, height: third)
        if top.contains(point) { return ToolTipConfiguration(toolTip: "Top area of the view.", in: top) }
        if bottom.contains(point) { return ToolTipConfiguration(toolTip: "Bottom area of the view.", in: bottom) }
        return nil
    }
}

/// Quotes the selection when the pointer rests on it.
@MainActor
final class SelectionToolTips: ToolTipInteractionDelegate {
    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        guard let text = interaction.view as? TextView, !text.selectedText.isEmpty else { return nil }
        guard let rect = text.selectionRects.first(where: { $0.contains(point) }) else { return nil }
        return ToolTipConfiguration(toolTip: "Selected text: \(text.selectedText)", in: rect)
    }
}
