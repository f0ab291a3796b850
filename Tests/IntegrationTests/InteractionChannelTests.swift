import Foundation
import Testing
import X11TestSupport
import X11UI

/// The interaction channel: what a custom interaction hears, in which order, next to the views'
/// own hooks and a tooltip on the same views (issue 14.2), in process on a private Xvfb with
/// real pointer and keys from XTest.
@Suite(.serialized)
@MainActor
final class InteractionChannelTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
        display.app.toolTips.timings = ToolTipTimings(
            initialDelay: .milliseconds(60), browseDelay: .milliseconds(20), browseTimeout: .milliseconds(60),
            hoverGrace: .milliseconds(40))
    }

    /// Writes what it hears into a shared log, under its name.
    final class Recorder: Interaction {
        let name: String
        let log: Log
        private(set) weak var view: View?
        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }
        func didMove(to view: View?) { self.view = view }
        func handle(_ event: InteractionEvent) {
            switch event {
            case .pointerEntered: log.lines.append("\(name) entered")
            case .pointerMoved(let point):
                log.lines.append("\(name) moved")
                log.lastPoint[name] = point
            case .pointerExited: log.lines.append("\(name) exited")
            case .buttonPressed(let button, let point):
                log.lines.append("\(name) pressed \(button)")
                log.lastPoint[name] = point
            case .buttonReleased(let button, _): log.lines.append("\(name) released \(button)")
            case .keyPressed(let key): log.lines.append("\(name) key \(key.key) \(key.text)")
            case .focusGained(let byKeyboard): log.lines.append("\(name) focus gained \(byKeyboard ? "key" : "click")")
            case .focusLost: log.lines.append("\(name) focus lost")
            case .windowDeactivated: log.lines.append("\(name) deactivated")
            }
        }
    }

    final class Log {
        var lines: [String] = []
        var lastPoint: [String: Point] = [:]
        func take() -> [String] {
            defer { lines.removeAll() }
            return lines
        }
    }

    /// A button that notes its own hooks in the log.
    final class HookButton: Button {
        var log: Log?
        override func buttonPressed(_ event: ViewButtonEvent) -> Bool {
            log?.lines.append("hook pressed")
            return super.buttonPressed(event)
        }
        override func keyPressed(_ event: ViewKeyEvent) -> Bool {
            log?.lines.append("hook key \(event.key)")
            return super.keyPressed(event)
        }
    }

    @Test func interactionsHearPointerButtonKeyFocusAndDeactivationInnermostFirstBeforeTheHooks() throws {
        let log = Log()
        let button = HookButton(title: "Go") {}
        button.log = log
        button.identifier = "go"
        button.addInteraction(Recorder("inner", log: log))
        button.toolTip = "Goes"
        let box = VStack(padding: 40) { button }
        box.addInteraction(Recorder("outer", log: log))
        let window = Window(
            title: "Channel", size: Size(width: 300, height: 200), content: box, application: display.app)
        display.show(window)
        // The window opened with the button focused: cleared, so that the click below focuses it.
        window.focus(nil)
        log.lines.removeAll()

        // Enters outermost first, motion innermost first, with the point in each view.
        display.movePointer(to: button, dx: 7, dy: 5)
        let entering = log.take()
        #expect(entering.prefix(2) == ["outer entered", "inner entered"])
        #expect(Array(entering.drop { $0.hasSuffix("entered") }.prefix(2)) == ["inner moved", "outer moved"])
        #expect(log.lastPoint["inner"] == Point(x: 7, y: 5))
        let buttonInBox = try #require(button.frameOnScreen).origin
        let boxOrigin = try #require(box.frameOnScreen).origin
        #expect(log.lastPoint["outer"] == Point(x: buttonInBox.x - boxOrigin.x + 7, y: buttonInBox.y - boxOrigin.y + 5))

        // The tooltip on the same view shows: it hears the motion through its interaction.
        #expect(display.run(until: { self.display.app.toolTips.shownText == "Goes" }))

        // A press: the interactions hear it before the view's hook; then the click focuses.
        probe.click()
        display.settle()
        let clicking = log.take()
        #expect(
            Array(clicking.prefix(4)) == [
                "inner pressed primary", "outer pressed primary", "inner focus gained click", "hook pressed",
            ])
        #expect(clicking.suffix(2) == ["inner released primary", "outer released primary"])
        #expect(display.run(until: { !self.display.app.toolTips.isShowing }), "a click hides the tooltip")

        // A key reaches the focused view's interactions, then its hook.
        probe.key(0x61)  // a
        #expect(display.run(until: { log.lines.count >= 2 }))
        #expect(log.take() == ["inner key character(\"a\") a", "hook key character(\"a\")"])

        // Focus leaves; the window hides: the views under the pointer hear it, then exits.
        window.focus(nil)
        #expect(log.take() == ["inner focus lost"])
        window.hide()
        // Hidden, the window has the pointer over none of its views any more: they exit.
        #expect(log.take() == ["inner deactivated", "outer deactivated", "inner exited", "outer exited"])
    }

    /// A wheel step reaches the interactions (a tooltip hides on it), not the views' press hooks.
    @Test func aWheelStepReachesTheInteractionsOnly() throws {
        let log = Log()
        let button = HookButton(title: "Go") {}
        button.log = log
        button.addInteraction(Recorder("inner", log: log))
        let window = Window(
            title: "Wheel", size: Size(width: 200, height: 120), content: VStack(padding: 30) { button },
            application: display.app)
        display.show(window)
        display.movePointer(to: button)
        log.lines.removeAll()
        probe.click(4)
        #expect(display.run(until: { log.lines.contains("inner pressed scrollUp") }))
        display.settle()
        #expect(!log.lines.contains("hook pressed"))
    }
}
