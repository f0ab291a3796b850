import X11UI

/// Seeds 001 and 002: a button per edge × alignment with its tooltip there and the arrow on the
/// matching side, tooltips of icon-and-title items, a Korean tooltip, and buttons at the
/// window's edges whose tooltips flip or shift to stay on the screen.
@MainActor
final class PlacementsScene {
    let view: View

    init() {
        func button(_ title: String, id: String, placement: ToolTipPlacement, text: String) -> Button {
            let button = Button(title: title, style: .plain)
            button.identifier = id
            button.addInteraction(ToolTipInteraction(trigger: .click, placement: placement, defaultToolTip: text))
            return button
        }
        let edges: [(ToolTipPlacement.Edge, String)] = [
            (.top, "top"), (.bottom, "bottom"), (.leading, "leading"), (.trailing, "trailing"),
        ]
        let alignments: [(ToolTipPlacement.Alignment, String)] = [
            (.start, "start"), (.center, "center"), (.end, "end"),
        ]
        let grid = VStack(spacing: 14, alignment: .start) {
            for (edge, edgeName) in edges {
                HStack(spacing: 14) {
                    for (alignment, alignmentName) in alignments {
                        button(
                            "\(edgeName) · \(alignmentName)", id: "place-\(edgeName)-\(alignmentName)",
                            placement: ToolTipPlacement(edge: edge, alignment: alignment),
                            text: "\(edgeName.capitalizedFirst), \(alignmentName)")
                    }
                }
            }
        }

        let heart = Image.asset("heart")
        let chat = Image.asset("chat")
        let items = Button(title: "Items", style: .plain)
        items.identifier = "items-button"
        items.addInteraction(
            ToolTipInteraction(
                trigger: .click, placement: .bottom,
                items: [ToolTipItem(icon: heart, title: "6"), ToolTipItem(icon: chat, title: "31")]))
        let liked = Button(title: "Likes", style: .plain)
        liked.identifier = "items-likes"
        liked.addInteraction(
            ToolTipInteraction(trigger: .click, placement: .trailing, items: [ToolTipItem(icon: heart, title: "31")]))
        // Its click tooltip is interactive: a Copy button puts the Korean text on the clipboard
        // for those who cannot type it. (The button is no part of the tooltip's name.)
        let korean = Label("툴팁 도움말", font: Font(size: 15, weight: .semibold))
        korean.identifier = "korean-label"
        korean.addInteraction(
            ToolTipInteraction(trigger: .click, placement: .bottom) {
                let text = "툴팁 도움말: 여기를 누르세요"
                let copy = Button(title: "Copy", style: .plain) { Application.current?.copyToClipboard(text) }
                copy.identifier = "korean-copy"
                copy.tint = .toolTipLabel
                return HStack(spacing: 8) {
                    Label(text); copy
                }
            })
        // Right-to-left text: Hebrew with a number and brackets, and joined Arabic.
        let rightToLeft = Label("עברית · عربي", font: Font(size: 15, weight: .semibold))
        rightToLeft.identifier = "rtl-label"
        rightToLeft.addInteraction(
            ToolTipInteraction(
                trigger: .click, placement: .bottom,
                defaultToolTip: "עזרה: לחצו כאן (F1) לפתיחת 2 חלונות\nمساعدة: انقر هنا"))
        // Shaped text in the tooltip: Devanagari (conjuncts, vowel signs before their consonant)
        // and emoji sequences, each cluster one glyph. The label itself is plain, so HarfBuzz and
        // the fonts it shapes with are loaded when the tooltip first shows, not at startup.
        let shaped = Label("Hindi · emoji", font: Font(size: 15, weight: .semibold))
        shaped.identifier = "shaped-label"
        shaped.addInteraction(
            ToolTipInteraction(
                trigger: .click, placement: .bottom, defaultToolTip: "नमस्ते — क्षमा कीजिए\n👨‍👩‍👧 🇰🇷 ❤️ 1️⃣"))

        // At the window's edges, where the preferred side has no room.
        let flipTop = button("Flip ↓", id: "flip-top", placement: .top, text: "No room above: shown below")
        let shift = button(
            "Shift", id: "shift-end", placement: .bottom,
            text: "Centred would run off the screen, so this tooltip shifts left; its arrow stays on the button")
        let flipBottom = button("Flip ↑", id: "flip-bottom", placement: .bottom, text: "No room below: shown above")
        let flipTrailing = button(
            "Flip ←", id: "flip-trailing", placement: .trailing, text: "No room on the right: shown on the left")

        view = VStack(spacing: 18, alignment: .fill) {
            HStack(spacing: 12) {
                Label("Placements", font: .title); Spacer(); flipTop; shift
            }
            grid
            HStack(spacing: 14) {
                items; liked; korean; rightToLeft; shaped; Spacer()
            }
            Spacer()
            HStack(spacing: 12) {
                flipBottom; Spacer(); flipTrailing
            }
        }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
