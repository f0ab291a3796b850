import CX11
import Foundation
import Testing
import X11TestSupport
@_spi(Testing) import X11UI

/// An application on a private Xvfb with a window at the top left, and synthetic events fed
/// straight into `Application.handle(_:)` (fast and deterministic), next to XTest when a test
/// wants the real path. The tooltip rules run on a virtual clock: their delays pass when a test
/// says so, at once and exactly, and no test sleeps.
@MainActor
final class Harness {
    let display: InProcessDisplay
    /// The tooltip driver's clock.
    let clock: VirtualClock
    var app: Application { display.app }
    var probe: ServerProbe { display.probe }
    private(set) var window: X11UI.Window?
    private var time: UInt = 1000

    /// `earlyWake`: how long before a distant deadline the tooltip timer wakes (see
    /// ``VirtualClock/earlyWake``).
    init(width: Int = 1280, height: Int = 800, earlyWake: Duration = .zero) throws {
        clock = VirtualClock(earlyWake: earlyWake)
        display = try InProcessDisplay(width: width, height: height)
        app.toolTips.drive(on: clock)
        // Short delays: the rules are the same, the tests are faster.
        app.toolTips.timings = ToolTipTimings(
            initialDelay: .milliseconds(40), browseDelay: .milliseconds(10), browseTimeout: .milliseconds(40),
            hoverGrace: .milliseconds(20))
    }

    /// Shows `content` in a window at (0, 0).
    @discardableResult
    func show(_ content: View, size: Size = Size(width: 600, height: 400)) -> X11UI.Window {
        let window = X11UI.Window(title: "harness", size: size, content: content, application: app)
        display.show(window)
        self.window = window
        return window
    }

    private func event(_ type: Int32, x: Double, y: Double) -> XEvent {
        var event = XEvent()
        time += 7
        event.xmotion.type = type
        event.xmotion.window = window?.windowID?.rawValue ?? 0
        event.xmotion.x = Int32(x)
        event.xmotion.y = Int32(y)
        let origin = window?.screenOrigin ?? .zero
        event.xmotion.x_root = Int32(x + origin.x)
        event.xmotion.y_root = Int32(y + origin.y)
        event.xmotion.same_screen = 1
        event.xmotion.time = time
        return event
    }

    /// The pointer moves to a point of the window.
    func move(to point: Point) {
        _ = app.handle(event(MotionNotify, x: point.x, y: point.y))
    }

    /// A button press and release at a point of the window.
    func click(at point: Point, button: UInt32 = 1) {
        var press = event(ButtonPress, x: point.x, y: point.y)
        press.xbutton.button = button
        _ = app.handle(press)
        var release = event(ButtonRelease, x: point.x, y: point.y)
        release.xbutton.button = button
        release.xbutton.state = UInt32(Button1Mask)
        _ = app.handle(release)
    }

    /// A key press (by keysym) on the window.
    func key(_ keysym: UInt, shift: Bool = false, control: Bool = false) {
        var event = XEvent()
        time += 7
        event.xkey.type = KeyPress
        event.xkey.window = window?.windowID?.rawValue ?? 0
        event.xkey.keycode = UInt32(XKeysymToKeycode(probe.display, keysym))
        event.xkey.state = (shift ? UInt32(ShiftMask) : 0) | (control ? UInt32(ControlMask) : 0)
        event.xkey.time = time
        event.xkey.same_screen = 1
        _ = app.handle(event)
    }

    /// Lets `milliseconds` of virtual time pass: the tooltip timers that fall due fire, each at
    /// its deadline, and the application handles what they did; then the server has processed
    /// every request (so that the probe sees the result).
    func wait(_ milliseconds: Int) {
        let end = clock.now + .milliseconds(milliseconds)
        while let next = clock.nextDeadline, next <= end {
            clock.advanceToNextDeadline()
            app.processPending()
        }
        clock.advance(by: end - clock.now)
        settle()
    }

    /// Lets the application handle what is pending, after a round trip on the probe and one
    /// on the application: what the probe did (XTest motion, say) and every request of the
    /// application have then reached the server, and the events they caused the application.
    func settle() {
        probe.sync()
        app.processPending()
        app.sync()
        app.processPending()
    }

    /// Runs until the condition holds: tooltip timers fire on virtual time (up to `timeout`
    /// milliseconds of it); while none is pending, the loop waits on the X server (up to
    /// `timeout` milliseconds of real time in all) for what the condition needs from it.
    @discardableResult
    func run(until condition: () -> Bool, timeout: Int = 2000) -> Bool {
        let virtualEnd = clock.now + .milliseconds(timeout)
        let realEnd = MonotonicInstant.now() + .milliseconds(timeout)
        settle()
        while !condition() {
            if let next = clock.nextDeadline, next <= virtualEnd {
                clock.advanceToNextDeadline()
                settle()
                continue
            }
            let left = realEnd - MonotonicInstant.now()
            guard left > .zero else { return false }
            let clock = self.clock
            display.run(until: { condition() || (clock.nextDeadline.map { $0 <= virtualEnd } ?? false) }, timeout: left)
        }
        return true
    }

    /// The tooltip timers still pending, on the virtual clock and (there should be none) on
    /// the run loop.
    var pendingTimerCount: Int { clock.pendingTimerCount + app.pendingTimerCount }

    /// The middle of a view, in the window's coordinates.
    func center(of view: View) -> Point {
        view.convertToWindow(Point(x: view.bounds.midX, y: view.bounds.midY))
    }

    /// The frame of the tooltip window as the server has it.
    var toolTipFrame: Frame? {
        guard let id = app.toolTips.windowID, let info = probe.info(id), info.isMapped else { return nil }
        return info.rect
    }
}

/// A view of a fixed size.
@MainActor
func block(_ width: Double, _ height: Double, toolTip: String? = nil) -> View {
    let view = View()
    view.preferredSize = Size(width: width, height: height)
    view.backgroundColor = Color(rgb: 0x8080ff)
    view.toolTip = toolTip
    return view
}
