import Foundation
import Testing
import X11TestSupport

/// The demo under xcompmgr, in real time: its first tooltip fades in (the window's
/// `_NET_WM_WINDOW_OPACITY` steps while it is mapped, then goes), and the next one browsed to
/// shows at once, at full opacity, in the same window.
@Suite(.serialized)
final class ToolTipFadeDemoTests {
    let session: ProgramSession
    var probe: ServerProbe { session.probe }

    init() throws {
        session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view", composited: true)
    }

    func opacity(_ window: UInt) -> Int? {
        probe.longs(window, "_NET_WM_WINDOW_OPACITY")?.first.map { $0 & 0xffff_ffff }
    }

    @Test func theFirstTooltipFadesInAndTheNextOneBrowsedToShowsAtOnce() throws {
        // Side by side: the pointer goes from one to the other without crossing the tooltip.
        let (firstID, firstText) = SampleSceneTests.texts[2]
        let (nextID, nextText) = SampleSceneTests.texts[4]
        // Seen in the middle of its fade (a loaded machine may miss a 100 ms window: a few
        // tries, each a first tooltip again after the browse timeout).
        var partial: [Int] = []
        var tip: ServerProbe.WindowInfo?
        for _ in 0..<3 where partial.isEmpty {
            session.park()
            session.waitForNoToolTip()
            usleep(600_000)
            let view = try session.frame(firstID)
            probe.movePointer(to: view.midX, view.midY)
            tip = session.waitForToolTip(named: firstText)
            guard let id = tip?.id else { continue }
            _ = wait(timeout: 2) {
                guard let value = opacity(id) else { return !partial.isEmpty }
                if partial.last != value { partial.append(value) }
                return false
            }
        }
        let id = try #require(tip?.id)
        #expect(!partial.isEmpty, "the first tooltip's opacity was seen below full while it faded in")
        #expect(partial.allSatisfy { $0 < 0xffff_ffff }, "\(partial)")
        #expect(zip(partial, partial.dropFirst()).allSatisfy { $0 < $1 }, "it only grows: \(partial)")
        #expect(wait(timeout: 2) { opacity(id) == nil }, "fully opaque at the end: no property left")

        let next = try session.frame(nextID)
        probe.movePointer(to: next.midX, next.midY)
        #expect(session.waitForToolTip(named: nextText) != nil)
        #expect(opacity(id) == nil, "browsed to: shown at full opacity at once")
        #expect(holds(for: 0.2) { opacity(id) == nil && probe.info(id)?.isMapped == true })
    }
}
