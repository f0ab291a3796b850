import Foundation
import Testing
import X11TestSupport
import X11UI

/// Any tooltip content is survived: rendered or safely truncated, in bounded time, within the maximum
/// size; never a crash or a hang.
@Suite(.serialized)
@MainActor
final class ContentTests {
    let harness: Harness
    let source = block(80, 30)
    let interaction = ToolTipInteraction()

    init() throws {
        harness = try Harness()
        source.addInteraction(interaction)
        harness.show(VStack(padding: 40) { source })
    }

    /// Presents `text` and returns the time it took and the tooltip's frame (nil: none shown).
    func present(_ text: String) -> (milliseconds: Double, frame: Frame?) {
        interaction.dismiss()
        harness.wait(5)
        interaction.defaultToolTip = text
        let start = Date()
        interaction.present()
        harness.app.sync()
        let elapsed = Date().timeIntervalSince(start) * 1000
        harness.wait(5)
        return (elapsed, harness.toolTipFrame)
    }

    /// The largest a tooltip window may be with the default style (no compositor: no shadow).
    let maxSize = (width: 360 + 16 + 1, height: 480 + 16 + 7 + 1)

    @Test(arguments: [
        ("plain", "Plain text"),
        (
            "invalid UTF-8",
            String(decoding: [0x41, 0xff, 0xfe, 0x42, 0xc3, 0x28, 0xe2, 0x82] as [UInt8], as: UTF8.self)
        ),
        ("NUL and controls", "a\u{0}b\u{1}c\u{7}d\u{1b}[31me\u{7f}f\u{85}g\tTabbed\r\nCRLF"),
        ("right to left", "שלום עולם — مرحبا بالعالم"),
        ("emoji", "Party 🎉 time 👩‍👩‍👧 and ❤️ flags 🇰🇷"),
        ("combining marks", "e\u{301}e\u{301}e\u{301} Z\u{351}\u{35b}\u{344}a\u{313}l\u{311}g\u{35d}o"),
        ("CJK", "日本語のテキスト 툴팁 도움말 中文字符"),
        ("one long word", String(repeating: "x", count: 5000)),
        ("zero-width", "\u{200b}\u{200d}\u{feff}visible\u{200b}"),
    ])
    func oddTextRendersWithinBounds(name: String, text: String) throws {
        let (milliseconds, frame) = present(text)
        let tip = try #require(frame, "\(name): no tooltip")
        #expect(tip.width <= maxSize.width && tip.height <= maxSize.height, "\(name): \(tip)")
        #expect(milliseconds < 200, "\(name): \(milliseconds) ms")
        #expect(harness.app.toolTips.shownText == text)
    }

    @Test func aMegabyteOfTextIsTruncatedQuickly() throws {
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 40_000)  // 1.08 MB
        let (milliseconds, frame) = present(text)
        let tip = try #require(frame)
        #expect(tip.width <= maxSize.width && tip.height <= maxSize.height)
        #expect(milliseconds < 500, "\(milliseconds) ms")
        // The window's name is bounded too.
        let name = try #require(harness.probe.string(harness.app.toolTips.windowID, "_NET_WM_NAME"))
        #expect(name.utf8.count <= 4096)
        #expect(text.hasPrefix(name))
    }

    @Test func tenThousandLinesAreTruncatedQuickly() throws {
        let text = (1...10_000).map { "Line \($0)" }.joined(separator: "\n")
        let (milliseconds, frame) = present(text)
        let tip = try #require(frame)
        #expect(tip.height <= maxSize.height)
        #expect(milliseconds < 500, "\(milliseconds) ms")
    }

    @Test(arguments: ["", " ", "   \n\t  ", "\u{200b}\u{feff}"])
    func emptyOrBlankTextShowsNoTooltip(text: String) {
        let (_, frame) = present(text)
        #expect(frame == nil)
        #expect(!harness.app.toolTips.isShowing)
    }

    @Test func aFontThatDoesNotExistFallsBackToOneThatDoes() throws {
        var style = ToolTipStyle.dark
        style.font = Font(family: "No Such Font Family 12345", size: 13)
        interaction.style = style
        let (_, frame) = present("Still readable")
        let tip = try #require(frame)
        #expect(tip.width > 60, "the text was measured with a real font")
    }
}
