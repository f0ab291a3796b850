import CX11
import Foundation
import Testing
import X11TestSupport

@_spi(Testing) @testable import X11UI

/// Swift concurrency and Dispatch delivering results to X11UI windows and a shown tooltip while
/// X11UI's run loop runs, from outside: `async-example` under each way of driving the loop.
///
/// A test runner's main actor is served by Dispatch's worker threads (its `async` main calls
/// `dispatch_main()`), so the main actor's jobs cannot run while a test blocks in the loop; a
/// separate program, whose main thread runs X11UI's loop as a real program's does, is the honest
/// setting.
@Suite(.serialized)
struct AsyncExampleTests {
    static let arrivals = "detached 50005000, dispatch, stream 1+2+3, task, timer"

    @Test(arguments: ["run", "until", "for", "handle", "poll"])
    func tasksDispatchAndStreamsUpdateTheWindowAndTheShownTooltip(loop: String) throws {
        let session = try ProgramSession(
            "async-example", arguments: ["--loop", loop, "--report-latency"], readyView: "results-button")
        let probe = session.probe
        let window = try #require(session.program.windows.first)
        let tip = try #require(session.waitForToolTip(), "the results tooltip shows")
        // Every way in arrives: the window's title and the tooltip's text list them all, and
        // the tooltip is the same mapped window all along (updated in place, never hidden).
        var staysMapped = true
        let arrived = wait(timeout: 10) {
            staysMapped = staysMapped && probe.mappedPopups().contains { $0.id == tip.id }
            return probe.string(window, "_NET_WM_NAME") == "async-example: \(Self.arrivals)"
                && probe.string(tip.id, "_NET_WM_NAME") == "Arrived: \(Self.arrivals)"
        }
        #expect(
            arrived,
            "title \(probe.string(window, "_NET_WM_NAME") ?? "-"), tooltip \(probe.string(tip.id, "_NET_WM_NAME") ?? "-")"
        )
        #expect(staysMapped)
        #expect(probe.mappedPopups().map(\.id) == [tip.id])
        // A job queued for the main actor from another thread runs within a millisecond.
        var report = ""
        #expect(
            wait(timeout: 5) {
                report = session.program.standardError
                return report.contains("main-actor latency")
            })
        let median = report.split(separator: " ").firstIndex(of: "median").flatMap {
            Double(report.split(separator: " ")[$0 + 1])
        }
        #expect((median ?? .infinity) < 1.0, "\(report)")
    }
}

/// The demo's cart filled by an async stream while its hover tooltip shows.
@Suite(.serialized)
struct DemoCartStreamTests {
    @Test func theStreamedCartUpdatesTheShownTooltipInPlace() throws {
        // The stream starts with the program and would end after ten items, 2.5 s: on a loaded
        // host the tooltip may show after its last item, and no update would come to see. A
        // longer stream keeps items arriving however long the start and the hover take.
        let session = try ProgramSession(
            arguments: ["--scene", "sample", "--stream-cart", "250", "--stream-items", "1000"],
            readyView: "cart-button")
        let probe = session.probe
        let cart = try session.frame("cart-button")
        probe.movePointer(to: cart.midX, cart.midY)
        let tip = try #require(session.waitForToolTip(), "the cart's tooltip shows")
        func count() -> Int? {
            guard let text = probe.string(tip.id, "_NET_WM_NAME") else { return nil }
            if text.hasSuffix("Your cart is empty.") { return 0 }
            if text.hasSuffix("1 item.") { return 1 }
            let words = text.split(separator: " ")
            return words.count >= 2 ? Int(words[words.count - 2]) : nil
        }
        let first = try #require(count(), "\(probe.string(tip.id, "_NET_WM_NAME") ?? "-")")
        // Items arrive from the stream; the same tooltip window shows each new count.
        var staysMapped = true
        #expect(
            wait(timeout: 5) {
                staysMapped = staysMapped && probe.mappedPopups().contains { $0.id == tip.id }
                return (count() ?? 0) >= first + 2
            })
        #expect(staysMapped)
        #expect(probe.mappedPopups().map(\.id) == [tip.id])
    }
}

/// embed-example's loop ends at once on `q` and on the window manager's close, and the
/// embedding article shows that loop as it is.
@Suite(.serialized)
struct EmbedExampleQuitTests {
    func start() throws -> (ProgramSession, UInt) {
        let session = try ProgramSession("embed-example", readyView: "embedded-button", alsoReady: ["host-chart"])
        let probe = session.probe
        let host = try #require(
            probe.topLevelWindows().first { probe.string($0.id, "WM_CLASS")?.hasPrefix("embed-example") == true })
        return (session, host.id)
    }

    @Test func qQuits() throws {
        let (session, _) = try start()
        let chart = try session.frame("host-chart")
        // Over the host's window (no window manager: the focus follows the pointer).
        session.probe.movePointer(to: chart.x + 5, chart.y - 20)
        session.probe.key(0x71)
        #expect(session.program.waitForExit(timeout: 3) == 0)
    }

    @Test func theWindowManagersCloseQuits() throws {
        let (session, host) = try start()
        let probe = session.probe
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = host
        event.xclient.message_type = probe.atom("WM_PROTOCOLS")
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(probe.atom("WM_DELETE_WINDOW"))
        XSendEvent(probe.display, host, 0, 0, &event)
        probe.sync()
        #expect(session.program.waitForExit(timeout: 3) == 0)
    }

    @Test func theArticlesLoopIsTheExamplesLoop() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/X11UI/X11UI.docc/EmbeddingInAnXlibProgram.md"),
            encoding: .utf8)
        let example = try String(
            contentsOf: root.appendingPathComponent("Sources/embed-example/main.swift"), encoding: .utf8)
        let after = try #require(article.range(of: "This is `embed-example`'s loop"))
        let start = try #require(article.range(of: "```swift\n", range: after.upperBound..<article.endIndex))
        let end = try #require(article.range(of: "```", range: start.upperBound..<article.endIndex))
        let loop = String(article[start.upperBound..<end.lowerBound])
        #expect(loop.contains("while running"))
        #expect(example.contains(loop))
    }
}

/// Descriptors and timers in the run loop, in-process.
@Suite(.serialized)
@MainActor
final class RunLoopSourceTests {
    let display: InProcessDisplay
    var pipeEnds: [Int32] = [-1, -1]

    init() throws {
        display = try InProcessDisplay()
        #expect(pipe(&pipeEnds) == 0)
    }

    isolated deinit {
        for end in pipeEnds where end >= 0 { close(end) }
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(pipeEnds[1], $0.baseAddress, $0.count) }
    }

    /// What is in a pipe. Static: a source's handler that captured the test object would make
    /// a cycle (test → display → application → source → test) that keeps the display's Xvfb
    /// running after the test, and after the test process.
    nonisolated static func readAll(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    @Test func aSourceWakesTheSleepingLoopAndStopsWhenRemoved() throws {
        let app = display.app
        var received = ""
        let readEnd = pipeEnds[0]
        let source = app.addSource(fileDescriptor: readEnd, events: Int16(POLLIN)) { revents in
            #expect(revents & Int16(POLLIN) != 0)
            received += Self.readAll(readEnd)
        }
        // Written from another thread while the loop sleeps with no timer pending.
        let writeEnd = pipeEnds[1]
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            var bytes = Array("hello".utf8)
            _ = bytes.withUnsafeMutableBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
        }
        #expect(app.pendingTimerCount == 0)
        #expect(display.run(until: { received == "hello" }))
        app.removeSource(source)
        app.removeSource(source)
        write("more")
        #expect(display.holds(for: .milliseconds(50)) { received == "hello" }, "a removed source is not called")
        #expect(Self.readAll(pipeEnds[0]) == "more")
    }

    @Test func theHostsOneDescriptorIsReadableWhenASourceIs() throws {
        let app = display.app
        display.settle()  // nothing left from the server
        var calls = 0
        let readEnd = pipeEnds[0]
        app.addSource(fileDescriptor: readEnd, events: Int16(POLLIN)) { _ in
            calls += 1
            _ = Self.readAll(readEnd)
        }
        let aggregate = app.fileDescriptor
        #expect(aggregate >= 0)
        #expect(aggregate == app.fileDescriptor)
        var descriptor = pollfd(fd: aggregate, events: Int16(POLLIN), revents: 0)
        app.processPending()
        #expect(poll(&descriptor, 1, 0) == 0)
        write("x")
        #expect(poll(&descriptor, 1, 1000) == 1)
        app.processPending()
        #expect(calls == 1)
        #expect(poll(&descriptor, 1, 0) == 0)
        // A source added after the descriptor was made is in it too.
        var other: [Int32] = [-1, -1]
        #expect(pipe(&other) == 0)
        defer { close(other[0]); close(other[1]) }
        var otherCalls = 0
        app.addSource(fileDescriptor: other[0], events: Int16(POLLIN)) { _ in
            otherCalls += 1
            _ = Self.readAll(other[0])
        }
        _ = Glibc.write(other[1], "y", 1)
        #expect(poll(&descriptor, 1, 1000) == 1)
        app.processPending()
        #expect(otherCalls == 1 && calls == 1)
    }

    @Test func aDescriptorClosedWithoutRemovalIsRemovedAfterOneLastCall() throws {
        let app = display.app
        var events: [Int16] = []
        app.addSource(fileDescriptor: pipeEnds[0], events: Int16(POLLIN)) { events.append($0) }
        close(pipeEnds[0])
        pipeEnds[0] = -1
        #expect(display.run(until: { app.sources.sources.isEmpty }))
        #expect(events.count == 1)
        #expect(events.first.map { $0 & Int16(POLLNVAL) != 0 } == true)
        #expect(app.sources.sources.isEmpty)
    }

    @Test func repeatingTimersRepeatUntilCancelled() throws {
        let app = display.app
        var ticks: [MonotonicInstant] = []
        let start = MonotonicInstant.now()
        let timer = app.schedule(every: .milliseconds(20)) { timer in
            ticks.append(.now())
            if ticks.count == 5 { timer.cancel() }
        }
        #expect(timer.isRepeating)
        #expect(display.run(until: { timer.isDone }))
        #expect(ticks.count == 5)
        // Deadlines are start + n × interval: the fifth tick is not before 100 ms.
        #expect(ticks.last.map { $0 - start >= .milliseconds(100) } == true)
        #expect(display.holds(for: .milliseconds(60)) { ticks.count == 5 }, "no tick after the cancel")
        #expect(app.pendingTimerCount == 0)
        // Cancelled from outside, before its first tick.
        var fired = false
        let other = app.schedule(every: .milliseconds(10), startingAfter: .milliseconds(10)) { _ in fired = true }
        other.cancel()
        #expect(display.holds(for: .milliseconds(40)) { !fired })
        #expect(app.pendingTimerCount == 0)
    }
}
