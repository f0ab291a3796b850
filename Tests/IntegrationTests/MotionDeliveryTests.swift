import Testing
import X11TestSupport

@_spi(Testing) @testable import X11UI

/// Pointer motion, the hottest path of the event channel: each motion reaches each interaction
/// of the views under the pointer once, with its point in the view's coordinates; enters and
/// exits come only when the views under the pointer change (most motion stays over one view,
/// and the window then checks its hover chain in place); the tooltip coordinator's record of
/// what the interactions heard is empty after every event and keeps its storage. Motion is
/// handed to the window directly, so every count is exact.
@Suite(.serialized)
@MainActor
final class MotionDeliveryTests {
    let display: InProcessDisplay

    init() throws {
        display = try InProcessDisplay()
    }

    /// Counts what it hears.
    final class Counter: Interaction {
        private(set) weak var view: View?
        var entered = 0
        var exited = 0
        var moved: [Point] = []
        func didMove(to view: View?) { self.view = view }
        func handle(_ event: InteractionEvent) {
            switch event {
            case .pointerEntered: entered += 1
            case .pointerExited: exited += 1
            case .pointerMoved(let point): moved.append(point)
            default: break
            }
        }
    }

    /// A view that counts its own hooks.
    final class HookView: View {
        var entered = 0
        var exited = 0
        var moved: [Point] = []
        override func pointerEntered() { entered += 1 }
        override func pointerExited() { exited += 1 }
        override func pointerMoved(to point: Point) { moved.append(point) }
    }

    func move(_ window: Window, to location: Point) {
        let origin = window.screenOrigin ?? .zero
        window.handleEvent(
            .pointerMotion(
                PointerEvent(
                    window: window.windowID?.rawValue ?? 0, location: location,
                    rootLocation: Point(x: origin.x + location.x, y: origin.y + location.y), modifiers: [],
                    time: 1)))
    }

    @Test func eachMotionReachesEachInteractionOnceAndEntersOnlyOnChange() throws {
        let left = HookView()
        left.preferredSize = Size(width: 40, height: 30)
        left.toolTip = "Left"
        let right = HookView()
        right.preferredSize = Size(width: 40, height: 30)
        right.toolTip = "Right"
        let row = HStack(spacing: 0, alignment: .start) {
            left
            right
        }
        let box = VStack(padding: 20) { row }
        let leftCounter = Counter()
        let rightCounter = Counter()
        let boxCounter = Counter()
        left.addInteraction(leftCounter)
        right.addInteraction(rightCounter)
        box.addInteraction(boxCounter)
        let window = Window(
            title: "Motion", size: Size(width: 200, height: 100), content: box, application: display.app)
        display.show(window)
        window.layoutIfNeeded()
        let leftOrigin = left.convertToWindow(Point.zero)
        let rightOrigin = right.convertToWindow(Point.zero)

        // Five motions over one view: one enter, five motions each, points in each view.
        for step in 0..<5 {
            move(window, to: Point(x: leftOrigin.x + 2 + Double(step), y: leftOrigin.y + 3))
            #expect(display.app.toolTips.router.heard.isEmpty, "the coordinator's record is used up by each event")
        }
        #expect(display.app.toolTips.router.heard.capacity > 0, "and keeps its storage for the next")
        #expect(left.entered == 1 && left.exited == 0)
        #expect(leftCounter.entered == 1 && leftCounter.exited == 0)
        #expect(left.moved == (0..<5).map { Point(x: 2 + Double($0), y: 3) })
        #expect(leftCounter.moved == left.moved)
        #expect(boxCounter.entered == 1 && boxCounter.moved.count == 5)
        let boxOrigin = box.convertToWindow(Point.zero)
        #expect(boxCounter.moved.last == Point(x: leftOrigin.x + 6 - boxOrigin.x, y: leftOrigin.y + 3 - boxOrigin.y))

        // On to the next view: one exit, one enter; the box stays entered.
        move(window, to: Point(x: rightOrigin.x + 1, y: rightOrigin.y + 1))
        move(window, to: Point(x: rightOrigin.x + 2, y: rightOrigin.y + 1))
        #expect(left.exited == 1 && leftCounter.exited == 1 && leftCounter.moved.count == 5)
        #expect(right.entered == 1 && rightCounter.entered == 1)
        #expect(rightCounter.moved == [Point(x: 1, y: 1), Point(x: 2, y: 1)])
        #expect(right.moved == rightCounter.moved)
        #expect(boxCounter.entered == 1 && boxCounter.exited == 0 && boxCounter.moved.count == 7)

        // The view under the pointer leaves the window: it leaves the hover chain with it, and
        // the next motion there is over what remains, not over it.
        right.removeFromSuperview()
        #expect(!window.hover.chain.contains { $0 === right })
        move(window, to: Point(x: rightOrigin.x + 3, y: rightOrigin.y + 1))
        #expect(rightCounter.moved.count == 2)
        #expect(window.hover.chain.last !== right && window.hover.chain.last != nil)

        // Back to the first view (where the stacks put it now): it is entered again, and hears
        // motion again.
        window.layoutIfNeeded()
        let leftNow = left.convertToWindow(Point.zero)
        move(window, to: Point(x: leftNow.x + 1, y: leftNow.y + 1))
        #expect(left.entered == 2 && leftCounter.entered == 2)
        #expect(leftCounter.moved.last == Point(x: 1, y: 1))
        let chain = window.hover.chain.map { ObjectIdentifier($0) }
        #expect(chain == [window.rootView, box, row, left].map(ObjectIdentifier.init))
    }

    /// The point a motion gives the deepest view is the one `convertFromWindow` gives, to the
    /// bit, when frames are fractional (it is summed from the hover chain, not by a walk up).
    @Test func theDeepestViewsPointIsTheConvertedOneWithFractionalFrames() throws {
        let inner = HookView()
        inner.frame = Rect(x: 0.1, y: 0.7, width: 30.3, height: 20.9)
        let middle = View()
        middle.frame = Rect(x: 3.3, y: 1.1, width: 60.6, height: 40.2)
        middle.addSubview(inner)
        let outer = View()
        outer.frame = Rect(x: 10.2, y: 5.05, width: 120, height: 80)
        outer.addSubview(middle)
        let container = View()
        container.addSubview(outer)
        let window = Window(
            title: "Fractions", size: Size(width: 200, height: 120), content: container, application: display.app)
        display.show(window)
        window.layoutIfNeeded()
        let location = Point(x: 20.37, y: 12.91)
        move(window, to: location)
        #expect(window.hover.chain.last === inner)
        #expect(inner.moved == [inner.convertFromWindow(location)])
    }

    /// A row of views with tooltips in a window, each `width` wide.
    func row(of count: Int, width: Double) -> (Window, [View]) {
        var views: [View] = []
        for index in 0..<count {
            let view = View()
            view.preferredSize = Size(width: width, height: 20)
            view.toolTip = "Cell \(index)"
            views.append(view)
        }
        let row = HStack(spacing: 0, alignment: .start) {
            for view in views { view }
        }
        let window = Window(
            title: "Row", size: Size(width: Double(count) * width + 40, height: 60),
            content: VStack(padding: 20) { row }, application: display.app)
        display.show(window)
        window.layoutIfNeeded()
        return (window, views)
    }

    /// The application's tooltip controller on a virtual clock, with the standard timings.
    private func virtualTime() -> (VirtualClock, ToolTipController) {
        let clock = VirtualClock()
        let controller = display.app.toolTips
        controller.drive(on: clock)
        controller.timings = .standard
        return (clock, controller)
    }

    /// Crossing one source after another moves the delay's deadline later each time; the
    /// timer armed for the first stays (it arms the rest when it fires), so the motion arms
    /// one timer, not one per source, and the last source's tooltip still shows after its
    /// own delay.
    @Test func crossingSourcesArmsOneTimerAndTheLastSourceStillShows() throws {
        let (clock, controller) = virtualTime()
        let (window, views) = row(of: 24, width: 10)
        let before = controller.timer.armings
        for (index, view) in views.enumerated() {
            let origin = view.convertToWindow(Point.zero)
            move(window, to: Point(x: origin.x + 3, y: origin.y + 5))
            move(window, to: Point(x: origin.x + 6, y: origin.y + 5))
            clock.advance(by: .milliseconds(10))
            #expect(controller.timer.armings - before == 1, "one timer for the whole crossing, at view \(index)")
            #expect(clock.pendingTimerCount == 1)
        }
        // The first deadline passes: the timer arms the rest of the last source's delay.
        clock.advance(by: .milliseconds(500 - 240))
        #expect(!controller.isShowing)
        #expect(controller.timer.armings - before == 2)
        #expect(clock.nextDeadline == controller.timer.deadline)
        clock.advance(by: .milliseconds(229))
        #expect(!controller.isShowing, "the last source's delay counts from when the pointer reached it")
        clock.advance(by: .milliseconds(1))
        #expect(controller.shownText == "Cell 23")
        #expect(clock.pendingTimerCount == 0)
        window.close()
    }

    /// Leaving every source cancels the timer; an earlier deadline than the armed one re-arms.
    @Test func leavingTheSourcesCancelsTheTimer() throws {
        let (clock, controller) = virtualTime()
        let (window, views) = row(of: 2, width: 30)
        let origin = views[0].convertToWindow(Point.zero)
        move(window, to: Point(x: origin.x + 3, y: origin.y + 5))
        #expect(clock.pendingTimerCount == 1)
        move(window, to: Point(x: 2, y: 2))  // the window's padding: no source
        #expect(clock.pendingTimerCount == 0)
        #expect(controller.timer.deadline == nil)
        window.close()
    }

    /// On the run loop's clock a long delay wakes 1 ms early and sleeps the rest in a short
    /// wait of its own (the kernel's slack on a `ppoll` timeout is 0.1% of it: 0.5 ms of
    /// 500 ms); a short one is armed at its deadline.
    @Test func theRunLoopTimerWakesEarlyForALongDelay() throws {
        let controller = display.app.toolTips
        controller.timings = .standard
        let (window, views) = row(of: 1, width: 30)
        let origin = views[0].convertToWindow(Point.zero)
        move(window, to: Point(x: origin.x + 3, y: origin.y + 5))
        let deadline = try #require(controller.timer.deadline)
        #expect(display.app.nextDeadline == deadline - .milliseconds(1))
        let short = MonotonicInstant.now() + .microseconds(1500)
        controller.timer.set(short)
        #expect(display.app.nextDeadline == short, "a wait under 2 ms is armed at its deadline")
        controller.hide()
        window.close()
    }

    /// A view whose hooks take virtual time, as slow hooks take real time.
    final class SlowView: View {
        var clock: VirtualClock?
        override func pointerEntered() { clock?.advance(by: .milliseconds(40)) }
        override func pointerMoved(to point: Point) { clock?.advance(by: .milliseconds(60)) }
    }

    /// The delay counts from when the pointer event reached the window, not from when the
    /// views' hooks were done with it.
    @Test func theDelayCountsFromThePointersArrival() throws {
        let (clock, controller) = virtualTime()
        let view = SlowView()
        view.preferredSize = Size(width: 40, height: 20)
        view.toolTip = "Slow"
        let window = Window(
            title: "Slow", size: Size(width: 100, height: 60), content: VStack(padding: 20) { view },
            application: display.app)
        display.show(window)
        window.layoutIfNeeded()
        view.clock = clock
        let arrival = clock.now
        let origin = view.convertToWindow(Point.zero)
        move(window, to: Point(x: origin.x + 3, y: origin.y + 5))
        #expect(clock.now == arrival + .milliseconds(100), "the hooks took 100 ms")
        #expect(controller.timer.deadline == arrival + .milliseconds(500))
        view.clock = nil
        clock.advance(by: .milliseconds(399))
        #expect(!controller.isShowing)
        clock.advance(by: .milliseconds(1))
        #expect(controller.shownText == "Slow")
        window.close()
    }
}
