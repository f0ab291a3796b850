import CX11
import Foundation
import X11TestSupport
import X11UI

/// Measurements inside one X11UI process: event handling and tooltip rendering costs, timed
/// with the monotonic clock around the library's own entry points.
@MainActor
struct InProcessBench {
    let bench: Bench

    /// A grid of `rows` × `columns` views, each with a tooltip, in stacks (searched by binary
    /// search) or in one plain view (searched one by one).
    func grid(rows: Int, columns: Int, stacked: Bool) -> View {
        func cell(_ r: Int, _ c: Int) -> View {
            let view = View()
            view.toolTip = "Cell \(r), \(c)"
            view.preferredSize = Size(width: 12, height: 7)
            return view
        }
        if stacked {
            return VStack(spacing: 0, alignment: .start) {
                for r in 0..<rows {
                    HStack(spacing: 0, alignment: .start) {
                        for c in 0..<columns { cell(r, c) }
                    }
                }
            }
        }
        let container = View()
        for r in 0..<rows {
            for c in 0..<columns {
                let view = cell(r, c)
                view.frame = Rect(x: Double(c * 12), y: Double(r * 7), width: 12, height: 7)
                container.addSubview(view)
            }
        }
        return container
    }

    /// The CPU time this thread has used, in ms: unlike the wall clock, it leaves out the time
    /// other programs on a busy machine took the core.
    static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
    }

    /// Time per pointer-motion event through the whole path (translation, hit test, hover
    /// tracking, tooltip resolution, state machine, timers), in µs: wall clock and the thread's
    /// CPU time.
    func motionCost(app: Application, stacked: Bool, events count: Int) throws -> (wall: Double, cpu: Double) {
        let rows = 100
        let columns = 100
        let window = Window(
            title: "motion", size: Size(width: 1200, height: 700),
            content: grid(rows: rows, columns: columns, stacked: stacked),
            application: app)
        window.requestedPosition = Point(x: 0, y: 0)
        window.show()
        _ = try app.run(until: { window.isVisible && window.screenOrigin != nil }, timeout: .seconds(5))
        try app.run(for: .milliseconds(100))
        // A path across the grid: a few events inside each cell, then on to the next one.
        var events: [XEvent] = []
        events.reserveCapacity(count)
        var x = 3
        var y = 2
        for i in 0..<count {
            var event = XEvent()
            event.xmotion.type = MotionNotify
            event.xmotion.window = window.windowID?.rawValue ?? 0
            event.xmotion.root = 0
            event.xmotion.x = Int32(x)
            event.xmotion.y = Int32(y)
            event.xmotion.x_root = Int32(x)
            event.xmotion.y_root = Int32(y)
            event.xmotion.same_screen = 1
            event.xmotion.time = UInt(i)
            events.append(event)
            x += 4
            if x >= columns * 12 {
                x = 3 + (i % 7)
                y = (y + 7) % (rows * 7)
            }
        }
        for event in events.prefix(2000) { _ = app.handle(event) }
        let start = TooltipWatcher.now()
        let cpuStart = Self.threadCPUTime()
        for event in events { _ = app.handle(event) }
        let cpu = Self.threadCPUTime() - cpuStart
        let elapsed = TooltipWatcher.now() - start
        window.close()
        try app.run(for: .milliseconds(50))
        return (elapsed * 1000 / Double(count), cpu * 1000 / Double(count))
    }

    /// Layout and rendering of a tooltip with `characters` characters of text, shown and
    /// hidden `runs` times; ms per show (the server has processed everything when timed).
    /// Latin words, for the budget's 100,000-character tooltip.
    static let latinWords = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
    /// Hindi words and emoji sequences: every word goes through HarfBuzz.
    static let shapedWords = ["नमस्ते", "क्षमा", "हिन्दी", "किताब", "👨‍👩‍👧", "विद्यालय", "🇰🇷", "👍🏽"]

    func hugeToolTip(
        app: Application, characters: Int, runs: Int, words: [String] = latinWords
    ) throws -> (median: Double, p95: Double) {
        var text = ""
        var count = 0  // characters so far (String.count would walk the whole text each time)
        var i = 0
        while count < characters {
            let word = words[i % words.count] + " "
            text += word
            count += word.count
            i += 1
        }
        text = String(text.prefix(characters))
        let source = View()
        source.preferredSize = Size(width: 80, height: 30)
        let interaction = ToolTipInteraction(defaultToolTip: text)
        source.addInteraction(interaction)
        let window = Window(
            title: "huge", size: Size(width: 300, height: 100), content: VStack(padding: 20) { source },
            application: app)
        window.requestedPosition = Point(x: 0, y: 0)
        window.show()
        _ = try app.run(until: { window.isVisible && window.screenOrigin != nil }, timeout: .seconds(5))
        var times: [Double] = []
        for run in 0...runs {
            // Each run a different text, so that every show lays out and paints (a tooltip shown
            // again with the text it was painted with is only mapped).
            interaction.defaultToolTip = String(text.dropLast()) + String(run % 10)
            app.sync()
            let start = TooltipWatcher.now()
            interaction.present()
            app.sync()
            let elapsed = TooltipWatcher.now() - start
            if run > 0 { times.append(elapsed) }  // the first opens the window and fonts
            interaction.dismiss()
            try app.run(for: .milliseconds(5))
        }
        window.close()
        return (Stats(times).median, Stats(times).p95)
    }

    /// Measures the in-process figures; `parts` (`motion`, `text`, `shaped`) limits them to
    /// those, nil measures all.
    func run(quick: Bool, parts: Set<String>? = nil) throws {
        let app = try Application(displayName: bench.server.display)
        app.quitsWhenLastWindowCloses = false
        defer { app.close() }
        let events = quick ? 20_000 : 100_000
        if parts?.contains("motion") ?? true {
            let stacks = try motionCost(app: app, stacked: true, events: events)
            bench.report("motion_cost_10000_views_stacks", stacks.wall, "us/event", decimals: 2)
            bench.report("motion_cost_10000_views_stacks_cpu", stacks.cpu, "us/event", decimals: 2)
            let flat = try motionCost(app: app, stacked: false, events: events / 4)
            bench.report("motion_cost_10000_views_flat", flat.wall, "us/event", decimals: 2)
            bench.report("motion_cost_10000_views_flat_cpu", flat.cpu, "us/event", decimals: 2)
        }
        if parts?.contains("text") ?? true {
            let huge = try hugeToolTip(app: app, characters: 100_000, runs: quick ? 5 : 20)
            bench.report("tooltip_100000_chars_layout_render_median", huge.median, "ms")
            bench.report("tooltip_100000_chars_layout_render_p95", huge.p95, "ms")
        }
        if parts?.contains("shaped") ?? true {
            let shaped = try hugeToolTip(
                app: app, characters: 100_000, runs: quick ? 5 : 20, words: Self.shapedWords)
            bench.report("tooltip_100000_chars_shaped_layout_render_median", shaped.median, "ms")
            bench.report("tooltip_100000_chars_shaped_layout_render_p95", shaped.p95, "ms")
        }
    }
}
