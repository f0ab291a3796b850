import Foundation
import X11TestSupport

/// X requests and synchronous round trips per tooltip show, counted by the proxy between the
/// program and the server.
struct RequestCounts {
    let bench: Bench
    let proxy: XProxy

    func measure(_ subject: Subject) throws {
        let child = try bench.start(subject, display: proxy.display)
        defer { child.stop() }
        let probe = bench.probe
        var first: XProxy.Counts?
        var steady: [XProxy.Counts] = []
        var hides: [XProxy.Counts] = []
        for trial in 0..<11 {
            probe.movePointer(to: subject.restPoint.0, subject.restPoint.1)
            usleep(700_000)
            let before = proxy.snapshot
            guard
                bench.timeToToolTip(after: {
                    probe.movePointer(to: subject.hoverPoint.0 + trial % 2, subject.hoverPoint.1)
                }) != nil
            else { continue }
            usleep(100_000)  // anything the show still sends
            let shown = proxy.snapshot
            if trial == 0 { first = shown - before } else { steady.append(shown - before) }
            _ = bench.timeToHide(after: { probe.key(0xff1b) })
            usleep(100_000)
            hides.append(proxy.snapshot - shown)
        }
        let name = subject.name
        if let first {
            bench.report("\(name).requests_first_show", first.requests, "requests")
            bench.report("\(name).round_trips_first_show", first.roundTrips, "round-trips")
        }
        if ProcessInfo.processInfo.environment["TOOLTIP_BENCH_OPCODES"] != nil, let first {
            print("# \(name) requests of the first show by major opcode: \(first.opcodes.sorted { $0.key < $1.key })")
        }
        if ProcessInfo.processInfo.environment["TOOLTIP_BENCH_OPCODES"] != nil, let last = steady.last {
            print("# \(name) requests of one show by major opcode: \(last.opcodes.sorted { $0.key < $1.key })")
            if let hide = hides.last {
                print("# \(name) requests of one hide: \(hide.opcodes.sorted { $0.key < $1.key })")
            }
        }
        if !steady.isEmpty {
            bench.report(
                "\(name).requests_per_show_median", Stats(steady.map { Double($0.requests) }).median, "requests",
                decimals: 0)
            bench.report("\(name).requests_per_show_max", steady.map(\.requests).max() ?? 0, "requests")
            bench.report("\(name).round_trips_per_show_max", steady.map(\.roundTrips).max() ?? 0, "round-trips")
            bench.report(
                "\(name).bytes_per_show_median", Stats(steady.map { Double($0.bytesUp) }).median, "bytes", decimals: 0)
        }
        if !hides.isEmpty {
            bench.report(
                "\(name).requests_per_hide_median", Stats(hides.map { Double($0.requests) }).median, "requests",
                decimals: 0)
            bench.report("\(name).round_trips_per_hide_max", hides.map(\.roundTrips).max() ?? 0, "round-trips")
        }
    }
}
