import Foundation
import Testing
import X11TestSupport

/// The demo read through AT-SPI2 as a screen reader reads it: its own Xvfb, its own session
/// bus (`dbus-run-session`) with at-spi2-core's bus launcher and registry, and
/// `scripts/atspi-probe.py` (Debian's python3-pyatspi) as the client. The probe launches the
/// demo, presses Tab with xdotool and clicks the cart through the Action interface; these tests
/// judge what it saw.
@Suite(.serialized)
struct AccessibilityTests {
    /// What the probe reported, and the demo's inspector frames of the same run.
    struct Run {
        let report: [String: Any]
        let frames: [String: Frame]

        /// Every object of the tree with an accessible id, by id.
        var nodes: [String: [String: Any]] {
            var result: [String: [String: Any]] = [:]
            func visit(_ node: [String: Any]) {
                if let id = node["id"] as? String, !id.isEmpty { result[id] = node }
                for child in node["children"] as? [[String: Any]] ?? [] { visit(child) }
            }
            if let tree = report["tree"] as? [String: Any] { visit(tree) }
            return result
        }
    }

    /// One run shared by the tests of the suite (it takes a few seconds).
    nonisolated(unsafe) static var cached: Run?

    static func run() throws -> Run {
        if let cached { return cached }
        let run = try probe(["tooltip-demo"])
        cached = run
        return run
    }

    /// Runs the AT-SPI probe on a program of the package (`--tree-only` first: only its tree).
    static func probe(_ arguments: [String]) throws -> Run {
        var arguments = arguments
        let treeOnly = arguments.first == "--tree-only"
        if treeOnly { arguments.removeFirst() }
        let programArguments = [ProgramProcess.executablePath(arguments[0])] + arguments.dropFirst()
        let server = try XvfbServer()
        defer { server.stop() }
        let directory = NSTemporaryDirectory()
        let output = directory + "x11ui-atspi-\(UUID().uuidString).txt"
        let inspector = directory + "x11ui-atspi-inspect-\(UUID().uuidString).jsonl"
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: inspector)
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/atspi-probe.py").path
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = server.display
        environment["X11UI_INSPECT"] = inspector
        // Its own session bus: never the user's.
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["AT_SPI_BUS_ADDRESS"] = nil
        environment["NO_AT_BRIDGE"] = nil  // set by in-process tests (InProcessDisplay)
        let probe = try ChildProcess(
            "/usr/bin/dbus-run-session",
            ["--", "/usr/bin/python3", script] + (treeOnly ? ["--tree-only"] : []) + programArguments,
            environment: environment, stdout: .file(output), stderr: .null)
        guard probe.wait(timeout: 120) != nil else {
            probe.stop(abruptly: true)
            throw XvfbServer.StartError(description: "the AT-SPI probe did not finish")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("ATSPI-REPORT ") }),
            let report = try JSONSerialization.jsonObject(with: Data(line.dropFirst(13).utf8)) as? [String: Any]
        else { throw XvfbServer.StartError(description: "no report from the AT-SPI probe: \(text.suffix(2000))") }
        // The inspector's last layout of the window: frames in root coordinates.
        var frames: [String: Frame] = [:]
        let lines = ((try? String(contentsOfFile: inspector, encoding: .utf8)) ?? "").split(separator: "\n")
        for line in lines {
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                event["event"] as? String == "layout", let views = event["views"] as? [[String: Any]]
            else { continue }
            for view in views {
                if let id = view["id"] as? String, let f = view["frame"] as? [Int], f.count == 4 {
                    frames[id] = Frame(x: f[0], y: f[1], width: f[2], height: f[3])
                }
            }
        }
        return Run(report: report, frames: frames)
    }

    @Test func theApplicationIsOnTheDesktopWithItsFrame() throws {
        let run = try Self.run()
        #expect(run.report["errors"] as? [String] == [])
        #expect(run.report["parentRole"] as? String == "desktop frame")
        let tree = try #require(run.report["tree"] as? [String: Any])
        #expect(tree["role"] as? String == "application")
        #expect(tree["name"] as? String == "tooltip-demo")
        let frame = try #require((tree["children"] as? [[String: Any]])?.first)
        #expect(frame["role"] as? String == "frame")
        #expect(frame["name"] as? String == "X11UI Tooltips")
        #expect((frame["states"] as? [String] ?? []).contains("showing"))
    }

    @Test func viewsHaveRolesNamesAndTheirTooltipsAsDescriptions() throws {
        let nodes = try Self.run().nodes
        let expected: [(id: String, role: String, name: String?, description: String)] = [
            ("default-view", "panel", nil, "The default tooltip for the view."),
            ("label", "label", nil, "The label's tooltip."),
            (
                "buy-button", "push button", "Buy, Only $9.99",
                "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."
            ),
            ("color-view", "panel", nil, "The color is yellow."),
            ("cart-button", "push button", "Add to Cart", "Add this item to your cart. Your cart is empty."),
            ("region-view", "panel", nil, ""),  // tooltips for parts of it only: no description
            ("text-view", "text", nil, ""),
            ("icon-home", "image", nil, "Home"),
        ]
        for item in expected {
            let node = try #require(nodes[item.id], "\(item.id) is in the tree")
            #expect(node["role"] as? String == item.role, "\(item.id)")
            if let name = item.name { #expect(node["name"] as? String == name) }
            #expect(node["description"] as? String == item.description, "\(item.id)")
        }
        let buy = try #require(nodes["buy-button"])
        let states = buy["states"] as? [String] ?? []
        for state in ["enabled", "focusable", "has tooltip", "sensitive", "showing", "visible"] {
            #expect(states.contains(state), "buy-button is \(state)")
        }
        #expect(buy["actions"] as? [String] == ["click"])
        #expect(nodes["icon-home"]?["actions"] as? [String] == ["toggle tooltip"])
        #expect(nodes["place-top-start"]?["actions"] as? [String] == ["click", "toggle tooltip"])
        #expect((nodes["text-view"]?["interfaces"] as? [String] ?? []).contains("Text"))
    }

    @Test func extentsMatchTheInspectorsFrames() throws {
        let run = try Self.run()
        let nodes = run.nodes
        #expect(run.frames.count >= 20, "the inspector listed the demo's views")
        var compared = 0
        for (id, frame) in run.frames {
            guard let node = nodes[id] else { continue }
            let extents = node["extents"] as? [Int]
            #expect(extents == [frame.x, frame.y, frame.width, frame.height], "\(id)")
            compared += 1
        }
        #expect(compared >= 20, "every identified view is in the tree")
    }

    @Test func tabMovesFocusAndEachMoveIsAnEvent() throws {
        let report = try Self.run().report
        #expect(report["focus"] as? [String] == ["Buy, Only $9.99", "Add to Cart", ""])
        let events = report["events"] as? [[String: Any]] ?? []
        let focused = events.filter { $0["type"] as? String == "object:state-changed:focused" }
        #expect(focused.contains { $0["source"] as? String == "Add to Cart" && $0["detail1"] as? Int == 1 })
        #expect(focused.contains { $0["source"] as? String == "Buy, Only $9.99" && $0["detail1"] as? Int == 0 })
        #expect(focused.contains { $0["role"] as? String == "text" && $0["detail1"] as? Int == 1 })
        // No window manager: keys reach the window through pointer-root focus, and the first
        // focus moved from the keyboard makes its frame the active one (Orca reads only those).
        #expect(events.contains { $0["type"] as? String == "window:activate" && $0["role"] as? String == "frame" })
    }

    @Test func aShownTooltipIsAToolTipObjectThatDescribesItsView() throws {
        let report = try Self.run().report
        let buyText =
            "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."
        let tip = try #require(report["toolTip"] as? [String: Any], "a tool tip object while the tooltip shows")
        #expect(tip["role"] as? String == "tool tip")
        #expect(tip["name"] as? String == buyText)
        #expect((tip["states"] as? [String] ?? []).contains("showing"))
        let tipRelations = tip["relations"] as? [[String: Any]] ?? []
        #expect(tipRelations.first?["targets"] as? [String] == ["Buy, Only $9.99"])
        #expect((tipRelations.first?["type"] as? String ?? "").contains("DESCRIPTION_FOR"))
        let buy = try #require(report["buyWhileShown"] as? [String: Any])
        #expect((buy["states"] as? [String] ?? []).contains("focused"))
        let relations = buy["relations"] as? [[String: Any]] ?? []
        #expect((relations.first?["type"] as? String ?? "").contains("DESCRIBED_BY"))
        #expect(relations.first?["targets"] as? [String] == [buyText])
        let events = report["events"] as? [[String: Any]] ?? []
        let showing = events.filter { $0["type"] as? String == "object:state-changed:showing" }
        #expect(showing.first?["role"] as? String == "tool tip")
        #expect(showing.first?["detail1"] as? Int == 1)
        #expect(showing.contains { $0["detail1"] as? Int == 0 }, "hidden when focus moved on")
        let children = events.filter { ($0["type"] as? String ?? "").hasPrefix("object:children-changed") }
        #expect(
            children.contains {
                $0["type"] as? String == "object:children-changed:add" && $0["role"] as? String == "application"
            })
        #expect(
            children.contains {
                $0["type"] as? String == "object:children-changed:remove" && $0["role"] as? String == "application"
            })
        #expect(!((report["toolTipAfterFocusMoved"] as? [String]) ?? []).contains(buyText))
    }

    @Test func theCartsDescriptionFollowsItsCount() throws {
        let report = try Self.run().report
        #expect(
            report["cartDescriptions"] as? [String] == [
                "Add this item to your cart. Your cart is empty.",
                "Add this item to your cart. Your cart contains 1 item.",
                "Add this item to your cart. Your cart contains 2 items.",
            ])
        #expect(report["cartDescriptionRead"] as? String == "Add this item to your cart. Your cart contains 2 items.")
    }

    @Test func theTextViewOffersItsTextAndSelection() throws {
        let report = try Self.run().report
        let text = try #require(report["text"] as? [String: Any])
        #expect(text["start"] as? String == "Select some of this ")
        #expect((text["characterCount"] as? Int ?? 0) > 20)
        #expect(text["selection"] as? [Int] == [0, 8])
        #expect(text["nSelections"] as? Int == 1)
        // Character extents on the screen, inside the text view, in reading order; the offset
        // at a character's point is that character (a magnifier follows the text).
        let frame = try #require(Self.cached?.frames["text-view"])
        let first = try #require(text["firstCharacter"] as? [Int])
        let tenth = try #require(text["tenthCharacter"] as? [Int])
        #expect(first.count == 4 && tenth.count == 4)
        #expect(first[2] > 0 && first[3] > 0, "a character has a size: \(first)")
        #expect(
            frame.contains(first[0], first[1]) && frame.contains(tenth[0], tenth[1]), "\(first) \(tenth) in \(frame)")
        #expect(tenth[0] > first[0], "further along the line")
        #expect(text["offsetAtTenth"] as? Int == 10)
        let events = report["events"] as? [[String: Any]] ?? []
        #expect(events.contains { $0["type"] as? String == "object:text-selection-changed" })
    }

    /// Debian's Orca, on its own display and session bus, speaks the Buy button focused with Tab:
    /// its name and role, then its tooltip as the description.
    @Test func orcaSpeaksTheFocusedBuyButtonAndItsRole() throws {
        let server = try XvfbServer()
        defer { server.stop() }
        let output = NSTemporaryDirectory() + "x11ui-orca-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/orca-probe.py").path
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = server.display
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["AT_SPI_BUS_ADDRESS"] = nil
        environment["NO_AT_BRIDGE"] = nil  // set by in-process tests (InProcessDisplay)
        let probe = try ChildProcess(
            "/usr/bin/dbus-run-session",
            ["--", "/usr/bin/python3", script, ProgramProcess.executablePath("tooltip-demo")],
            environment: environment, stdout: .file(output), stderr: .null)
        guard probe.wait(timeout: 180) != nil else {
            probe.stop(abruptly: true)
            Issue.record("the Orca probe did not finish")
            return
        }
        let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
        let spoken = lines.filter { $0.hasPrefix("SPOKEN ") }.map { String($0.dropFirst(7)) }
        #expect(!lines.contains { $0.hasPrefix("ERROR") }, "\(lines.filter { $0.hasPrefix("ERROR") })")
        #expect(spoken.contains("Buy, Only $9.99 push button."), "Orca said: \(spoken)")
        #expect(
            spoken.contains {
                $0.hasPrefix("Click to buy this item. You'll have a chance to change your mind")
            }, "and read the tooltip as the description: \(spoken)")
    }

    /// An Xlib program that embeds X11UI (its own loop, `Application(display:)`): the
    /// application is on the desktop with the embedded button, its tooltip as description.
    @Test func anEmbeddingProgramRegistersItsViews() throws {
        let run = try Self.probe(["--tree-only", "embed-example"])
        #expect(run.report["errors"] as? [String] == [])
        let tree = try #require(run.report["tree"] as? [String: Any])
        #expect(tree["name"] as? String == "embed-example")
        let button = try #require(run.nodes["embedded-button"], "the embedded button is in the tree")
        #expect(button["role"] as? String == "push button")
        #expect(button["name"] as? String == "X11UI button, clicked 0 times")
        #expect(button["description"] as? String == "An X11UI view inside an Xlib window")
        #expect(button["actions"] as? [String] == ["click", "toggle tooltip"])
        let panel = try #require((tree["children"] as? [[String: Any]])?.first)
        #expect(panel["role"] as? String == "panel", "views in a host's window are a panel")
        if let frame = run.frames["embedded-button"] {
            #expect(button["extents"] as? [Int] == [frame.x, frame.y, frame.width, frame.height])
        }
    }

    /// Bus addresses that lead nowhere (a session bus or an accessibility bus that is gone):
    /// the demo runs as without them, tooltips and all, and says nothing.
    @Test(arguments: ["DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"])
    func aBusThatIsNotThereChangesNothing(variable: String) throws {
        let session = try ProgramSession(
            readyView: "buy-button", environment: [variable: "unix:path=/nonexistent/x11ui-test-bus"])
        let buy = try session.frame("buy-button")
        session.probe.movePointer(to: buy.midX, buy.midY)
        let tip = session.waitForToolTip(named: Self.buyText)
        #expect(tip != nil, "the hover tooltip still shows")
        #expect(session.program.process.isRunning)
        #expect(session.program.standardError.isEmpty, "silently: \(session.program.standardError)")
    }

    static let buyText =
        "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."

    /// Without a bus the demo never loads libdbus: a program pays nothing for accessibility
    /// until an accessibility bus is there.
    @Test func withoutABusNothingIsLoaded() throws {
        let session = try ProgramSession(readyView: "buy-button")
        let file = try #require(FileHandle(forReadingAtPath: "/proc/\(session.program.process.pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("libX11"), "the map was read")
        #expect(!maps.contains("libdbus"))
    }
}
