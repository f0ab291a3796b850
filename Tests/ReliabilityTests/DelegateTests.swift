import Foundation
import Testing
import X11TestSupport
import X11UI

/// A delegate that answers whatever the test says.
@MainActor
final class ScriptedDelegate: ToolTipInteractionDelegate {
    var answer: (ToolTipInteraction, Point) -> ToolTipConfiguration?
    var calls = 0

    init(_ answer: @escaping (ToolTipInteraction, Point) -> ToolTipConfiguration?) {
        self.answer = answer
    }

    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        calls += 1
        return answer(interaction, point)
    }
}

/// Any answer from a delegate is survived: nil, rectangles outside the view, empty, negative, NaN and huge, an
/// answer that changes on every call, a delegate that removes the view while answering.
@Suite(.serialized)
@MainActor
final class DelegateTests {
    let harness: Harness
    let source = block(120, 60)
    let interaction = ToolTipInteraction()

    init() throws {
        harness = try Harness()
        source.addInteraction(interaction)
        harness.show(VStack(padding: 40) { source })
    }

    /// Hovers the source's middle and waits past the delay; returns whether a tooltip shows.
    func hoverShows() -> Bool {
        harness.move(to: Point(x: 5, y: 5))
        harness.wait(60)
        harness.move(to: harness.center(of: source))
        harness.wait(120)
        return harness.app.toolTips.isShowing
    }

    @Test func nilMeansNoTooltip() {
        let delegate = ScriptedDelegate { _, _ in nil }
        interaction.delegate = delegate
        #expect(!hoverShows())
        #expect(delegate.calls > 0)
    }

    @Test(arguments: [
        Rect(x: 500, y: 500, width: 10, height: 10),  // outside the view
        Rect(x: 10, y: 10, width: 0, height: 0),  // empty
        Rect(x: 10, y: 10, width: -50, height: -20),  // negative
        Rect(x: .nan, y: 0, width: 10, height: 10),  // not a number
        Rect(x: 0, y: 0, width: .infinity, height: 10),  // infinite
    ])
    func aRectangleThatIsNotInTheViewGivesNoTooltip(rect: Rect) {
        let delegate = ScriptedDelegate { _, _ in ToolTipConfiguration(toolTip: "Bad rect", in: rect) }
        interaction.delegate = delegate
        #expect(!hoverShows())
    }

    @Test func aHugeRectangleIsClampedToTheView() throws {
        let delegate = ScriptedDelegate { _, _ in
            ToolTipConfiguration(toolTip: "Huge", in: Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9))
        }
        interaction.delegate = delegate
        #expect(hoverShows())
        let tip = try #require(harness.toolTipFrame)
        let view = try #require(source.frameOnScreen)
        #expect(Double(tip.y) >= view.maxY, "placed at the view, below it")
    }

    @Test func anAnswerThatChangesOnEveryCallShowsTheLatestAndNeverCrashes() {
        var counter = 0
        let delegate = ScriptedDelegate { _, point in
            counter += 1
            let third = Double(counter % 3) * 20
            return ToolTipConfiguration(toolTip: "Answer \(counter)", in: Rect(x: third, y: 0, width: 40, height: 60))
        }
        interaction.delegate = delegate
        for step in 0..<200 {
            harness.move(to: Point(x: 40 + Double(step % 120), y: 40 + Double(step % 60)))
            if step % 10 == 0 { harness.wait(3) }
        }
        harness.wait(120)
        if harness.app.toolTips.isShowing {
            #expect(harness.app.toolTips.shownText?.hasPrefix("Answer ") == true)
        }
    }

    @Test func aDelegateThatRemovesTheViewWhileAnsweringLeavesNoTooltipAndNoTimer() {
        weak var weakSource: View?
        let delegate = ScriptedDelegate { interaction, _ in
            weakSource = interaction.view
            interaction.view?.removeFromSuperview()
            return ToolTipConfiguration(toolTip: "Gone")
        }
        interaction.delegate = delegate
        #expect(!hoverShows())
        harness.wait(100)
        #expect(!harness.app.toolTips.isShowing)
        #expect(harness.pendingTimerCount == 0)
        #expect(weakSource === source)
        #expect(source.superview == nil)
    }

    @Test func aDelegateHeldWeaklyCanGoAway() {
        do {
            let delegate = ScriptedDelegate { _, _ in ToolTipConfiguration(toolTip: "Temporary") }
            interaction.delegate = delegate
        }
        #expect(interaction.delegate == nil)
        interaction.defaultToolTip = "Default"
        #expect(hoverShows())
        #expect(harness.app.toolTips.shownText == "Default")
    }
}
