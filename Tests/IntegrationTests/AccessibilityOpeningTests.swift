import Foundation
import Testing
import X11TestSupport

extension AccessibilityTests {
    struct NoWindowManager: Error {}

    /// Starts openbox on `server` and waits until it manages the screen (its theme is loaded
    /// late in its start).
    static func startOpenbox(on server: XvfbServer) throws -> ChildProcess {
        let manager = try ChildProcess(
            "/usr/bin/openbox", ["--sm-disable"],
            environment: ["DISPLAY": server.display, "HOME": NSTemporaryDirectory()])
        let probe = try ServerProbe(display: server.display)
        guard wait(timeout: 10, { probe.string(probe.root, "_OB_THEME") != nil }) else {
            manager.stop()
            throw NoWindowManager()
        }
        return manager
    }

    /// Under openbox the window has the input focus as it maps, before the demo reaches the
    /// accessibility bus: once linked, the demo reports the window active and then its focused
    /// control, the first in Tab order, as a later focus-in would.
    @Test func aWindowFocusedBeforeTheLinkIsReportedActiveWithItsFocusedControl() throws {
        let run = try Self.probe(["--open-events", "tooltip-demo"], windowManager: true)
        let events = run.report["events"] as? [[String: Any]] ?? []
        let summary = events.map { "\($0["type"] ?? "") \($0["source"] ?? "") \($0["detail1"] ?? "")" }
        #expect((run.report["errors"] as? [Any])?.isEmpty == true, "\(run.report["errors"] ?? "")")
        let activate = events.firstIndex {
            $0["type"] as? String == "window:activate" && $0["role"] as? String == "ROLE_FRAME"
        }
        let active = events.firstIndex {
            $0["type"] as? String == "object:state-changed:active" && $0["detail1"] as? Int == 1
        }
        let focused = events.lastIndex {
            $0["type"] as? String == "object:state-changed:focused" && $0["detail1"] as? Int == 1
        }
        #expect(activate != nil, "the window's activation: \(summary)")
        #expect(active != nil, "the window's active state: \(summary)")
        #expect(focused != nil, "a focused control: \(summary)")
        if let activate, let focused {
            #expect(activate < focused, "the window, then its control: \(summary)")
            #expect(events[focused]["role"] as? String == "ROLE_PUSH_BUTTON")
            #expect((events[focused]["source"] as? String)?.hasPrefix("Buy") == true, "\(summary)")
        }
    }

    /// Debian's Orca under openbox announces the demo's window as it opens, then its focused
    /// control (the Buy button, first in Tab order), with no key pressed.
    @Test func orcaAnnouncesTheWindowAndItsFocusedControlAsItOpens() throws {
        guard
            let run = try Self.orca(
                walk: ["=X11UI Tooltips", "=Buy, Only $9.99 {ROLE_PUSH_BUTTON}."], windowManager: true)
        else { return }
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(run.matched(0)?.contains("X11UI Tooltips") == true, "Orca said: \(run.spoken)")
        #expect(run.matched(1) == "Buy, Only $9.99 \(run.role("ROLE_PUSH_BUTTON")).", "Orca said: \(run.spoken)")
    }
}
