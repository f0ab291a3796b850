import Testing
import X11TestSupport

@testable import X11UI

/// Rich tooltip content on a private Xvfb: laid out at its ideal size whatever the source's
/// size, in the tooltip's font and colour rather than the source's, inside the padded body with
/// the arrow beside it; the window the server maps has exactly that size.
@Suite(.serialized)
@MainActor
final class RichContentTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    static let style = ToolTipStyle(
        background: Color(rgb: 0x203040), foreground: Color(rgb: 0xfafafa), border: Color(rgb: 0x405060),
        font: Font(size: 15), padding: EdgeInsets(top: 6, left: 10, bottom: 6, right: 10))

    /// Attaches `interaction` (in the test style) to `source`, alone in a window with `padding`
    /// around it, presents the tooltip and returns its window as the server has it.
    func present(
        _ interaction: ToolTipInteraction, on source: View, padding: Double
    ) throws -> ServerProbe.WindowInfo {
        interaction.style = Self.style
        source.addInteraction(interaction)
        let window = Window(
            title: "Rich", size: Size(width: 300, height: 200), content: VStack(padding: padding) { source },
            application: display.app)
        display.show(window)
        interaction.present()
        #expect(display.run(until: { !self.probe.mappedPopups().isEmpty }))
        return try #require(probe.mappedPopups().first)
    }

    @Test func richContentKeepsItsIdealSizeAndTakesTheTooltipsFontAndColour() throws {
        // A tiny source in a big font: neither its size nor its font reaches the tooltip.
        let source = Label("A", font: Font(size: 30))
        let title = Label("Home, where the heart is")
        let caption = Label("(fixed font)", font: Font(size: 9), color: Color(rgb: 0xff0000))
        let interaction = ToolTipInteraction(trigger: .click, placement: .bottom) {
            HStack(spacing: 6) {
                Circle(color: Color(rgb: 0x34c759), diameter: 10)
                title
                caption
            }
        }
        let tip = try present(interaction, on: source, padding: 20)

        // Labels left at the defaults take the style's font and colour; set ones keep theirs.
        #expect(title.font == Font(size: 15))
        #expect(title.textColor == Color(rgb: 0xfafafa))
        #expect(caption.font == Font(size: 9))
        #expect(caption.textColor == Color(rgb: 0xff0000))

        // The content's ideal width: dot, title and caption side by side, nothing wrapped.
        let fonts = display.app.resources.fonts
        let titleWidth = fonts.fontSet(for: Font(size: 15)).width(of: "Home, where the heart is")
        let captionWidth = fonts.fontSet(for: Font(size: 9)).width(of: "(fixed font)")
        let contentWidth = (10 + 6 + titleWidth + 6 + captionWidth).rounded(.up)
        let contentHeight = fonts.fontSet(for: Font(size: 15)).lineHeight.rounded(.up)
        let sourceFrame = try #require(source.frameOnScreen)
        #expect(contentWidth > sourceFrame.width * 3, "the content is not squeezed to the source's width")
        #expect(abs(title.frame.width - titleWidth) < 1)
        #expect(abs(title.frame.height - contentHeight) < 1)

        // The window: the padded body, with the arrow's height above it (placed below).
        let arrowHeight = Self.style.arrowSize.height
        #expect(abs(Double(tip.frame.width) - (contentWidth + 20)) <= 1)
        #expect(abs(Double(tip.frame.height) - (contentHeight + 12 + arrowHeight)) <= 1)
        #expect(Double(tip.frame.y) >= sourceFrame.maxY)
        #expect(probe.string(tip.id, "_NET_WM_NAME") == "Home, where the heart is (fixed font)")
    }

    @Test func itemsContentIsARowOfIconsAndTitles() throws {
        let source = View()
        source.preferredSize = Size(width: 20, height: 20)
        let heart = try Image(assetNamed: "heart")
        let interaction = ToolTipInteraction(
            trigger: .click, placement: .top, items: [ToolTipItem(icon: heart, title: "6"), ToolTipItem(title: "31")])
        let tip = try present(interaction, on: source, padding: 80)
        let bold = display.app.resources.fonts.fontSet(for: Font(size: 15, weight: .semibold))
        // icon 16 + 4 + "6", then 12 between items, then "31"; padded by 10 on each side.
        let contentWidth = (16 + 4 + bold.width(of: "6") + 12 + bold.width(of: "31")).rounded(.up)
        #expect(abs(Double(tip.frame.width) - (contentWidth + 20)) <= 1)
        #expect(probe.string(tip.id, "_NET_WM_NAME") == "6 31")
        let sourceFrame = try #require(source.frameOnScreen)
        #expect(Double(tip.frame.y + tip.frame.height) <= sourceFrame.minY, "above the source")
    }
}
