import Foundation
import Testing
import X11TestSupport
@_spi(Testing) import X11UI

/// A model-based fuzz test of the whole tooltip driver (controller, state machine, presenter,
/// windows, real X): random pointer, button, key, focus, window and delegate events, checked
/// after every step against invariants and a reference model of when a hover tooltip must
/// show. CI runs a fixed seed; `X11UI_FUZZ_SEED=random X11UI_FUZZ_STEPS=20000 swift test
/// --filter DriverFuzzTests` runs long with a fresh seed (printed on failure).
@Suite(.serialized)
@MainActor
final class DriverFuzzTests {
    let harness: Harness
    let delay = 40.0  // ms, as the harness sets

    // The world: hover sources, a sub-region delegate, a click source, a focusable button.
    let a = block(120, 40, toolTip: "A")
    let b = block(160, 40)
    let c = block(100, 40)
    let d = Button(title: "D")
    let e = block(120, 40, toolTip: "E")
    let eBox: VStack
    let column: VStack
    var bText = "B-left 0"
    /// What B's delegate does the next time it answers, from inside the callback.
    enum Reentry: CaseIterable { case update, remove, hideWindow, present }
    var reentry: Reentry?
    /// How many answers acted while answering (the run must not be vacuous).
    var reentries = 0
    lazy var bDelegate = ScriptedDelegate { [unowned self] interaction, point in
        if let action = self.reentry {
            self.reentry = nil
            self.reentries += 1
            switch action {
            case .update: interaction.setNeedsUpdate()
            case .remove: self.b.removeFromSuperview()
            case .hideWindow: self.harness.window?.hide()
            case .present: interaction.present()
            }
        }
        return point.x < 80
            ? ToolTipConfiguration(toolTip: self.bText, in: Rect(x: 0, y: 0, width: 80, height: 40)) : nil
    }
    let bInteraction = ToolTipInteraction()

    init() throws {
        harness = try Harness()
        let (a, b, c, d, e) = (self.a, self.b, self.c, self.d, self.e)
        eBox = VStack(padding: 0) { e }
        column = VStack(spacing: 30, alignment: .start, padding: 30) {
            HStack(spacing: 40) {
                a; b
            }
            HStack(spacing: 40) {
                c; d
            }
        }
        d.toolTip = "D"
        c.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "C"))
        column.addSubview(eBox)
        b.addInteraction(bInteraction)
        bInteraction.delegate = bDelegate
        harness.show(column)
    }

    /// What the reference model knows.
    struct Model {
        /// The hover region the pointer is in (view and region id) and since when it counts.
        var armed: (view: View, region: Int, since: MonotonicInstant)?
        /// The region the pointer is in (even when disarmed).
        var inside: (view: View, region: Int)?
        /// Escape dismissed this region until the pointer leaves it.
        var escaped: (view: View, region: Int)?
        /// A press disarmed the region until the next motion.
        var pressed = false
    }

    func expectedText(for view: View) -> String? {
        if view === a { return "A" }
        if view === b { return bText }
        if view === c { return "C" }
        if view === d { return "D" }
        if view === e { return "E" }
        return nil
    }

    /// The hover region at a window point: the view and a region number (B has two).
    func hoverRegion(at point: Point) -> (view: View, region: Int)? {
        for view in [a, b, d, e] where view.isVisibleInWindow {
            guard let interaction = view.interactions.first as? ToolTipInteraction, interaction.isEnabled else {
                continue
            }
            let local = view.convertFromWindow(point)
            guard view.bounds.contains(local) else { continue }
            if view === b { return local.x < 80 ? (b, 0) : nil }
            return (view, 0)
        }
        return nil
    }

    func randomPoint(_ rng: inout SplitMix64) -> Point {
        let targets: [View] = [a, b, c, d, e, column]
        let view = targets.randomElement(using: &rng)!
        let frame = view.convertToWindow(view.bounds)
        return Point(
            x: frame.minX + Double.random(in: 0..<max(1, frame.width), using: &rng),
            y: frame.minY + Double.random(in: 0..<max(1, frame.height), using: &rng))
    }

    @Test func randomEventSequencesKeepEveryInvariant() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed: UInt64 =
            environment["X11UI_FUZZ_SEED"] == "random"
            ? UInt64.random(in: 0...UInt64.max) : UInt64(environment["X11UI_FUZZ_SEED"] ?? "") ?? 20_261_130
        let steps = Int(environment["X11UI_FUZZ_STEPS"] ?? "") ?? 1500
        var rng = SplitMix64(seed: seed)
        var model = Model()
        let controller = harness.app.toolTips
        let window = try #require(harness.window)
        var pointer = Point(x: 1, y: 1)

        func moved(to point: Point) {
            let region = hoverRegion(at: point)
            let same = region?.view === model.inside?.view && region?.region == model.inside?.region
            if !same { model.escaped = nil }
            if let region, window.isVisible {
                if !same || model.pressed || model.armed == nil {
                    let escaped = model.escaped?.view === region.view && model.escaped?.region == region.region
                    model.armed = escaped ? nil : (region.view, region.region, harness.clock.now)
                }
            } else {
                model.armed = nil
            }
            model.pressed = false
            model.inside = region
        }

        let trace = environment["X11UI_FUZZ_TRACE"] != nil
        for step in 0..<steps {
            let context = "seed \(seed) step \(step)"
            let action = Int.random(in: 0..<100, using: &rng)
            let callsBefore = bDelegate.calls
            let reentriesBefore = reentries
            if trace {
                print("step \(step) action \(action) pointer \(pointer) showing \(controller.shownText ?? "-")")
            }
            switch action {
            case 0..<40:
                pointer = randomPoint(&rng)
                harness.move(to: pointer)
                moved(to: pointer)
            case 40..<50:
                harness.click(at: pointer)
                model.armed = nil
                model.pressed = true
            case 50..<55:
                harness.key(0xff1b)  // Escape
                #expect(!controller.isShowing, "Escape hides: \(context)")
                model.armed = nil
                if let inside = model.inside { model.escaped = inside }
            case 55..<60:
                harness.key(0xff09, shift: Bool.random(using: &rng))  // Tab
                // Focus moved by keyboard to D, which has a tooltip: the keyboard's tooltip now
                // waits instead of the hover one, until the pointer moves again.
                if window.isVisible { model.armed = nil }
            case 60..<63:
                let interaction = a.interactions.first as? ToolTipInteraction
                interaction?.isEnabled.toggle()
                if model.armed?.view === a { model.armed = nil }
                if model.inside?.view === a { model.inside = nil }
            case 63..<66:
                eBox.isHidden.toggle()
                if model.armed?.view === e { model.armed = nil }
                if model.inside?.view === e { model.inside = nil }
            case 66..<68:
                if e.superview == nil { eBox.addSubview(e) } else { e.removeFromSuperview() }
                if model.armed?.view === e { model.armed = nil }
                if model.inside?.view === e { model.inside = nil }
            case 68..<72:
                bText = "B-left \(Int.random(in: 0..<5, using: &rng))"
                bInteraction.setNeedsUpdate()
            case 72..<74:
                if window.isVisible { window.hide() } else { window.show() }
                // The server's answer (the map, the focus it brings) arrives before the next
                // step, as a person cannot act faster than that.
                harness.settle()
                model.armed = nil
                model.inside = nil
            case 74..<80:
                // Re-entrant delegates: the next answer updates, removes its view, hides the
                // window or presents, from inside the callback.
                reentry = Reentry.allCases.randomElement(using: &rng)
                if Bool.random(using: &rng) { bInteraction.setNeedsUpdate() }
            case 80..<82:
                if b.superview == nil { column.subviews.first?.addSubview(b) }
            default:
                harness.wait(Int.random(in: 1...70, using: &rng))
            }
            harness.app.processPending()
            // A delegate that acted while answering may have replaced the tooltip with nothing
            // (present() asks at the view's middle, where B answers nil): resting there does
            // not bring it back until the pointer moves.
            if reentries > reentriesBefore { model.armed = nil }
            // A delegate that changed the world while answering: the model follows.
            if b.superview == nil || !b.isVisibleInWindow {
                if model.armed?.view === b { model.armed = nil }
                if model.inside?.view === b { model.inside = nil }
            }
            if !window.isVisible {
                model.armed = nil
                model.inside = nil
            }

            // Invariants.
            #expect(bDelegate.calls - callsBefore <= 4, "the delegate is asked a bounded number of times: \(context)")
            #expect(harness.clock.pendingTimerCount <= 1, "one tooltip timer at most: \(context)")
            #expect(harness.app.pendingTimerCount == 0, "tooltip timers are on the tooltip clock: \(context)")
            if controller.isShowing {
                let source = controller.shownSource
                #expect(source != nil, "a shown tooltip has a source: \(context)")
                if let source {
                    #expect(source.isVisibleInWindow, "the source is on the screen: \(context)")
                    #expect(window.isVisible, "its window is mapped: \(context)")
                    #expect(
                        (source.interactions.first as? ToolTipInteraction)?.isEnabled ?? false,
                        "its interaction is enabled: \(context)")
                    #expect(
                        controller.shownText == expectedText(for: source),
                        "the text is the source's current answer (\(controller.shownText ?? "")): \(context)")
                }
            }
            // The model: resting in a region for the delay shows its tooltip (virtual time: to
            // the nanosecond, with no allowance for a loaded machine).
            // An open click tooltip (C's) stays while the pointer rests on another source.
            let clickTipOpen = controller.isShowing && controller.shownSource === c
            if let armed = model.armed, harness.clock.now - armed.since >= .milliseconds(delay), !clickTipOpen,
                hoverRegion(at: pointer)?.view === armed.view, window.isVisible
            {
                #expect(
                    controller.isShowing && controller.shownSource === armed.view,
                    "resting on \(expectedText(for: armed.view) ?? "?") shows it (showing \(controller.shownText ?? "nothing")): \(context)"
                )
            }
        }
        #expect(steps < 500 || reentries >= 10, "delegates acted while answering \(reentries) times")
    }
}
