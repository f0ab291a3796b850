import CX11
import Foundation
import X11TestSupport

/// One program under measurement on the bench's server, seen from outside.
final class Subject {
    let name: String
    let path: String
    let arguments: [String]
    let windowTitle: String
    /// A point on the screen with a hover tooltip, one with a click tooltip (if any), and a
    /// resting place with none.
    let hoverPoint: (Int, Int)
    let clickPoint: (Int, Int)?
    let restPoint: (Int, Int)
    /// A pixel that shows the window's own paint, and its colour (nil: map time only).
    let paintedPixel: (x: Int, y: Int, color: UInt32)?
    /// Just outside the hover source on the side away from its tooltip, and just outside it on
    /// the tooltip's side (in the gap), for the two hover-intent figures; nil to skip them.
    let awayPoint: (Int, Int)?
    let gapPoint: (Int, Int)?
    /// How long a hover tooltip stays after the pointer leaves its source (ms).
    let grace: Double
    /// Set in the program's environment beside `DISPLAY` (a font set's `FONTCONFIG_FILE`).
    var environment: [String: String] = [:]

    init(
        name: String, path: String, arguments: [String] = [], windowTitle: String, hoverPoint: (Int, Int),
        clickPoint: (Int, Int)?, restPoint: (Int, Int), paintedPixel: (x: Int, y: Int, color: UInt32)?,
        awayPoint: (Int, Int)? = nil, gapPoint: (Int, Int)? = nil, grace: Double = 0
    ) {
        self.awayPoint = awayPoint
        self.gapPoint = gapPoint
        self.grace = grace
        self.name = name
        self.path = path
        self.arguments = arguments
        self.windowTitle = windowTitle
        self.hoverPoint = hoverPoint
        self.clickPoint = clickPoint
        self.restPoint = restPoint
        self.paintedPixel = paintedPixel
    }

    func launch(display: String) throws -> ChildProcess {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        env.removeValue(forKey: "X11UI_INSPECT")
        env.merge(environment) { $1 }
        return try ChildProcess(path, arguments, environment: env)
    }

    /// The same program under another name, another executable (another build of it) and
    /// more environment.
    func variant(name: String, path: String? = nil, environment more: [String: String]) -> Subject {
        let copy = Subject(
            name: name, path: path ?? self.path, arguments: arguments, windowTitle: windowTitle,
            hoverPoint: hoverPoint, clickPoint: clickPoint, restPoint: restPoint, paintedPixel: paintedPixel,
            awayPoint: awayPoint, gapPoint: gapPoint, grace: grace)
        copy.environment = environment.merging(more) { $1 }
        return copy
    }
}

/// Every figure reported so far, by name, for the comparison with the floor at the end.
final class Figures {
    private(set) var values: [String: (value: Double, unit: String)] = [:]

    func record(_ name: String, _ value: Double, _ unit: String) { values[name] = (value, unit) }

    subscript(name: String) -> (value: Double, unit: String)? { values[name] }
}

/// The measurements, each printing `name: value unit` lines.
struct Bench {
    let server: XvfbServer
    let probe: ServerProbe
    let watcher: TooltipWatcher
    let trials: Int
    let figures = Figures()

    func report(_ name: String, _ value: Double, _ unit: String, decimals: Int = 2) {
        let formatted = value.isNaN ? "n/a" : String(format: "%.\(decimals)f", value)
        print("\(name): \(formatted) \(unit)")
        fflush(nil)  // one figure per line as it is measured, also into a pipe or a file
        if !value.isNaN { figures.record(name, value, unit) }
    }

    func report(_ name: String, _ value: Int, _ unit: String) {
        print("\(name): \(value) \(unit)")
        fflush(nil)  // one figure per line as it is measured, also into a pipe or a file
        figures.record(name, Double(value), unit)
    }

    /// Waits for a top-level window to map and (when known) to show its paint; returns ms.
    func waitForWindow(of subject: Subject, since start: Double) -> (mapped: Double, painted: Double?)? {
        let deadline = TooltipWatcher.now() + 10_000
        var event = XEvent()
        var mapped: Double?
        while TooltipWatcher.now() < deadline, mapped == nil {
            while XPending(probe.display) > 0 {
                XNextEvent(probe.display, &event)
                if event.type == MapNotify, event.xmap.override_redirect == 0 { mapped = TooltipWatcher.now() }
            }
            if mapped == nil {
                var fd = pollfd(fd: XConnectionNumber(probe.display), events: Int16(POLLIN), revents: 0)
                _ = poll(&fd, 1, 2)
            }
        }
        guard let mapped else { return nil }
        var painted: Double?
        if let pixel = subject.paintedPixel {
            painted = watcher.waitForPixel(pixel.x, pixel.y, color: pixel.color, timeout: 5000)
        }
        return (mapped - start, painted.map { $0 - start })
    }

    /// exec → first window mapped (and painted), median of `runs` per subject. Several
    /// subjects take turns, each run in a rotated order, so that load on the machine falls on
    /// all of them alike.
    func startup(_ subjects: [Subject], runs: Int, display: String? = nil, label: String = "") throws {
        var mapped = [[Double]](repeating: [], count: subjects.count)
        var painted = [[Double]](repeating: [], count: subjects.count)
        for run in 0..<runs {
            for turn in 0..<subjects.count {
                let index = (run + turn) % subjects.count
                watcher.drain()
                let start = TooltipWatcher.now()
                let child = try subjects[index].launch(display: display ?? server.display)
                if let times = waitForWindow(of: subjects[index], since: start) {
                    mapped[index].append(times.mapped)
                    if let p = times.painted { painted[index].append(p) }
                }
                child.stop()
                usleep(100_000)
            }
        }
        for (index, subject) in subjects.enumerated() {
            let name = subject.name + label
            report("\(name).startup_mapped_median", Stats(mapped[index]).median, "ms")
            if !painted[index].isEmpty {
                report("\(name).startup_painted_median", Stats(painted[index]).median, "ms")
                report("\(name).startup_painted_p95", Stats(painted[index]).p95, "ms")
            }
        }
    }

    /// Starts a subject and waits until its window shows.
    func start(_ subject: Subject, display: String? = nil) throws -> ChildProcess {
        watcher.drain()
        let child = try subject.launch(display: display ?? server.display)
        guard waitForWindow(of: subject, since: TooltipWatcher.now()) != nil else {
            throw XvfbServer.StartError(description: "\(subject.name) did not show its window")
        }
        usleep(300_000)
        return child
    }

    /// The time from an action to the tooltip mapped and painted (ms), or nil.
    func timeToToolTip(after action: () -> Void) -> (mapped: Double, painted: Double, window: UInt)? {
        watcher.drain()
        let start = TooltipWatcher.now()
        action()
        guard let (mapTime, window) = watcher.waitFor(map: true) else { return nil }
        var paintTime = mapTime
        if let (x, y) = watcher.bodyPixel(of: window),
            let painted = watcher.waitForPixel(x, y, color: 0x2c2c2e, timeout: 200)
        {
            paintTime = painted
        }
        return (mapTime - start, paintTime - start, window)
    }

    /// The time from an action to the tooltip unmapped (ms).
    func timeToHide(after action: () -> Void) -> Double? {
        watcher.drain()
        let start = TooltipWatcher.now()
        action()
        return watcher.waitFor(map: false).map { $0.time - start }
    }

    /// Hover: pointer enters → tooltip mapped and painted, minus the nominal delay; then, in
    /// turn: the pointer jumps far away → unmapped (minus `grace`, the time the subject keeps a
    /// tooltip on purpose); Escape → unmapped; the pointer steps just out of the source away from
    /// the tooltip → unmapped; the pointer steps just out toward the tooltip and stops in the
    /// gap → unmapped (the hover-intent timeout).
    func hover(_ subject: Subject, delay: Double, grace: Double, label: String? = nil, trials: Int? = nil) {
        let name = label ?? subject.name
        var shows: [Double] = []
        var painted: [Double] = []
        var leaves: [Double] = []
        var escapes: [Double] = []
        var aways: [Double] = []
        var stops: [Double] = []
        for trial in -1..<(trials ?? self.trials) {  // trial -1 warms up and is not counted
            probe.movePointer(to: subject.restPoint.0, subject.restPoint.1)
            usleep(700_000)  // out of browse mode
            guard
                let shown = timeToToolTip(after: {
                    probe.movePointer(to: subject.hoverPoint.0 + trial % 2, subject.hoverPoint.1)
                })
            else { continue }
            if trial >= 0 {
                shows.append(shown.mapped - delay)
                painted.append(shown.painted - delay)
            }
            usleep(50_000)
            let away = subject.awayPoint
            let gap = subject.gapPoint
            if trial < 0 {
                _ = timeToHide(after: { probe.key(0xff1b) })
            } else if trial % 4 == 0 {
                if let hidden = timeToHide(after: { probe.movePointer(to: subject.restPoint.0, subject.restPoint.1) }) {
                    leaves.append(hidden - grace)
                }
            } else if trial % 4 == 2, let away {
                if let hidden = timeToHide(after: { probe.movePointer(to: away.0, away.1) }) { aways.append(hidden) }
            } else if trial % 4 == 3, let gap {
                if let hidden = timeToHide(after: { probe.movePointer(to: gap.0, gap.1) }) { stops.append(hidden) }
            } else if let hidden = timeToHide(after: { probe.key(0xff1b) }) {
                escapes.append(hidden)
            }
        }
        report("\(name).hover_show_overhead_median", Stats(shows).median, "ms")
        report("\(name).hover_show_overhead_p95", Stats(shows).p95, "ms")
        if subject.paintedPixel != nil {
            report("\(name).hover_show_painted_overhead_median", Stats(painted).median, "ms")
            report("\(name).hover_show_painted_overhead_p95", Stats(painted).p95, "ms")
        }
        report("\(name).hover_trials", shows.count, "shows")
        if !leaves.isEmpty {
            report("\(name).hide_on_leave_overhead_median", Stats(leaves).median, "ms")
            report("\(name).hide_on_leave_overhead_p95", Stats(leaves).p95, "ms")
        }
        if !aways.isEmpty {
            report("\(name).hide_on_leave_away_median", Stats(aways).median, "ms")
            report("\(name).hide_on_leave_away_p95", Stats(aways).p95, "ms")
        }
        if !stops.isEmpty {
            report("\(name).hide_after_stopping_short_median", Stats(stops).median, "ms")
            report("\(name).hide_after_stopping_short_p95", Stats(stops).p95, "ms")
        }
        if !escapes.isEmpty {
            report("\(name).hide_on_escape_median", Stats(escapes).median, "ms")
            report("\(name).hide_on_escape_p95", Stats(escapes).p95, "ms")
        }
    }

    /// Click: press and release → tooltip mapped and painted; click again → unmapped.
    func click(_ subject: Subject) {
        guard let point = subject.clickPoint else { return }
        var shows: [Double] = []
        var hides: [Double] = []
        probe.movePointer(to: point.0, point.1)
        usleep(100_000)
        for _ in 0..<trials {
            if let shown = timeToToolTip(after: { probe.click() }) { shows.append(shown.painted) }
            usleep(20_000)
            if let hidden = timeToHide(after: { probe.click() }) { hides.append(hidden) }
            usleep(20_000)
        }
        report("\(subject.name).click_show_median", Stats(shows).median, "ms")
        report("\(subject.name).click_show_p95", Stats(shows).p95, "ms")
        report("\(subject.name).click_hide_median", Stats(hides).median, "ms")
        report("\(subject.name).click_hide_p95", Stats(hides).p95, "ms")
    }

    /// Show/hide cycles by clicking (no delays involved); returns how many completed.
    @discardableResult
    func cycles(_ subject: Subject, count: Int) -> Int {
        guard let point = subject.clickPoint else { return 0 }
        probe.movePointer(to: point.0, point.1)
        usleep(50_000)
        var done = 0
        for _ in 0..<count {
            watcher.drain()
            probe.click()
            guard watcher.waitFor(map: true, timeout: 2000) != nil else { continue }
            probe.click()
            guard watcher.waitFor(map: false, timeout: 2000) != nil else { continue }
            done += 1
        }
        return done
    }

    /// CPU ticks and wake-ups of an idle process over `seconds`.
    func idle(_ name: String, pid: Int32, seconds: Double) {
        let stats = ProcStats(pid: pid)
        probe.movePointer(to: server.width - 1, server.height - 1)
        usleep(1_000_000)
        let ticks = stats.cpuTicks
        let switches = stats.contextSwitches
        usleep(UInt32(seconds * 1_000_000))
        report("\(name).idle_cpu_ticks_\(Int(seconds))s", stats.cpuTicks - ticks, "ticks")
        report("\(name).idle_wakeups_\(Int(seconds))s", stats.contextSwitches - switches, "wakeups")
        report("\(name).threads", stats.threads, "threads")
    }
}
