import CX11
import Dispatch
import X11UI

#if canImport(Glibc)
    import Glibc
#endif

// Swift's own concurrency bringing results to an X11UI window while the run loop runs: a task on
// the main actor, a detached task that hands its result back with `await MainActor.run`,
// `DispatchQueue.main.asyncAfter`, an `AsyncStream` fed from another thread, and a repeating
// timer. Each arrival updates the window's title, a label, and the tooltip shown on the button
// (in place). `--loop` picks who drives X11UI: its own `run()` (or `run(until:)`, `run(for:)`
// in slices), a host loop that reads events with `XNextEvent` and passes them to `handle(_:)`,
// or a host loop that polls `app.fileDescriptor` and calls `processPending()`.

func die(_ message: String) -> Never {
    var bytes = Array("async-example: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let usage = "usage: async-example [--loop run|until|for|handle|poll] [--report-latency]"
var loop = "run"
var reportLatency = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--loop": loop = arguments.popFirst() ?? ""
    case "--report-latency": reportLatency = true
    default: die("unknown argument \"\(argument)\"\n\(usage)")
    }
}
guard ["run", "until", "for", "handle", "poll"].contains(loop) else { die(usage) }

guard let display = XOpenDisplay(nil) else { die("cannot open the display") }
let app = ["handle", "poll"].contains(loop) ? Application(display: display) : try Application()

/// What has arrived so far, by the way it came.
@MainActor final class Arrivals: ToolTipInteractionDelegate {
    var names: Set<String> = []
    var summary: String { names.isEmpty ? "waiting" : names.sorted().joined(separator: ", ") }

    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        ToolTipConfiguration(toolTip: "Arrived: \(summary)")
    }
}

let arrivals = Arrivals()
let status = Label("Arrived: waiting")
status.identifier = "status"
let button = Button(title: "Results")
button.identifier = "results-button"
let tip = ToolTipInteraction(trigger: .click, placement: .bottom, defaultToolTip: "")
tip.delegate = arrivals
button.addInteraction(tip)
let window = Window(title: "async-example: waiting", size: Size(width: 360, height: 160))
window.content = VStack(spacing: 12, padding: 16) {
    status; button
}

@MainActor func arrived(_ name: String) {
    arrivals.names.insert(name)
    status.text = "Arrived: \(arrivals.summary)"
    window.title = "async-example: \(arrivals.summary)"
    tip.setNeedsUpdate()  // the shown tooltip re-renders in place
}

window.show()
// The tooltip shows once the window is mapped, and stays while the results come in.
app.schedule(after: .milliseconds(100)) { tip.present() }

// 1. A task on the main actor that sleeps (Task.sleep, served by Dispatch's threads), then
//    waits in a loop of its own for a moment, as a modal dialog would: events, timers and
//    paints go on; other jobs for the main actor wait until it returns.
Task { @MainActor in
    try await Task.sleep(for: .milliseconds(300))
    try app.run(for: .milliseconds(50))
    arrived("task")
}
// 2. Work off the main actor, with its result handed back.
Task.detached {
    let sum = (1...10_000).reduce(0, +)
    try await Task.sleep(for: .milliseconds(400))
    await MainActor.run { arrived("detached \(sum)") }
}
// 3. Dispatch's main queue.
DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(500)) { arrived("dispatch") }
// 4. An async sequence fed from another thread, consumed on the main actor.
let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
Task.detached {
    for item in 1...3 {
        try await Task.sleep(for: .milliseconds(150))
        continuation.yield(item)
    }
    continuation.finish()
}
Task { @MainActor in
    var received: [Int] = []
    for await item in stream { received.append(item) }
    arrived("stream \(received.map(String.init).joined(separator: "+"))")
}
// 5. A repeating timer that cancels itself after three ticks.
var ticks = 0
app.schedule(every: .milliseconds(100), startingAfter: .milliseconds(200)) { timer in
    ticks += 1
    if ticks == 3 {
        timer.cancel()
        arrived("timer")
    }
}

// 6. How long a job waits between being queued for the main actor and running: twenty hops
//    from another thread, reported on standard error with `--report-latency`.
if reportLatency {
    Task.detached {
        var samples: [Duration] = []
        for _ in 0..<20 {
            let queued = MonotonicInstant.now()
            let waited = await MainActor.run { MonotonicInstant.now() - queued }
            samples.append(waited)
            try await Task.sleep(for: .milliseconds(5))
        }
        samples.sort()
        let median = samples[samples.count / 2].milliseconds
        let worst = samples[samples.count - 1].milliseconds
        var line = Array("async-example: main-actor latency median \(median) ms max \(worst) ms\n".utf8)
        _ = line.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

// MARK: - The loops

switch loop {
case "run":
    do { try app.run() } catch { die("\(error)") }
case "until", "for":
    // The loop in slices, as tests and tours run it: the jobs run inside each slice too.
    var closed = false
    window.onClose = { closed = true }
    do {
        while !closed {
            if loop == "until" {
                try app.run(until: { closed }, timeout: .seconds(60))
            } else {
                try app.run(for: .milliseconds(250))
            }
        }
    } catch {
        die("\(error)")
    }
case "handle":
    // The host reads the events; X11UI gets its own and runs its jobs after each batch.
    var running = true
    window.onClose = { running = false }
    var event = XEvent()
    while running {
        while XPending(display) > 0 {
            XNextEvent(display, &event)
            _ = app.handle(event)
        }
        app.processJobs()
        app.flush()
        if app.isConnectionLost { die("lost the connection to the X server") }
        guard running, XPending(display) == 0 else { continue }
        let timeout = app.nextDeadline.map { Int32(max(0, ($0 - .now()).milliseconds.rounded(.up))) } ?? -1
        var descriptor = pollfd(fd: app.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, timeout)
    }
default:
    // The host polls one descriptor; X11UI reads, handles and runs its jobs.
    var running = true
    window.onClose = { running = false }
    while running {
        app.processPending()
        if app.isConnectionLost { die("lost the connection to the X server") }
        guard running else { break }
        let timeout = app.nextDeadline.map { Int32(max(0, ($0 - .now()).milliseconds.rounded(.up))) } ?? -1
        var descriptor = pollfd(fd: app.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, timeout)
    }
}
app.close()
XCloseDisplay(display)
