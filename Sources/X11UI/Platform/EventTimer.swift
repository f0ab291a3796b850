/// A one-shot timer on the application's run loop.
///
/// Timers are deadlines the run loop sleeps until, not threads. Keep the returned object to
/// cancel it; a timer that fired or was cancelled does nothing more.
@MainActor
public final class EventTimer {
    /// When the timer fires.
    public let deadline: MonotonicInstant
    let action: @MainActor () -> Void
    /// Whether `cancel()` was called or the timer already fired.
    public private(set) var isDone = false

    init(deadline: MonotonicInstant, action: @escaping @MainActor () -> Void) {
        self.deadline = deadline
        self.action = action
    }

    /// Stops the timer from firing.
    public func cancel() { isDone = true }

    func fire() {
        guard !isDone else { return }
        isDone = true
        action()
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
