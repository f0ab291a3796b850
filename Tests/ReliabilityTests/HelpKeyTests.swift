import Testing
import X11TestSupport

@_spi(Testing) import X11UI

/// Ctrl+F1, as in GTK: the focused view's tooltip at once (after Escape hid it, or for a view
/// focused by a click, which shows none by itself), and hidden again by the same key.
@Suite(.serialized)
@MainActor
final class HelpKeyTests {
    let harness: Harness
    let save = Button(title: "Save")
    let open = Button(title: "Open")
    let plain = Button(title: "No tooltip")

    static let f1: UInt = 0xffbe
    static let escape: UInt = 0xff1b

    init() throws {
        harness = try Harness()
        save.toolTip = "Saves the document"
        open.toolTip = "Opens a document"
        harness.show(
            HStack(spacing: 20, padding: 40) {
                save
                open
                plain
            })
    }

    var toolTips: ToolTipController { harness.app.toolTips }

    @Test func ctrlF1BringsBackTheFocusedViewsTooltipAfterEscapeAndHidesItAgain() throws {
        let window = try #require(harness.window)
        window.focus(save, byKeyboard: true)
        harness.wait(40)
        #expect(toolTips.shownText == "Saves the document")
        harness.key(Self.escape)
        harness.settle()
        #expect(!toolTips.isShowing)

        harness.key(Self.f1, control: true)
        harness.settle()
        #expect(toolTips.shownText == "Saves the document", "at once, with no delay")
        let frame = try #require(harness.toolTipFrame)
        let source = try #require(save.frameOnScreen)
        #expect(Double(frame.y) >= source.maxY, "placed at the view, below it: \(frame)")

        harness.key(Self.f1, control: true)
        harness.settle()
        #expect(!toolTips.isShowing)
        harness.wait(200)
        #expect(!toolTips.isShowing, "hidden, it stays hidden")
    }

    @Test func ctrlF1ShowsTheTooltipOfAViewFocusedByAClick() throws {
        let window = try #require(harness.window)
        window.focus(open, byKeyboard: false)
        harness.wait(200)
        #expect(!toolTips.isShowing, "a click's focus shows nothing by itself")
        harness.key(Self.f1, control: true)
        harness.settle()
        #expect(toolTips.shownText == "Opens a document")
    }

    @Test func f1AloneAndCtrlF1WithoutATooltipDoNothing() throws {
        let window = try #require(harness.window)
        window.focus(save, byKeyboard: false)
        harness.key(Self.f1)
        harness.wait(200)
        #expect(!toolTips.isShowing, "F1 without Ctrl")
        window.focus(plain, byKeyboard: false)
        harness.key(Self.f1, control: true)
        harness.wait(200)
        #expect(!toolTips.isShowing)
    }
}
