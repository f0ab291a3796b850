/// A timer on the application's run loop: once after a delay, or repeating at an interval.
///
/// Timers are deadlines the run loop sleeps until, not threads: the action runs on the main
/// actor between two batches of events, and a program with only far-off timers uses no CPU.
/// Make one with ``Application/schedule(after:_:)``, ``Application/schedule(at:_:)`` or
/// ``Application/schedule(every:startingAfter:_:)``, and keep the returned object to cancel it:
///
/// ```swift
/// let clock = app.schedule(every: .seconds(1)) { _ in label.text = now() }
/// let save = app.schedule(after: .seconds(30)) { document.save() }
/// save.cancel()                               // it will not run
/// clock.cancel()                              // no more ticks
/// ```
///
/// A repeating timer keeps its rhythm: each deadline is the previous one plus the interval, so
/// it does not drift; when the loop was held up past several deadlines, it fires once and
/// resumes at the next deadline still ahead. Its action gets the timer, so it can cancel
/// itself. A timer that was cancelled, or a one-shot timer that fired, does nothing more.
@MainActor
public final class EventTimer {
    /// When the timer fires next (for a repeating timer, this moves on after each firing).
    public private(set) var deadline: MonotonicInstant
    /// The time between two firings of a repeating timer; nil for a one-shot timer.
    public let interval: Duration?
    private let action: @MainActor (EventTimer) -> Void
    /// Whether the timer will not fire again: `cancel()` was called, or a one-shot timer fired.
    public private(set) var isDone = false

    /// The shortest interval of a repeating timer: a shorter one would keep the loop busy.
    public static let minimumInterval: Duration = .milliseconds(1)

    init(deadline: MonotonicInstant, interval: Duration? = nil, action: @escaping @MainActor (EventTimer) -> Void) {
        self.deadline = deadline
        self.interval = interval.map { max($0, EventTimer.minimumInterval) }
        self.action = action
    }

    /// Whether the timer fires again and again until cancelled.
    public var isRepeating: Bool { interval != nil }

    /// Stops the timer: it does not fire again, even when cancelled from its own action.
    public func cancel() { isDone = true }

    /// Runs the action once; a repeating timer then moves its deadline past `now`.
    func fire(now: MonotonicInstant) {
        guard !isDone else { return }
        guard let interval else {
            isDone = true
            action(self)
            return
        }
        let step = interval.nanoseconds
        let behind = (now - deadline).nanoseconds
        deadline = deadline + .nanoseconds(step * (behind / step + 1))
        action(self)
    }
}

/// The pending timers of a run loop, earliest first.
@MainActor
struct TimerQueue {
    private var timers: [EventTimer] = []

    /// The earliest deadline of a timer that is still pending.
    var nextDeadline: MonotonicInstant? {
        mutating get {
            timers.removeAll { $0.isDone }
            return timers.first?.deadline
        }
    }

    var count: Int { timers.count(where: { !$0.isDone }) }

    mutating func insert(_ timer: EventTimer) {
        // Cancelled timers go now, so a loop that never sleeps (a host calling `handle`) does
        // not pile them up.
        timers.removeAll { $0.isDone }
        let index = timers.firstIndex { $0.deadline > timer.deadline } ?? timers.endIndex
        timers.insert(timer, at: index)
    }

    /// Takes out every timer due at `now`, in deadline order. The caller fires them once this
    /// returns, so their actions may schedule new timers (which wait their turn).
    mutating func removeDue(at now: MonotonicInstant) -> [EventTimer] {
        var due: [EventTimer] = []
        while let first = timers.first, first.deadline <= now {
            due.append(timers.removeFirst())
        }
        return due
    }
}

// MARK: - Scheduling

extension Application {
    /// Calls `action` once, `delay` from now, on the run loop.
    ///
    /// - Returns: the timer; `cancel()` it to stop the call.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @MainActor () -> Void) -> EventTimer {
        schedule(at: .now() + delay, action)
    }

    /// Calls `action` once at `deadline`, on the run loop.
    ///
    /// - Returns: the timer; `cancel()` it to stop the call.
    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ action: @escaping @MainActor () -> Void) -> EventTimer {
        let timer = EventTimer(deadline: deadline) { _ in action() }
        timers.insert(timer)
        return timer
    }

    /// Calls `action` every `interval` on the run loop until the timer is cancelled.
    ///
    /// ```swift
    /// var ticks = 0
    /// app.schedule(every: .milliseconds(250)) { timer in
    ///     ticks += 1
    ///     progress.text = String(repeating: "•", count: ticks)
    ///     if ticks == 8 { timer.cancel() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: the time between two calls, at least ``EventTimer/minimumInterval``.
    ///   - delay: the time until the first call; nil waits one interval.
    ///   - action: called with the timer, which it may cancel.
    /// - Returns: the timer; `cancel()` it to stop the calls.
    @discardableResult
    public func schedule(
        every interval: Duration, startingAfter delay: Duration? = nil,
        _ action: @escaping @MainActor (EventTimer) -> Void
    ) -> EventTimer {
        let first = MonotonicInstant.now() + (delay ?? max(interval, EventTimer.minimumInterval))
        let timer = EventTimer(deadline: first, interval: interval, action: action)
        timers.insert(timer)
        return timer
    }

    /// The number of timers still pending (for tests of cancellation).
    @_spi(Testing)
    public var pendingTimerCount: Int { timers.count }

    /// Fires the timers due at `now` (tooltip delays, a program's timers); a repeating timer
    /// goes back in the queue at its next deadline.
    public func fireTimers(now: MonotonicInstant = .now()) {
        for timer in timers.removeDue(at: now) {
            timer.fire(now: now)
            if !timer.isDone { timers.insert(timer) }
        }
        updateWindows()
    }
}
