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
        let opacityAtom = probe.atom("_NET_WM_WINDOW_OPACITY")
        let view = try session.frame(firstID)

        // The tooltip window is made at the first show and kept: shown once and hidden, then
        // its changes are watched through the server's events, which a loaded machine or a
        // sanitizer cannot make the test miss as it could a 120 ms fade looked at by polling.
        probe.movePointer(to: view.midX, view.midY)
        let id = try #require(session.waitForToolTip(named: firstText)?.id)
        session.park()
        #expect(session.waitForNoToolTip())
        probe.watchChanges(of: id)
        #expect(wait(timeout: 2) { opacity(id) == nil }, "the fade-out ended")
        // The next show is a first one again once the browse timeout (500 ms) and delay (60 ms)
        // have passed since the hide: on the server's clock, from the end of the fade-out.
        let hidden =
            probe.changes(of: id).compactMap {
                if case .propertyDeleted(opacityAtom, let time) = $0 { time } else { nil }
            }.last ?? probe.serverTime()
        #expect(wait(timeout: 3) { probe.serverTime() >= hidden + 600 }, "past the browse timeout")
        _ = probe.changes(of: id)

        probe.movePointer(to: view.midX, view.midY)
        var changes: [ServerProbe.WindowChange] = []
        var sampled: [Int] = []
        let deleted = { (change: ServerProbe.WindowChange) -> UInt? in
            if case .propertyDeleted(opacityAtom, let time) = change { time } else { nil }
        }
        let set = { (change: ServerProbe.WindowChange) -> UInt? in
            if case .propertySet(opacityAtom, let time) = change { time } else { nil }
        }
        #expect(
            wait(timeout: 3) {
                if let value = opacity(id), sampled.last != value { sampled.append(value) }
                changes += probe.changes(of: id)
                return changes.contains { deleted($0) != nil }
            }, "the fade-in ended: \(changes)")
        #expect(probe.string(id, "_NET_WM_NAME") == firstText)
        let mapped = try #require(changes.firstIndex(of: .mapped), "\(changes)")
        let before = changes[..<mapped].compactMap(set)
        let after = changes[mapped...]
        #expect(!before.isEmpty, "the window mapped with an opacity (its first frame's): \(changes)")
        let end = try #require(after.compactMap(deleted).first, "\(changes)")
        #expect(!after.contains(.unmapped), "\(changes)")
        if let first = before.first {
            // The server's clock: the fade took its course, 120 ms less the one frame it began
            // before the map (a slow program only makes it longer; a loaded server may take
            // the first request some milliseconds after it was sent, hence the margin).
            #expect(end - first >= 80, "\(end - first) ms from the first opacity to full")
        }
        #expect(sampled.allSatisfy { $0 < 0xffff_ffff }, "\(sampled)")
        #expect(zip(sampled, sampled.dropFirst()).allSatisfy { $0 < $1 }, "it only grows: \(sampled)")

        // Browsed to: the first tooltip's fade-out is cut, and the window, holding the next
        // tooltip, is at full opacity at once: once renamed, it gets no opacity but the
        // deletion (the requests of one show can reach a loaded server some milliseconds apart).
        let next = try session.frame(nextID)
        let nameAtom = probe.atom("_NET_WM_NAME")
        _ = probe.changes(of: id)
        probe.movePointer(to: next.midX, next.midY)
        #expect(session.waitForToolTip(named: nextText) != nil)
        changes = []
        #expect(
            wait(timeout: 2) {
                changes += probe.changes(of: id)
                return opacity(id) == nil
            }, "\(changes)")
        changes += probe.changes(of: id)
        let renamed = try #require(
            changes.lastIndex { if case .propertySet(nameAtom, _) = $0 { true } else { false } }, "\(changes)")
        #expect(!changes[renamed...].contains { set($0) != nil }, "no fade-in: \(changes)")
        #expect(!changes.contains(.unmapped), "\(changes)")
        #expect(holds(for: 0.2) { opacity(id) == nil && probe.info(id)?.isMapped == true })
    }
}
