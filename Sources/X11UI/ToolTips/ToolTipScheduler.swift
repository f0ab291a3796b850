/// Where the tooltip driver reads the time and sets its one timer.
///
/// Programs use the run loop's clock and timer queue (``RunLoopToolTipScheduler``); tests hand
/// the driver a ``VirtualClock`` and move time on themselves, so the delays of the tooltip
/// rules pass instantly and exactly, without sleeping.
@MainActor
protocol ToolTipScheduler: AnyObject {
    /// The current time.
    var now: MonotonicInstant { get }
    /// Calls `action` once at `deadline`; cancelling the returned timer stops the call.
    func schedule(at deadline: MonotonicInstant, _ action: @escaping @MainActor () -> Void) -> EventTimer
    /// How long before a distant deadline the driver's timer wakes, to wait the rest with a
    /// short, precise timeout (zero: the deadline itself).
    var earlyWake: Duration { get }
}

/// The real clock and the application's run loop: a tooltip timer is one of its timers.
@MainActor
final class RunLoopToolTipScheduler: ToolTipScheduler {
    private unowned let application: Application

    init(application: Application) {
        self.application = application
    }

    var now: MonotonicInstant { .now() }

    /// `ppoll` adds 0.1% of its timeout as slack (0.5 ms of a 500 ms delay), never less than
    /// the thread's 50 µs: a wait that ends 1 ms early and then sleeps the last millisecond
    /// ends within 50 µs of the deadline.
    var earlyWake: Duration { .milliseconds(1) }

    func schedule(at deadline: MonotonicInstant, _ action: @escaping @MainActor () -> Void) -> EventTimer {
        application.schedule(at: deadline, action)
    }
}

/// A clock that stands still until it is moved on, with its own queue of timers: the tooltip
/// driver on virtual time, for tests.
///
/// Hand it to ``ToolTipController/drive(on:)``; then ``advance(by:)`` fires the tooltip timers
/// that fall due, each at its own deadline, in order:
///
/// ```swift
/// let clock = VirtualClock()
/// app.toolTips.drive(on: clock)
/// // … the pointer rests on a view …
/// clock.advance(by: .milliseconds(500))      // the initial delay passes: the tooltip shows
/// ```
@_spi(Testing)
@MainActor
public final class VirtualClock: ToolTipScheduler {
    /// The clock's time; it moves only in ``advance(by:)`` and ``advanceToNextDeadline()``.
    public private(set) var now: MonotonicInstant
    private var timers = TimerQueue()

    /// How long before a distant deadline the tooltip driver's timer wakes, as on the real
    /// clock (zero, the default: at the deadline).
    public let earlyWake: Duration

    /// A clock that starts at `start` (by default the real time now, so that instants of the
    /// two clocks compare sensibly). With an `earlyWake`, the tooltip driver wakes that long
    /// before a distant deadline as it does on the real clock, and does there what it does
    /// then (it makes a hover tooltip's window ready).
    public init(start: MonotonicInstant = .now(), earlyWake: Duration = .zero) {
        now = start
        self.earlyWake = max(.zero, earlyWake)
    }

    /// The number of timers set on this clock that have neither fired nor been cancelled.
    public var pendingTimerCount: Int { timers.count }

    /// The earliest deadline of a pending timer.
    public var nextDeadline: MonotonicInstant? { timers.nextDeadline }

    func schedule(at deadline: MonotonicInstant, _ action: @escaping @MainActor () -> Void) -> EventTimer {
        let timer = EventTimer(deadline: deadline) { _ in action() }
        timers.insert(timer)
        return timer
    }

    /// Moves the time on by `duration`, firing each timer that falls due on the way at its
    /// deadline (a timer set by one that fires goes in the queue and fires too if it falls due
    /// before the end).
    public func advance(by duration: Duration) {
        let end = now + max(.zero, duration)
        while let deadline = timers.nextDeadline, deadline <= end {
            now = max(now, deadline)
            fireDue()
        }
        now = end
    }

    /// Moves the time on to the earliest pending deadline and fires what falls due then.
    ///
    /// - Returns: whether a timer was pending.
    @discardableResult
    public func advanceToNextDeadline() -> Bool {
        guard let deadline = timers.nextDeadline else { return false }
        now = max(now, deadline)
        fireDue()
        return true
    }

    private func fireDue() {
        for timer in timers.removeDue(at: now) {
            timer.fire(now: now)
        }
    }
}
