internal import Glibc

/// A point in time on the system's monotonic clock, immune to wall-clock changes.
///
/// Timers, the tooltip delays and the benchmark all use this clock; tests inject their own
/// instants instead of reading it.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary fixed point (the system's boot).
    public var nanoseconds: Int64

    /// Creates an instant from a nanosecond count.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The current time.
    public static func now() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    /// The instant a duration later (earlier when the duration is negative).
    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    /// The instant a duration earlier.
    public static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public var description: String { "\(Double(nanoseconds) / 1e6) ms" }
}

extension Duration {
    /// The duration as a whole number of nanoseconds (saturating).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled &+ attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds, as a floating-point number.
    public var milliseconds: Double { Double(nanoseconds) / 1e6 }
}
