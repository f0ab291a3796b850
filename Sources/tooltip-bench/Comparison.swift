import Foundation
import X11TestSupport

/// Programs measured side by side in one run, the same way: the floor (a C client on X11UI's
/// own libraries, `scripts/floor-peer.c`), X11UI's sample scene, and peers such as GTK 3.
/// Each figure is then printed beside the floor's as a ratio.
///
/// Every figure is measured for every subject by the same code, so a figure added to
/// `Bench.hover` or to `measure(_:)` appears for all of them and in the table.
@MainActor
struct Comparison {
    let bench: Bench
    let subjects: [Subject]
    /// The subject the others are compared with (its name), if measured.
    let floor: String?
    let startupRuns: Int
    let remote: Bool
    let serverNumber: Int

    /// The figures of the table, in order; hides are also compared by difference.
    static let figures: [(name: String, label: String)] = [
        ("startup_mapped_median", "startup: exec → first window mapped"),
        ("startup_painted_median", "startup: exec → first window painted"),
        ("startup_round_trips_before_map", "round trips before the first window maps"),
        ("startup_round_trips_total", "round trips until started (300 ms after the map)"),
        ("startup_requests_total", "requests until started"),
        ("startup_connections", "connections to the server at startup"),
        ("hover_show_overhead_median", "hover show overhead beyond the delay, mapped"),
        ("hover_show_painted_overhead_median", "hover show overhead beyond the delay, painted"),
        ("hide_on_leave_overhead_median", "hide after leaving (beyond any grace)"),
        ("hide_on_leave_away_median", "hide after leaving away from the tooltip"),
        ("hide_after_stopping_short_median", "hide after stopping short in the gap"),
        ("hide_on_escape_median", "hide on Escape"),
        ("requests_per_show_median", "X requests per show"),
        ("round_trips_per_show_max", "round trips per show"),
        ("rss_after_start", "RSS after start"),
        ("rss_with_tooltip", "RSS with a tooltip shown"),
        ("remote_20ms.startup_mapped_median", "startup through a 20 ms proxy, mapped"),
        ("remote_20ms.startup_painted_median", "startup through a 20 ms proxy, painted"),
        ("remote_20ms.hover_show_overhead_median", "hover show overhead through a 20 ms proxy"),
    ]

    func run() throws {
        guard !subjects.isEmpty else { return }
        try bench.startup(subjects, runs: startupRuns)
        for subject in subjects {
            try measure(subject)
        }
        if remote {
            try remoteFigures()
        }
        printTable()
    }

    /// Memory and latencies on one running program, then its requests through the proxy.
    func measure(_ subject: Subject) throws {
        let child = try bench.start(subject)
        bench.report("\(subject.name).rss_after_start", Double(ProcStats(pid: child.pid).rssKB) / 1024, "MB")
        bench.hover(subject, delay: 500, grace: subject.grace)
        if let rss = rssWithToolTip(subject, pid: child.pid) {
            bench.report("\(subject.name).rss_with_tooltip", rss, "MB")
        }
        child.stop()
        let proxy = try XProxy(serverDisplay: serverNumber, firstDisplay: 600)
        defer { proxy.stop() }
        try startupRoundTrips(subject, proxy: proxy)
        try RequestCounts(bench: bench, proxy: proxy).measure(subject)
    }

    /// Resident memory (MB) while a hover tooltip is shown.
    func rssWithToolTip(_ subject: Subject, pid: Int32) -> Double? {
        let probe = bench.probe
        probe.movePointer(to: subject.restPoint.0, subject.restPoint.1)
        usleep(700_000)
        guard bench.timeToToolTip(after: { probe.movePointer(to: subject.hoverPoint.0, subject.hoverPoint.1) }) != nil
        else { return nil }
        usleep(100_000)
        let rss = Double(ProcStats(pid: pid).rssKB) / 1024
        _ = bench.timeToHide(after: { probe.key(0xff1b) })
        return rss
    }

    /// Requests and synchronous round trips from exec until the first window maps, and until
    /// the program has settled after it (the server's connection setup is not counted).
    func startupRoundTrips(_ subject: Subject, proxy: XProxy) throws {
        var beforeMap: [Double] = []
        var total: [Double] = []
        var requests: [Double] = []
        var connections: [Double] = []
        for _ in 0..<3 {
            proxy.resetFirstMap()
            let before = proxy.snapshot
            let child = try bench.start(subject, display: proxy.display)  // waits 300 ms after the map
            let after = proxy.snapshot - before
            if let atMap = proxy.countsAtFirstMap {
                beforeMap.append(Double((atMap - before).roundTrips))
            }
            total.append(Double(after.roundTrips))
            requests.append(Double(after.requests))
            connections.append(Double(after.connections))
            child.stop()
            usleep(100_000)
        }
        bench.report(
            "\(subject.name).startup_round_trips_before_map", Stats(beforeMap).median, "round-trips", decimals: 0)
        bench.report("\(subject.name).startup_round_trips_total", Stats(total).median, "round-trips", decimals: 0)
        bench.report("\(subject.name).startup_requests_total", Stats(requests).median, "requests", decimals: 0)
        bench.report("\(subject.name).startup_connections", Stats(connections).median, "connections", decimals: 0)
    }

    /// Startup and hover through a TCP proxy that delays each direction by 20 ms.
    func remoteFigures() throws {
        let remote = try XProxy(
            serverDisplay: serverNumber, firstDisplay: 700, latency: .milliseconds(20),
            tcp: true)
        defer { remote.stop() }
        try bench.startup(subjects, runs: max(3, startupRuns / 4), display: remote.display, label: ".remote_20ms")
        for subject in subjects {
            let child = try bench.start(subject, display: remote.display)
            defer { child.stop() }
            bench.hover(
                subject, delay: 500, grace: subject.grace, label: "\(subject.name).remote_20ms",
                trials: max(5, bench.trials / 5))
        }
    }

    /// Each figure for every subject, with its ratio to the floor's (and for hides the
    /// difference), as `compare.` lines.
    func printTable() {
        print("# comparison with the floor (\(floor ?? "none")); ratios are subject / floor")
        for figure in Self.figures {
            let cells = subjects.compactMap { subject -> String? in
                guard let value = bench.figures["\(subject.name).\(figure.name)"] else { return nil }
                var cell = "\(subject.name) \(Self.format(value.value)) \(value.unit)"
                if let floor, subject.name != floor, let base = bench.figures["\(floor).\(figure.name)"] {
                    if base.value > 0 {
                        cell += String(format: " (%.2fx", value.value / base.value)
                    } else {
                        cell += " ("
                    }
                    if figure.name.hasPrefix("hide") {
                        cell += String(format: ", %+.2f ms", value.value - base.value)
                    }
                    cell += ")"
                    if base.value > 0 {
                        bench.figures.record(
                            "\(subject.name).\(figure.name).vs_floor", value.value / base.value, "x")
                    }
                }
                return cell
            }
            guard !cells.isEmpty else { continue }
            print("compare.\(figure.name): \(cells.joined(separator: " | "))  # \(figure.label)")
        }
        fflush(nil)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) >= 10 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    }
}
