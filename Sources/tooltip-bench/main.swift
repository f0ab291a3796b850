import CX11
import Foundation
import X11TestSupport

// tooltip-bench: the performance figures (time to first frame, show latency, X requests and
// round trips, memory), measured in one run on a private Xvfb.
// Programs are measured from outside (XTest in, MapNotify and pixels out); X requests and
// round trips through a counting proxy between the program and the server; costs inside the
// library in-process. See README ("Performance") for the method and the latest figures.

struct Options {
    var trials = 50
    var cycles = 10_000
    var shows = 1_000
    var idleSeconds = 10.0
    var startupRuns = 20
    var quick = false
    var remote = true
    var peerGTK: String?
    var peerFloor: String?
    var otherDemo: String?
    var onlyInProcess = false
    /// With `--only`: the in-process figures to measure (`motion`, `text`, `shaped`); nil: all.
    var inProcessParts: Set<String>?
    var onlyComparison = false
    /// `FONTCONFIG_FILE` of the desktop font set (`scripts/desktop-fonts.sh`): memory and first
    /// paint are measured in both sets.
    var desktopFonts: String?
    /// A plain `swift build -c release` build of `tooltip-demo`, measured beside the installed one.
    var plainDemo: String?
    var onlyFontSets = false
}

func fail(_ message: String) -> Never {
    ChildProcess.exitFailing("tooltip-bench", message)
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick":
        options.quick = true
        options.trials = 10
        options.cycles = 1_000
        options.shows = 200
        options.idleSeconds = 3
        options.startupRuns = 5
    case "--trials": options.trials = Int(arguments.popFirst() ?? "") ?? options.trials
    case "--cycles": options.cycles = Int(arguments.popFirst() ?? "") ?? options.cycles
    case "--no-remote": options.remote = false
    case "--peer-gtk": options.peerGTK = arguments.popFirst()
    case "--peer-floor": options.peerFloor = arguments.popFirst()
    case "--in-process-only": options.onlyInProcess = true
    case "--only":
        // `--only motion,text,shaped`: those in-process figures alone (for profiling).
        let parts = Set((arguments.popFirst() ?? "").split(separator: ",").map(String.init))
        guard !parts.isEmpty, parts.isSubset(of: ["motion", "text", "shaped"]) else {
            fail("--only takes motion, text or shaped, separated by commas")
        }
        options.onlyInProcess = true
        options.inProcessParts = parts
    case "--comparison-only": options.onlyComparison = true
    case "--desktop-fonts": options.desktopFonts = arguments.popFirst()
    case "--plain-demo": options.plainDemo = arguments.popFirst()
    case "--font-sets-only": options.onlyFontSets = true
    case "--other-demo": options.otherDemo = arguments.popFirst()
    case "--startup-runs": options.startupRuns = Int(arguments.popFirst() ?? "") ?? options.startupRuns
    default:
        fail(
            "usage: tooltip-bench [--quick] [--trials N] [--cycles N] [--no-remote] [--peer-floor PATH] [--peer-gtk PATH]"
                + " [--in-process-only] [--only motion,text,shaped] [--comparison-only]"
                + " [--desktop-fonts FONTCONFIG_FILE [--plain-demo PATH] [--other-demo PATH] [--font-sets-only]]"
                + " [--startup-runs N]"
        )
    }
}

func machineDescription() -> String {
    let cpu =
        (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
        .first { $0.hasPrefix("model name") }.map {
            String($0.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces)
        }
        ?? "unknown CPU"
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu)"
}

/// The whole demo: startup, latencies, idle, memory and X resources over many cycles,
/// requests per show, remote hover, and the costs inside the library.
@MainActor func measureDemo(_ demo: Subject, bench: Bench) throws {
    try bench.startup([demo], runs: options.startupRuns)

    // Latencies, idle, memory and resources on one running demo.
    let running = try bench.start(demo)
    let stats = ProcStats(pid: running.pid)
    bench.report("x11ui.rss_after_start", Double(stats.rssKB) / 1024, "MB")
    bench.hover(demo, delay: 500, grace: demo.grace)
    bench.click(demo)
    bench.idle("x11ui", pid: running.pid, seconds: options.idleSeconds)
    bench.cycles(demo, count: options.shows)
    bench.report("x11ui.rss_after_\(options.shows)_shows", Double(stats.rssKB) / 1024, "MB")
    if let window = bench.probe.window(named: "X11UI Tooltips") {
        let before = bench.probe.resourceCounts(ofClientOwning: window.id)
        let rssBefore = stats.rssKB
        let done = bench.cycles(demo, count: options.cycles)
        let after = bench.probe.resourceCounts(ofClientOwning: window.id)
        bench.report("x11ui.show_hide_cycles_done", done, "cycles")
        for type in ["WINDOW", "PIXMAP", "GC", "PICTURE", "GLYPHSET", "FONT", "COLORMAP", "CURSOR"] {
            print("x11ui.x_resources_\(type.lowercased()): \(before[type] ?? 0) -> \(after[type] ?? 0) count")
        }
        print("x11ui.x_resources_total: \(before.values.reduce(0, +)) -> \(after.values.reduce(0, +)) count")
        bench.report("x11ui.rss_growth_over_\(options.cycles)_cycles", Double(stats.rssKB - rssBefore) / 1024, "MB")
    }
    running.stop()

    // Requests and round trips per show, through a counting proxy.
    let proxy = try XProxy(serverDisplay: bench.server.number, firstDisplay: 600)
    try RequestCounts(bench: bench, proxy: proxy).measure(demo)
    proxy.stop()

    // Remote X: the hover figures through a TCP proxy that delays each direction by 20 ms.
    func remoteHover(_ subject: Subject, grace: Double) throws {
        let remote = try XProxy(
            serverDisplay: bench.server.number, firstDisplay: 700, latency: .milliseconds(20),
            tcp: true)
        defer { remote.stop() }
        let child = try bench.start(subject, display: remote.display)
        defer { child.stop() }
        bench.hover(
            subject, delay: 500, grace: grace, label: "\(subject.name).remote_20ms", trials: max(5, options.trials / 5))
    }
    if options.remote { try remoteHover(demo, grace: demo.grace) }

    // Costs inside the library.
    try InProcessBench(bench: bench).run(quick: options.quick, parts: options.inProcessParts)
}

@MainActor func main() throws {
    let demoPath = ProgramProcess.executablePath("tooltip-demo")
    guard options.onlyInProcess || FileManager.default.isExecutableFile(atPath: demoPath) else {
        fail("\(demoPath) is missing: swift build -c release --product tooltip-demo (make bench does)")
    }
    let server = try XvfbServer(width: 1280, height: 800)
    let probe = try ServerProbe(display: server.display)
    let watcher = TooltipWatcher(probe: probe)
    let bench = Bench(server: server, probe: probe, watcher: watcher, trials: options.trials)
    defer { server.stop() }
    print("# tooltip-bench \(ISO8601DateFormatter().string(from: Date()))")
    print("# machine: \(machineDescription()); Xvfb 1280x800x24 \(server.display), no window manager")
    print("# trials: \(options.trials) per latency figure; \(options.cycles) show/hide cycles")
    if options.onlyInProcess {
        try InProcessBench(bench: bench).run(quick: options.quick, parts: options.inProcessParts)
        return
    }

    // Where the demo's views are: one run with the inspector, for the whole demo and for the
    // sample scene alone.
    func viewFrames(_ arguments: [String], last: String) -> [String: Frame] {
        guard let demo = try? ProgramProcess("tooltip-demo", arguments: arguments, display: server.display),
            demo.waitForView(last) != nil
        else { fail("the demo did not start") }
        defer { demo.stop() }
        return demo.frames()
    }
    let frames = viewFrames([], last: "flip-trailing")
    guard let hover = frames["default-view"], let icon = frames["icon-home"] else { fail("demo views missing") }
    let demo = Subject(
        name: "x11ui", path: demoPath, windowTitle: "X11UI Tooltips",
        hoverPoint: (hover.midX, hover.midY), clickPoint: (icon.midX, icon.midY), restPoint: (1000, 640),
        paintedPixel: (hover.midX, hover.midY, 0x34c759),
        // Its tooltip hangs below it: out of the top edge is away, out of the bottom the gap.
        // Leaving away hides at once (hover intent): no grace to subtract.
        awayPoint: (hover.midX, hover.y - 2), gapPoint: (hover.midX, hover.maxY + 1))
    guard let sampleHover = viewFrames(["--scene", "sample"], last: "text-view")["default-view"] else {
        fail("sample scene views missing")
    }
    let sample = Subject(
        name: "x11ui_sample", path: demoPath, arguments: ["--scene", "sample"], windowTitle: "X11UI Tooltips: sample",
        hoverPoint: (sampleHover.midX, sampleHover.midY), clickPoint: nil, restPoint: (1000, 640),
        paintedPixel: (sampleHover.midX, sampleHover.midY, 0x34c759),
        awayPoint: (sampleHover.midX, sampleHover.y - 2), gapPoint: (sampleHover.midX, sampleHover.maxY + 1))

    let floor = options.peerFloor.map { path in
        Subject(
            name: "floor", path: path, windowTitle: "peer-floor", hoverPoint: (100, 40), clickPoint: nil,
            restPoint: (600, 400), paintedPixel: (20, 20, 0x34c759),
            awayPoint: (100, 5))  // out of its label's top; its tooltip hangs below
    }
    if let desktopFonts = options.desktopFonts {
        if let plain = options.plainDemo, !FileManager.default.isExecutableFile(atPath: plain) {
            fail("\(plain) is missing: swift build -c release --product tooltip-demo (make bench builds it)")
        }
        try FontSetMemory(
            bench: bench, sample: sample, demo: demo, desktopFonts: desktopFonts, plainDemo: options.plainDemo,
            floor: floor, shows: options.shows, startupRuns: options.startupRuns, otherDemo: options.otherDemo
        ).run()
        if options.onlyFontSets { return }
    }

    if !options.onlyComparison {
        try measureDemo(demo, bench: bench)
    }

    // The floor, X11UI's sample scene and GTK 3, measured the same way in the same run.
    var subjects: [Subject] = []
    if let floor { subjects.append(floor) }
    subjects.append(sample)
    if let path = options.peerGTK {
        let gtk = Subject(
            name: "gtk3", path: path, windowTitle: "peer-gtk", hoverPoint: (100, 40), clickPoint: nil,
            restPoint: (600, 400), paintedPixel: nil,
            awayPoint: (100, 5))  // out of the button's top, into the window's border
        // GTK caches its choice of GL visuals in the root window's GDK_VISUALS property: the
        // first GTK client on a server loads the GL stack to probe them (and keeps it mapped),
        // later clients read the cache. Both are reported; the figures below are the warm ones.
        probe.deleteRootProperty("GDK_VISUALS")
        watcher.drain()
        let coldStart = TooltipWatcher.now()
        let cold = try gtk.launch(display: server.display)
        if let times = bench.waitForWindow(of: gtk, since: coldStart) {
            bench.report("gtk3.first_client.startup_mapped", times.mapped, "ms")
        }
        usleep(300_000)
        bench.report("gtk3.first_client.rss_after_start", Double(ProcStats(pid: cold.pid).rssKB) / 1024, "MB")
        cold.stop()
        subjects.append(gtk)
    }
    try Comparison(
        bench: bench, subjects: subjects, floor: options.peerFloor == nil ? nil : "floor",
        startupRuns: options.startupRuns, remote: options.remote, serverNumber: server.number
    ).run()
}

ChildProcess.stopChildrenOnTermination()  // killing this tool leaves no Xvfb behind
do {
    try MainActor.assumeIsolated { try main() }
} catch {
    fail("\(error)")
}
