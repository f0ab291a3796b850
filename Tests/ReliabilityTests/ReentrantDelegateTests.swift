import Foundation
import Testing
import X11TestSupport
@_spi(Testing) import X11UI

/// Issue 13: delegates that act while answering (an update, closing the application or the
/// window), the delegate asked once per show, and `present()` before the first layout.
@Suite(.serialized)
@MainActor
final class ReentrantDelegateTests {
    let harness: Harness
    let source = block(120, 60)
    let interaction = ToolTipInteraction()

    init() throws {
        harness = try Harness()
        source.addInteraction(interaction)
        harness.show(VStack(padding: 40) { source })
    }

    /// Rests on the source until its tooltip shows (or the timeout passes).
    @discardableResult
    func hover() -> Bool {
        harness.move(to: Point(x: 5, y: 5))
        harness.move(to: harness.center(of: source))
        return harness.run(until: { self.harness.app.toolTips.isShowing })
    }

    /// 13.1: `setNeedsUpdate()` inside every answer used to loop forever; now the update asked
    /// for while answering is served once, after.
    @Test func anUpdateAskedForInsideTheAnswerIsServedOnce() {
        var version = 0
        var reentries = 0
        let delegate = ScriptedDelegate { [unowned self] interaction, _ in
            // Bounded so that a looping driver ends (and fails) instead of hanging the suite.
            if reentries < 1000 {
                reentries += 1
                interaction.setNeedsUpdate()
            }
            version += 1
            _ = self
            return ToolTipConfiguration(toolTip: "version \(version)")
        }
        interaction.delegate = delegate
        #expect(hover())
        let before = delegate.calls
        interaction.setNeedsUpdate()
        harness.app.processPending()
        // The update, then the one it asked for while answering.
        #expect(delegate.calls - before == 2)
        #expect(harness.app.toolTips.shownText == "version \(version)")
        #expect(harness.app.toolTips.isShowing)
    }

    /// 13.11: a hover show asks the delegate once (the answer given when the pointer entered
    /// the view is the one shown).
    @Test func aHoverShowAsksTheDelegateOnce() {
        var answers = 0
        let delegate = ScriptedDelegate { _, _ in
            answers += 1
            return ToolTipConfiguration(toolTip: "answer \(answers)")
        }
        interaction.delegate = delegate
        harness.move(to: Point(x: 5, y: 5))
        harness.app.processPending()
        let before = delegate.calls
        harness.move(to: harness.center(of: source))
        #expect(harness.run(until: { self.harness.app.toolTips.isShowing }))
        #expect(delegate.calls - before == 1)
        let first = harness.app.toolTips.shownText
        // A click may change the answer: the next show uses one asked after it.
        harness.click(at: harness.center(of: source))
        #expect(!harness.app.toolTips.isShowing)
        let atClick = answers
        harness.move(to: harness.center(of: source).offsetBy(dx: 1, dy: 0))
        #expect(harness.run(until: { self.harness.app.toolTips.isShowing }))
        #expect(harness.app.toolTips.shownText == "answer \(atClick)")
        #expect(harness.app.toolTips.shownText != first)
    }

    /// 13.8: closing the window from inside the answer: the tooltip window is never made, let
    /// alone mapped.
    @Test func closingTheWindowInsideTheAnswerShowsNothing() throws {
        let window = try #require(harness.window)
        let delegate = ScriptedDelegate { _, _ in
            window.close()
            return ToolTipConfiguration(toolTip: "closed")
        }
        interaction.delegate = delegate
        interaction.present()
        harness.app.processPending()
        #expect(delegate.calls == 1)
        #expect(!harness.app.toolTips.isShowing)
        #expect(harness.app.toolTips.shownSource == nil)
        #expect(harness.app.toolTips.windowID == nil)
    }

    /// 13.8: closing the application from inside the answer leaves no shown tooltip behind.
    @Test func closingTheApplicationInsideTheAnswerShowsNothing() {
        let app = harness.app
        let delegate = ScriptedDelegate { _, _ in
            app.close()
            return ToolTipConfiguration(toolTip: "closed")
        }
        interaction.delegate = delegate
        interaction.present()
        #expect(delegate.calls == 1)
        #expect(!app.toolTips.isShowing)
        #expect(app.toolTips.shownSource == nil)
        #expect(app.toolTips.shownText == nil)
    }

    /// 13.8: `present()` right after `addSubview`, before the window laid out, places the
    /// tooltip at the view where layout puts it, not at the window's corner.
    @Test func presentBeforeLayoutPlacesTheToolTipAtTheLaidOutView() throws {
        harness.app.processPending()
        let window = try #require(harness.window)
        let added = block(100, 40)
        let tip = ToolTipInteraction(defaultToolTip: "added")
        added.addInteraction(tip)
        (window.content as? VStack)?.addSubview(added)
        tip.present()
        #expect(harness.app.toolTips.isShowing)
        let view = try #require(added.frameOnScreen)
        let frame = try #require(harness.app.toolTips.shownFrame)
        #expect(view.minY >= 100)  // below the first block: laid out
        #expect(frame.minY >= view.maxY || frame.maxY <= view.minY)
        #expect(frame.maxX > view.minX && frame.minX < view.maxX)
        let server = try #require(harness.run(until: { self.harness.toolTipFrame != nil }) ? harness.toolTipFrame : nil)
        #expect(Double(server.y) == frame.minY)
    }
}
