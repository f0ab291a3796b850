/// The one timer of the tooltip rules: the state machine asks for a deadline (`.setTimer`) and
/// this keeps a timer armed for it on the scheduler's clock, the run loop's or a test's.
///
/// A timer already armed no later than a new deadline stays: when it fires it arms the rest, so
/// a pointer crossing one source after another (each a later deadline) re-arms nothing. A long
/// wait on the run loop's clock ends a little early (``ToolTipScheduler/earlyWake``) and the
/// rest is a short wait of its own: `ppoll` lets the kernel add 0.1% of a timeout as slack
/// (0.5 ms of a 500 ms delay), a short wait gets the thread's 50 µs.
@MainActor
final class ToolTipTimer {
    /// The clock and timer queue of the tooltip rules: the run loop's, or a test's virtual one.
    private(set) var scheduler: any ToolTipScheduler
    /// The deadline the machine asked for last (nil: none).
    private(set) var deadline: MonotonicInstant?
    /// How many times a timer was armed (for tests: motion across sources arms none).
    private(set) var armings = 0
    /// The armed timer; it may be due before `deadline` (see `set`).
    private var armed: EventTimer?
    private var isStopped = false
    /// Called at the deadline.
    private let fired: @MainActor () -> Void
    /// Called on the early wake a moment before the deadline, with the deadline.
    private let wokeEarly: @MainActor (MonotonicInstant) -> Void

    init(
        scheduler: any ToolTipScheduler, fired: @escaping @MainActor () -> Void,
        wokeEarly: @escaping @MainActor (MonotonicInstant) -> Void
    ) {
        self.scheduler = scheduler
        self.fired = fired
        self.wokeEarly = wokeEarly
    }

    /// Keeps the one timer at `deadline` (nil: none). An earlier deadline, or none, cancels the
    /// armed timer.
    func set(_ deadline: MonotonicInstant?) {
        self.deadline = deadline
        guard let deadline, !isStopped else {
            armed?.cancel()
            armed = nil
            return
        }
        if let armed, !armed.isDone, armed.deadline <= deadline { return }
        arm(for: deadline)
    }

    /// Runs on `clock` from now on. A timer already set moves to the new clock with the same
    /// time left.
    func drive(on clock: any ToolTipScheduler) {
        let old = scheduler
        scheduler = clock
        guard let current = armed, !current.isDone, let deadline else { return }
        current.cancel()
        // The same time left, on the new clock, armed as any other.
        let moved = clock.now + (deadline - old.now)
        self.deadline = moved
        arm(for: moved)
    }

    /// Cancels the timer for good (the application is closing).
    func stop() {
        isStopped = true
        armed?.cancel()
        armed = nil
    }

    private func arm(for deadline: MonotonicInstant) {
        armed?.cancel()
        armings += 1
        let early = scheduler.earlyWake
        let wake = deadline - scheduler.now > early * 2 ? deadline - early : deadline
        armed = scheduler.schedule(at: wake) { [weak self] in self?.didFire() }
    }

    /// At the deadline the machine hears it; before it (the deadline moved later since, or
    /// the wake was early), the rest is armed.
    private func didFire() {
        armed = nil
        guard let deadline, !isStopped else { return }
        if scheduler.now < deadline {
            arm(for: deadline)
            wokeEarly(deadline)
            return
        }
        fired()
    }
}
