import Testing

@testable import X11UI

/// Timers fired with an injected clock.
@Suite @MainActor
struct EventTimerTests {
    let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    @Test func aOneShotTimerFiresOnce() {
        var calls = 0
        let timer = EventTimer(deadline: start + .milliseconds(10)) { _ in calls += 1 }
        #expect(!timer.isRepeating)
        timer.fire(now: start + .milliseconds(10))
        timer.fire(now: start + .milliseconds(20))
        #expect(calls == 1)
        #expect(timer.isDone)
    }

    @Test func aRepeatingTimerKeepsItsRhythmAndCoalescesMissedTicks() {
        var calls = 0
        let timer = EventTimer(deadline: start + .milliseconds(10), interval: .milliseconds(10)) { _ in calls += 1 }
        // A little late: the next deadline is still on the 10 ms grid, not 10 ms after now.
        timer.fire(now: start + .milliseconds(13))
        #expect(timer.deadline == start + .milliseconds(20))
        // Held up past three deadlines: one call, then the next deadline ahead.
        timer.fire(now: start + .milliseconds(51))
        #expect(calls == 2)
        #expect(timer.deadline == start + .milliseconds(60))
        #expect(!timer.isDone)
        timer.cancel()
        timer.fire(now: start + .milliseconds(60))
        #expect(calls == 2)
    }

    @Test func aTimerCanCancelItselfAndIntervalsHaveAFloor() {
        var calls = 0
        let timer = EventTimer(deadline: start, interval: .zero) { timer in
            calls += 1
            timer.cancel()
        }
        #expect(timer.interval == EventTimer.minimumInterval)
        timer.fire(now: start)
        timer.fire(now: start + .seconds(1))
        #expect(calls == 1 && timer.isDone)
    }

    @Test func theQueueHandsOutDueTimersInDeadlineOrder() {
        var queue = TimerQueue()
        var order: [Int] = []
        for (index, offset) in [30, 10, 20].enumerated() {
            queue.insert(EventTimer(deadline: start + .milliseconds(Int64(offset))) { _ in order.append(index) })
        }
        let cancelled = EventTimer(deadline: start + .milliseconds(15)) { _ in order.append(99) }
        queue.insert(cancelled)
        cancelled.cancel()
        #expect(queue.count == 3)
        for timer in queue.removeDue(at: start + .milliseconds(25)) { timer.fire(now: start + .milliseconds(25)) }
        #expect(order == [1, 2])
        #expect(queue.nextDeadline == start + .milliseconds(30))
    }
}
