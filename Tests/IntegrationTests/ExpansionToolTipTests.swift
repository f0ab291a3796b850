import Foundation
import Testing
import X11TestSupport

/// Issue 29.1: expansion tooltips on the demo, driven with XTest and read from the server. The
/// icons column holds a one-line label cut with an ellipsis (`truncated-label`), a short one
/// that fits (`fitting-label`) and a button narrower than its title with a tooltip of its own
/// (`truncated-button`).
@Suite(.serialized)
final class ExpansionToolTipTests {
    let session: ProgramSession
    var probe: ServerProbe { session.probe }
    static let fullPath = "~/Documents/Reports/2024/quarterly-summary-final.pdf"

    init() throws {
        session = try ProgramSession(readyView: "follow-shape")
    }

    /// Which pixels of a rectangle are ink: those nearer the text's colour than the
    /// background's (the most common colour), for dark text on light or light text on dark.
    func inkMask(_ frame: Frame, darkText: Bool) -> [Bool] {
        let pixels = probe.pixels(frame.x, frame.y, frame.width, frame.height)
        func luma(_ p: UInt32) -> Int { Int((p >> 16) & 0xff) * 3 + Int((p >> 8) & 0xff) * 6 + Int(p & 0xff) }
        var counts: [UInt32: Int] = [:]
        for p in pixels { counts[p, default: 0] += 1 }
        let background = luma(counts.max { $0.value < $1.value }?.key ?? 0)
        let extreme = darkText ? pixels.map(luma).min() ?? 0 : pixels.map(luma).max() ?? 0
        let middle = (background + extreme) / 2
        return pixels.map { darkText ? luma($0) < middle : luma($0) > middle }
    }

    /// The full text lies over the cut text: the same glyphs at the same pixels (dark on the
    /// window before, light on the bubble now), the bubble's padding outside them.
    @Test func aCutLabelShowsItsFullTextOverItself() throws {
        session.park()
        session.waitForNoToolTip()
        let label = try session.frame("truncated-label")
        // The glyphs before the ellipsis, as the window draws them.
        let text = Frame(x: label.x, y: label.y, width: label.width - 30, height: label.height)
        let before = inkMask(text, darkText: true)
        probe.movePointer(to: label.x + 40, label.midY)
        let tip = try #require(session.waitForToolTip(named: Self.fullPath), "the full text shows")
        #expect(tip.rect.x == label.x - 8 && tip.rect.y == label.y - 8, "the padding outside the text: \(tip.rect)")
        #expect(tip.rect.width > label.width + 16, "wider than the cut label")
        let after = inkMask(text, darkText: false)
        let both = zip(before, after).filter { $0 && $1 }.count
        let either = zip(before, after).filter { $0 || $1 }.count
        #expect(both > 100, "ink found: \(both)")
        #expect(Double(both) / Double(max(1, either)) > 0.85, "the glyphs line up: \(both) of \(either)")
        // Hover intent keeps it while the pointer moves over the label and the bubble.
        for x in stride(from: label.x + 4, to: tip.rect.maxX - 4, by: 20) {
            probe.movePointer(to: x, label.midY + (x % 3) - 1)
            probe.sync()
        }
        #expect(holds(for: 0.4) { session.toolTipText == Self.fullPath }, "kept over the label and the bubble")
    }

    @Test func aLabelThatFitsShowsNothing() throws {
        session.park()
        session.waitForNoToolTip()
        let label = try session.frame("fitting-label")
        probe.movePointer(to: label.x + 10, label.midY)
        #expect(holds(for: 1.2) { probe.mappedPopups().isEmpty }, "no tooltip: \(session.toolTipText ?? "")")
    }

    /// A cut button with a tooltip of its own shows both in one bubble, the full title over the
    /// cut one; a press on the bubble hides it and reaches the button beneath (it shows pressed).
    @Test func aPressOnTheExpansionReachesTheButtonBeneath() throws {
        session.park()
        session.waitForNoToolTip()
        let button = try session.frame("truncated-button")
        let body = (button.x + 10, button.maxY - 6)
        let idle = probe.pixel(body.0, body.1)
        probe.movePointer(to: button.midX, button.midY)
        let name = "Export as Portable Document Format Saves the report as a PDF file."
        let tip = try #require(session.waitForToolTip(named: name), "the full title and the button's own tooltip")
        #expect(tip.rect.contains(button.midX, button.midY), "over the pointer by design: \(tip.rect)")
        probe.button(1, down: true)
        probe.sync()
        #expect(session.waitForNoToolTip(timeout: 2), "the press hides it")
        #expect(wait(timeout: 2) { probe.pixel(body.0, body.1) != idle }, "the button beneath shows pressed")
        probe.button(1, down: false)
        probe.sync()
    }
}

/// Issue 29.3: a tooltip that follows the pointer along the demo's bar (`follow-shape`), its
/// delegate saying where the pointer is; the demo talks to the server through a counting proxy,
/// so the configures it sends per motion are counted.
@Suite(.serialized)
final class FollowPointerTests {
    let server: XvfbServer
    let proxy: XProxy
    let probe: ServerProbe
    let program: ProgramProcess
    static let configureWindow: UInt8 = 12

    init() throws {
        server = try XvfbServer(width: 1280, height: 800)
        proxy = try XProxy(serverDisplay: server.number, firstDisplay: 720)
        probe = try ServerProbe(display: server.display)
        program = try ProgramProcess("tooltip-demo", display: proxy.display)
        guard program.waitForView("follow-shape") != nil,
            wait(timeout: 10, { [program, probe] in program.windows.allSatisfy { probe.info($0)?.isMapped == true } })
        else { throw XvfbServer.StartError(description: "the demo did not start: \(program.standardError)") }
    }

    deinit {
        program.stop()
        proxy.stop()
        server.stop()
    }

    var toolTip: (frame: Frame, name: String?)? {
        guard let tip = probe.mappedPopups().last else { return nil }
        return (tip.rect, probe.string(tip.id, "_NET_WM_NAME"))
    }

    func percent(_ x: Int, along bar: Frame) -> String {
        "x: \(Int((Double(x - bar.x) / Double(bar.width - 1) * 100).rounded()))%"
    }

    /// No configure while the pointer rests: from `snapshot` until the program's hover grace
    /// timer has fired and hidden the tooltip (the pointer left for the far corner), a later
    /// event in the program's own order, the tooltip window got no configure.
    func noConfigureAtRest(since snapshot: XProxy.Counts) -> Int {
        probe.movePointer(to: server.width - 1, server.height - 1)
        _ = wait(timeout: 3) { probe.mappedPopups().isEmpty }
        return (proxy.snapshot - snapshot).opcodes[Self.configureWindow, default: 0]
    }

    @Test func movingAlongTheBarMovesTheToolTipWithAtMostOneConfigurePerMotion() throws {
        let bar = try #require(program.frames()["follow-shape"])
        probe.movePointer(to: server.width - 1, server.height / 2)
        let y = bar.midY
        var x = bar.x + 20
        probe.movePointer(to: x, y)
        #expect(wait(timeout: 3) { toolTip?.name == percent(x, along: bar) }, "shows what the delegate says")
        let first = try #require(toolTip).frame
        #expect(first.y >= bar.maxY, "below the bar")
        // Rest: nothing moves, nothing is sent.
        #expect(wait(timeout: 2) { toolTip.map { abs($0.frame.midX - x) <= 2 } == true }, "at the pointer")
        #expect(noConfigureAtRest(since: proxy.snapshot) == 0, "no configure at rest")
        probe.movePointer(to: x, y)
        #expect(wait(timeout: 3) { toolTip?.name == percent(x, along: bar) }, "shows again")
        // Along the bar in 40 motions, each sent once the tooltip followed the one before.
        let start = proxy.snapshot
        let motions = 40
        for _ in 0..<motions {
            x += 4
            probe.movePointer(to: x, y)
            _ = wait(timeout: 2) { toolTip?.name == percent(x, along: bar) }
        }
        #expect(
            wait(timeout: 2) {
                toolTip.map { $0.name == percent(x, along: bar) && abs($0.frame.midX - x) <= 2 } == true
            },
            "the text and the tooltip follow: \(String(describing: toolTip))")
        let tip = try #require(toolTip).frame
        #expect(abs(tip.midX - x) <= 2, "the tooltip is at the pointer: \(tip) for x \(x)")
        #expect(tip.x > first.x + 100, "it moved with the pointer")
        #expect(!tip.contains(x, y), "never under the pointer")
        let configures = (proxy.snapshot - start).opcodes[Self.configureWindow, default: 0]
        #expect(configures >= 5, "it moved: \(configures) configures")
        #expect(configures <= motions, "\(configures) configures for \(motions) motions")
        // Still again: no configure.
        #expect(noConfigureAtRest(since: proxy.snapshot) == 0, "no configure at rest")
    }
}
