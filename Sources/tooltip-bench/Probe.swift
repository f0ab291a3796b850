import CX11
import CXTest
import Foundation
import X11TestSupport

/// Watches the root window for tooltips mapping and unmapping, and times them against the
/// XTest actions that cause them. The clock is the monotonic clock of this process; an event
/// is timed when this process reads it.
final class TooltipWatcher {
    let probe: ServerProbe
    private var display: OpaquePointer { probe.display }

    init(probe: ServerProbe) {
        self.probe = probe
        XSelectInput(display, probe.root, SubstructureNotifyMask)
        XSync(display, 0)
        drain()
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
    }

    /// Discards queued events.
    func drain() {
        var event = XEvent()
        while XPending(display) > 0 { XNextEvent(display, &event) }
    }

    /// Waits for a MapNotify (or UnmapNotify) of an override-redirect window; returns the time
    /// (ms) and the window, or nil on timeout.
    func waitFor(map: Bool, timeout: Double = 3000) -> (time: Double, window: UInt)? {
        let deadline = Self.now() + timeout
        var event = XEvent()
        while Self.now() < deadline {
            while XPending(display) > 0 {
                XNextEvent(display, &event)
                if map, event.type == MapNotify, event.xmap.override_redirect != 0 {
                    return (Self.now(), event.xmap.window)
                }
                if !map, event.type == UnmapNotify {
                    return (Self.now(), event.xunmap.window)
                }
            }
            var fd = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 5)
        }
        return nil
    }

    /// Waits until a pixel of the screen shows `color` (the tooltip painted); returns the time.
    func waitForPixel(_ x: Int, _ y: Int, color: UInt32, timeout: Double = 1000) -> Double? {
        let deadline = Self.now() + timeout
        while Self.now() < deadline {
            if probe.pixel(x, y) == color { return Self.now() }
        }
        return nil
    }

    /// The middle of a mapped window's bottom band: inside the body of a tooltip drawn below
    /// its source, clear of the text.
    func bodyPixel(of window: UInt) -> (Int, Int)? {
        guard let info = probe.info(window) else { return nil }
        return (info.frame.x + info.frame.width / 2, info.frame.y + info.frame.height - 3)
    }
}

/// Medians and percentiles.
struct Stats {
    let values: [Double]
    init(_ values: [Double]) { self.values = values.sorted() }
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let index = min(values.count - 1, max(0, Int((p / 100 * Double(values.count - 1)).rounded())))
        return values[index]
    }
    var median: Double { percentile(50) }
    var p95: Double { percentile(95) }
}

/// Figures of a process from /proc.
struct ProcStats {
    let pid: Int32

    /// User + system CPU time, in clock ticks.
    var cpuTicks: Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return -1 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 3; utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return -1 }
        return user + system
    }

    private func status(_ key: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let value = line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return Int(value ?? "") ?? -1
        }
        return -1
    }

    /// Context switches (each is a wake-up of a sleeping thread, or a preemption), all threads.
    var contextSwitches: Int {
        var total = 0
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                continue
            }
            for line in text.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                total += Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? "") ?? 0
            }
        }
        return total
    }

    /// Resident memory in kB.
    var rssKB: Int { status("VmRSS") }

    /// Threads.
    var threads: Int { status("Threads") }
}
