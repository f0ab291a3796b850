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

    /// Runs the AT-SPI probe on a program of the package (`--tree-only` first: only its tree;
    /// `--cache-listeners`: the cache signals before and after a listener registers).
    /// `windowManager`: openbox manages the display, and focuses the window as it maps.
    static func probe(_ arguments: [String], windowManager: Bool = false) throws -> Run {
        var arguments = arguments
        let flag = arguments.first?.hasPrefix("--") == true ? arguments.removeFirst() : nil
        let programArguments = [ProgramProcess.executablePath(arguments[0])] + arguments.dropFirst()
        let server = try XvfbServer()
        defer { server.stop() }
        let manager = windowManager ? try startOpenbox(on: server) : nil
        defer { manager?.stop() }
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
            ["--", "/usr/bin/python3", script] + (flag.map { [$0] } ?? []) + programArguments,
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
        #expect(run.report["parentRole"] as? String == "ROLE_DESKTOP_FRAME")
        let tree = try #require(run.report["tree"] as? [String: Any])
        #expect(tree["role"] as? String == "ROLE_APPLICATION")
        #expect(tree["name"] as? String == "tooltip-demo")
        let frame = try #require((tree["children"] as? [[String: Any]])?.first)
        #expect(frame["role"] as? String == "ROLE_FRAME")
        #expect(frame["name"] as? String == "X11UI Tooltips")
        #expect((frame["states"] as? [String] ?? []).contains("showing"))
    }

    @Test func viewsHaveRolesNamesAndTheirTooltipsAsDescriptions() throws {
        let nodes = try Self.run().nodes
        let expected: [(id: String, role: String, name: String?, description: String)] = [
            ("default-view", "ROLE_PANEL", nil, "The default tooltip for the view."),
            ("label", "ROLE_LABEL", nil, "The label's tooltip."),
            (
                "buy-button", "ROLE_PUSH_BUTTON", "Buy, Only $9.99",
                "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."
            ),
            ("color-view", "ROLE_PANEL", nil, "The color is yellow."),
            ("cart-button", "ROLE_PUSH_BUTTON", "Add to Cart", "Add this item to your cart. Your cart is empty."),
            ("region-view", "ROLE_PANEL", nil, ""),  // tooltips for parts of it only: no description
            ("text-view", "ROLE_TEXT", nil, ""),
            ("icon-home", "ROLE_PUSH_BUTTON", nil, "Home"),  // its click tooltip makes it a toggletip's button
            ("icon-mic", "ROLE_IMAGE", nil, ""),
            ("korean-label", "ROLE_PUSH_BUTTON", "툴팁 도움말", "툴팁 도움말: 여기를 누르세요"),
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
        // The Action interface's key binding (ATK's "mnemonic;sequence;shortcut"): Space for a
        // button, the third part for a view's keyboard shortcut, as gtk_accelerator_name has it.
        #expect(buy["keyBindings"] as? [String] == ["space"])
        #expect(nodes["checkout-button"]?["keyBindings"] as? [String] == [";;<Control>Return"])
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
        // Space on the cart (while its tooltip showed) enabled Check Out.
        #expect(report["focus"] as? [String] == ["Buy, Only $9.99", "Add to Cart", "Check Out", ""])
        let events = report["events"] as? [[String: Any]] ?? []
        let focused = events.filter { $0["type"] as? String == "object:state-changed:focused" }
        #expect(focused.contains { $0["source"] as? String == "Add to Cart" && $0["detail1"] as? Int == 1 })
        #expect(focused.contains { $0["source"] as? String == "Buy, Only $9.99" && $0["detail1"] as? Int == 0 })
        #expect(focused.contains { $0["role"] as? String == "ROLE_TEXT" && $0["detail1"] as? Int == 1 })
        // No window manager: keys reach the window through pointer-root focus, and the first
        // focus moved from the keyboard makes its frame the active one (Orca reads only those).
        #expect(events.contains { $0["type"] as? String == "window:activate" && $0["role"] as? String == "ROLE_FRAME" })
    }

    @Test func aShownTooltipIsAToolTipObjectThatDescribesItsView() throws {
        let report = try Self.run().report
        let buyText =
            "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."
        let tip = try #require(report["toolTip"] as? [String: Any], "a tool tip object while the tooltip shows")
        #expect(tip["role"] as? String == "ROLE_TOOL_TIP")
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
        #expect(showing.first?["role"] as? String == "ROLE_TOOL_TIP")
        #expect(showing.first?["detail1"] as? Int == 1)
        #expect(showing.contains { $0["detail1"] as? Int == 0 }, "hidden when focus moved on")
        let children = events.filter { ($0["type"] as? String ?? "").hasPrefix("object:children-changed") }
        #expect(
            children.contains {
                $0["type"] as? String == "object:children-changed:add" && $0["role"] as? String == "ROLE_APPLICATION"
            })
        #expect(
            children.contains {
                $0["type"] as? String == "object:children-changed:remove" && $0["role"] as? String == "ROLE_APPLICATION"
            })
        #expect(!((report["toolTipAfterFocusMoved"] as? [String]) ?? []).contains(buyText))
    }

    /// Issue 29: a cut label's name is its full text and its description stays empty, so a
    /// screen reader reads the same as before; its expansion tooltip, which only repeats the
    /// name, is no tool tip object. A cut button with a tooltip of its own: its name is the
    /// full title, and the tool tip object says its own tooltip only.
    @Test func expansionTooltipsAnnounceNothingTwice() throws {
        let report = try Self.run().report
        let expansions = try #require(report["expansions"] as? [String: [String: Any]], "\(report["errors"] ?? "")")
        let label = try #require(expansions["truncated-label"])
        let path = "~/Documents/Reports/2024/quarterly-summary-final.pdf"
        #expect(label["name"] as? String == path)
        #expect(label["description"] as? String == "")
        #expect(label["shown"] as? String == path, "the expansion tooltip showed")
        #expect(label["toolTip"] is NSNull || label["toolTip"] == nil, "no tool tip object: \(label)")
        let button = try #require(expansions["truncated-button"])
        #expect(button["name"] as? String == "Export as Portable Document Format")
        #expect(button["description"] as? String == "Saves the report as a PDF file.")
        #expect(button["shown"] as? String == "Export as Portable Document Format Saves the report as a PDF file.")
        #expect(button["toolTip"] as? String == "Saves the report as a PDF file.")
    }

    @Test func theCartsDescriptionFollowsItsCount() throws {
        let report = try Self.run().report
        #expect(
            report["cartDescriptions"] as? [String] == [
                "Add this item to your cart. Your cart contains 1 item.",  // Space while it had focus
                "Add this item to your cart. Your cart contains 2 items.",
                "Add this item to your cart. Your cart contains 3 items.",
            ])
        #expect(report["cartDescriptionRead"] as? String == "Add this item to your cart. Your cart contains 3 items.")
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

    /// `org.a11y.atspi.Cache.GetItems`, called on the bus as libatspi calls it when it meets the
    /// application: the whole tree in one reply, each object with the parent, index and child
    /// count that place it, and what pyatspi read of it one call at a time.
    @Test func theCacheHoldsTheWholeTreeInOneReply() throws {
        let report = try Self.run().report
        #expect(report["errors"] as? [String] == [])
        let bus = try #require(report["busName"] as? String, "the application's bus name")
        let cache = try #require(report["cache"] as? [String: Any])
        #expect(cache["signature"] as? String == "a((so)(so)(so)iiassusau)")
        let items = cache["items"] as? [[String: Any]] ?? []
        // The tree pyatspi walked: as many objects, with the same names.
        var treeNames: [String] = []
        func visit(_ node: [String: Any]) {
            treeNames.append(node["name"] as? String ?? "?")
            for child in node["children"] as? [[String: Any]] ?? [] { visit(child) }
        }
        visit(try #require(report["tree"] as? [String: Any]))
        #expect(treeNames.count >= 20)
        #expect(items.map { $0["name"] as? String ?? "?" }.sorted() == treeNames.sorted())
        let paths = items.compactMap { $0["path"] as? String }
        #expect(Set(paths).count == items.count, "one item per object")
        #expect(items.allSatisfy { $0["bus"] as? String == bus && $0["app"] as? [String] == [bus, Self.rootPath] })
        // The application first, a child of the desktop at no index (-1: libatspi would
        // otherwise put it over another application).
        let root = try #require(items.first)
        #expect(root["path"] as? String == Self.rootPath)
        #expect(root["role"] as? Int == 75)
        #expect(root["index"] as? Int == -1)
        let desktop = root["parent"] as? [String] ?? []
        #expect(desktop.count == 2 && desktop.first != bus && desktop.last == Self.rootPath, "\(desktop)")
        // Every other object's parent is an item, and a parent's children fill 0..<childCount.
        var childIndexes: [String: [Int]] = [:]
        for item in items.dropFirst() {
            let parent = item["parent"] as? [String] ?? []
            #expect(parent.first == bus && paths.contains(parent.last ?? ""), "\(item)")
            childIndexes[parent.last ?? "", default: []].append(item["index"] as? Int ?? -1)
        }
        for item in items {
            let path = item["path"] as? String ?? ""
            let count = item["childCount"] as? Int ?? -1
            #expect(childIndexes[path, default: []].sorted() == Array(0..<count), "children of \(path)")
        }
        let buy = try #require(items.first { $0["name"] as? String == "Buy, Only $9.99" })
        #expect(buy["role"] as? Int == 43)
        #expect(buy["description"] as? String == Self.buyText)
        #expect(buy["interfaces"] as? [String] == ["Accessible", "Action", "Component"])
        let states = buy["states"] as? [Int] ?? []
        #expect(states.count == 2 && (states.first ?? 0) & (1 << 13) != 0, "has tooltip: \(states)")
        let text = try #require(items.first { $0["role"] as? Int == 61 })
        #expect(text["interfaces"] as? [String] == ["Accessible", "Component", "Text"])
    }

    /// The tooltip shown by Tab's focus reaches clients' caches as it shows
    /// (`AddAccessible`, a tool tip under the application) and leaves them as it hides.
    @Test func theCacheIsToldWhenTheTooltipShowsAndHides() throws {
        let report = try Self.run().report
        let bus = try #require(report["busName"] as? String)
        let signals = report["cacheSignals"] as? [[String: Any]] ?? []
        #expect(signals.allSatisfy { $0["sender"] as? String == bus && $0["objectPath"] as? String == Self.cachePath })
        #expect(signals.allSatisfy { $0["error"] == nil }, "\(signals)")
        // Only the tool tip comes and goes in the scenario (not the views inside its window).
        #expect(
            signals.filter { $0["member"] as? String == "AddAccessible" }.allSatisfy { $0["role"] as? Int == 64 },
            "\(signals)")
        let addIndex = try #require(
            signals.firstIndex { $0["member"] as? String == "AddAccessible" && $0["role"] as? Int == 64 },
            "an AddAccessible for the tool tip: \(signals)")
        let added = signals[addIndex]
        #expect(added["signature"] as? String == "((so)(so)(so)iiassusau)")
        #expect(added["name"] as? String == Self.buyText)
        #expect(added["parent"] as? [String] == [bus, Self.rootPath])
        #expect((added["index"] as? Int ?? -1) >= 1, "after the frame")
        #expect(added["childCount"] as? Int == 0)
        #expect(added["states"] as? [Int] != [0, 0])
        let path = try #require(added["path"] as? String)
        let removed = signals.lastIndex {
            $0["member"] as? String == "RemoveAccessible" && $0["path"] as? String == path
        }
        #expect(removed.map { $0 > addIndex } == true, "a RemoveAccessible for it once focus moved on: \(signals)")
        #expect(
            signals.filter { $0["member"] as? String == "RemoveAccessible" }.allSatisfy {
                $0["signature"] as? String == "(so)"
            })
    }

    /// The text view's text attributes through pyatspi: one run over the whole text (it is
    /// drawn in one font, colour and direction), the same as its defaults.
    @Test func theTextViewsAttributesAreOneRunOverItsText() throws {
        let report = try Self.run().report
        let count = try #require((report["text"] as? [String: Any])?["characterCount"] as? Int)
        let attributes = try #require(report["textAttributes"] as? [String: Any])
        let run = try #require(attributes["run"] as? [String: Any])
        #expect(run["start"] as? Int == 0)
        #expect(run["end"] as? Int == count)
        let values = run["attributes"] as? [String: String] ?? [:]
        #expect(values["family-name"] == "DejaVu Sans", "the face fontconfig matched for sans-serif")
        #expect(values["size"] == "10", "13 px at 96 dpi is 9.75 points")
        #expect(values["weight"] == "400")
        #expect(values["fg-color"] == "7196,7196,7710", "Color.label, 0x1c1c1e")
        #expect(values["bg-color"] == "65535,65535,65535", "the text view's white")
        #expect(values["direction"] == "ltr")
        #expect(values["justification"] == "left")
        #expect(values["wrap-mode"] == "word-char")
        #expect(values["editable"] == "false")
        #expect(attributes["default"] as? [String: String] == values)
        #expect(attributes["weightAt5"] as? String == "400")
        #expect(attributes["attributesAt5"] as? [Int] == [0, count])
    }

    /// With no event listener registered (no screen reader), a tooltip that shows sends no
    /// cache signal; a listener registered after the program started (as when Orca starts
    /// later) is heard: its events and the cache's signals then arrive.
    @Test func cacheSignalsWaitForAListener() throws {
        let run = try Self.probe(["--cache-listeners", "tooltip-demo"])
        let report = run.report
        #expect(report["errors"] as? [String] == [])
        #expect(report["quietToolTip"] as? [String] == [Self.buyText], "the tooltip showed")
        #expect(report["quietSignals"] as? [[String: Any]] != nil)
        #expect((report["quietSignals"] as? [[String: Any]])?.isEmpty == true, "\(report["quietSignals"] ?? [])")
        #expect(report["registered"] as? Bool == true)
        let signals = report["signalsWithListener"] as? [[String: Any]] ?? []
        #expect(
            signals.contains {
                $0["member"] as? String == "RemoveAccessible" && $0["path"] as? String == Self.toolTipPath
            }, "the tool tip's going reached the cache: \(signals)")
        let events = report["eventsWithListener"] as? [[String: Any]] ?? []
        #expect(events.contains { $0["type"] as? String == "object:state-changed:focused" }, "\(events)")
    }

    static let toolTipPath = "/org/a11y/atspi/accessible/tooltip"

    /// A label offers its text through the Text interface too, with its own attributes and
    /// character extents inside its frame, and no selection.
    @Test func aLabelOffersItsTextAndAttributes() throws {
        let run = try Self.run()
        let text = "A label with a tooltip of its own. Rest the pointer here to read it."
        let label = try #require(run.report["labelText"] as? [String: Any])
        #expect(label["text"] as? String == text)
        #expect(label["characterCount"] as? Int == text.unicodeScalars.count)
        #expect(label["nSelections"] as? Int == 0)
        #expect(label["run"] as? [Int] == [0, text.unicodeScalars.count])
        let values = label["attributes"] as? [String: String] ?? [:]
        #expect(values["family-name"] == "DejaVu Sans")
        #expect(values["weight"] == "400")
        #expect(values["fg-color"] == "7196,7196,7710")
        #expect(values["justification"] == "left")
        #expect(values["left-margin"] == "0")
        let first = try #require(label["firstCharacter"] as? [Int])
        let frame = try #require(run.frames["label"])
        #expect(first.count == 4 && first[2] > 0 && first[3] > 0, "\(first)")
        #expect(frame.contains(first[0], first[1]), "\(first) in \(frame)")
        #expect((run.nodes["label"]?["interfaces"] as? [String] ?? []).contains("Text"))
    }

    /// The shown tooltip offers its text through the Text interface as a label does: its words
    /// and sentences, character extents inside the popup (on the screen and in the popup's own
    /// coordinates) and its attributes; a change in place is told as text and name changes.
    @Test func aShownTooltipOffersItsTextAsALabelDoes() throws {
        let run = try Self.run()
        let count = Self.buyText.unicodeScalars.count
        let node = run.report["toolTip"] as? [String: Any]
        #expect((node?["interfaces"] as? [String] ?? []).contains("Text"))
        let tip = try #require(run.report["toolTipText"] as? [String: Any], "the tool tip's text while it shows")
        #expect(tip["text"] as? String == Self.buyText)
        #expect(tip["characterCount"] as? Int == count)
        #expect(tip["caret"] as? Int == 0)
        #expect(tip["wordAt7"] as? [AnyHashable] == ["to ", 6, 9])
        let sentence = tip["sentenceAt7"] as? [AnyHashable] ?? []
        #expect((sentence.first as? String)?.hasPrefix("Click to buy this item.") == true, "\(sentence)")
        #expect(sentence.count == 3 && sentence[1] == AnyHashable(0))
        #expect(tip["lineAt0"] as? [AnyHashable] == [Self.buyText, 0, count])
        let extents = try #require(tip["extents"] as? [Int])
        let popup = Frame(x: extents[0], y: extents[1], width: extents[2], height: extents[3])
        let first = try #require(tip["firstCharacter"] as? [Int])
        #expect(first.count == 4 && first[2] > 0 && first[3] > 0, "\(first)")
        #expect(popup.contains(first[0], first[1]), "\(first) in \(popup)")
        #expect(
            tip["firstCharacterInWindow"] as? [Int] == [first[0] - popup.x, first[1] - popup.y, first[2], first[3]])
        let range = try #require(tip["range"] as? [Int])
        #expect(popup.contains(range[0], range[1]) && popup.contains(range[0] + range[2] - 1, range[1] + range[3] - 1))
        #expect(range[3] > first[3], "the text wraps onto more than one line: \(range)")
        #expect(tip["run"] as? [Int] == [0, count])
        let attributes = tip["attributes"] as? [String: String] ?? [:]
        #expect(attributes["family-name"] == "DejaVu Sans")
        #expect(attributes["fg-color"] != nil && attributes["fg-color"] != attributes["bg-color"], "\(attributes)")
        #expect(tip["default"] as? [String: String] == attributes)

        let changed = try #require(run.report["cartToolTipText"] as? [String: Any], "the cart's tooltip after Space")
        let before = "Add this item to your cart. Your cart is empty."
        let after = "Add this item to your cart. Your cart contains 1 item."
        #expect(changed["text"] as? String == after)
        #expect(changed["characterCount"] as? Int == after.unicodeScalars.count)
        let events = run.report["cartToolTipChange"] as? [[String: Any]] ?? []
        let types = events.compactMap { $0["type"] as? String }
        #expect(
            types.filter { $0.hasPrefix("object:text-changed") }
                == ["object:text-changed:delete", "object:text-changed:insert"], "\(events)")
        #expect(events.first { $0["type"] as? String == "object:text-changed:delete" }?["data"] as? String == before)
        #expect(events.first { $0["type"] as? String == "object:text-changed:insert" }?["data"] as? String == after)
        #expect(types.contains("object:property-change:accessible-name"), "\(events)")

        // Hidden (focus moved on), the tool tip object still says what it showed last, as GTK's
        // tooltip window does: a screen reader reading it late hears that, not nothing.
        let hidden = try #require(run.report["hiddenToolTip"] as? [String: Any])
        let name = hidden["name"] as? String ?? ""
        #expect(name.hasPrefix("Add this item to your cart.") || name.hasPrefix("Check out"), "\(hidden)")
        #expect(hidden["text"] as? String == name)
        let showing = UInt32(1) << 25
        #expect((hidden["states"] as? [Int])?.first.map { UInt32($0) & showing == 0 } == true, "\(hidden)")
    }

    /// A rich tooltip's Text is its labels' texts joined by spaces (its name), each character
    /// where its own label draws it: the item tooltip's "6" and "31" side by side.
    @Test func aRichTooltipsTextIsItsLabelsInOrder() throws {
        let run = try Self.run()
        let tip = try #require(run.report["itemsToolTipText"] as? [String: Any], "the item tooltip's text")
        #expect(tip["text"] as? String == "6 31")
        #expect(tip["characterCount"] as? Int == 4)
        #expect(tip["wordAt7"] as? [AnyHashable] == ["31", 2, 4])  // past the end: the last word
        let extents = try #require(tip["extents"] as? [Int])
        let popup = Frame(x: extents[0], y: extents[1], width: extents[2], height: extents[3])
        let six = try #require(tip["six"] as? [Int])
        let three = try #require(tip["three"] as? [Int])
        #expect(six[2] > 0 && three[2] > 0, "\(six) \(three)")
        #expect(popup.contains(six[0], six[1]) && popup.contains(three[0], three[1]), "\(six) \(three) in \(popup)")
        #expect(three[0] >= six[0] + six[2] + 8, "the second item is beside the first, past its icon: \(six) \(three)")
        #expect(tip["offsetAtThree"] as? Int == 2)
    }

    static let rootPath = "/org/a11y/atspi/accessible/root"
    static let cachePath = "/org/a11y/atspi/cache"

    /// What the Orca probe printed: its lines, the role names it used, what Orca spoke and
    /// the utterance each step matched.
    struct OrcaRun {
        let lines: [String]
        var errors: [String] { lines.filter { $0.hasPrefix("ERROR") } }
        var spoken: [String] { lines.filter { $0.hasPrefix("SPOKEN ") }.map { String($0.dropFirst(7)) } }
        /// The name this machine's libatspi gives a role constant's role, as Orca speaks it
        /// ("push button" on libatspi 2.46, "button" on 2.56).
        func role(_ constant: String) -> String {
            lines.first { $0.hasPrefix("ROLE \(constant) ") }.map { String($0.dropFirst(6 + constant.count)) } ?? "?"
        }
        /// The index in `spoken` of the utterance each step matched, by step number.
        var marks: [Int: Int] {
            var result: [Int: Int] = [:]
            var utterance = 0
            var mark: Int?
            for line in lines {
                if line.hasPrefix("MARK ") { mark = Int(line.dropFirst(5)) }
                if line.hasPrefix("SPOKEN ") {
                    if let step = mark { result[step] = utterance }
                    mark = nil
                    utterance += 1
                }
            }
            return result
        }
        func matched(_ step: Int) -> String? { marks[step].map { spoken[$0] } }
        /// Whether a tooltip's showing was spoken as Orca does: "tool tip" and its text (Orca
        /// 43), or "tool tip" alone when its text only repeats what Orca said of the focused
        /// control just before (Orca 48 leaves out a name equal to the focus's name or
        /// description).
        func spokeToolTip(step: Int, text: String) -> Bool {
            guard let index = marks[step] else { return false }
            if spoken[index] == "tool tip " + text { return true }
            let plain = text.hasSuffix(".") ? String(text.dropLast()) : text
            return spoken[index] == "tool tip" && spoken[max(0, index - 3)..<index].contains { $0.contains(plain) }
        }
    }

    /// Runs `scripts/orca-probe.py` on the demo (Debian's Orca on its own display and session
    /// bus) with `--walk` steps; nil when it did not finish. A step's text may name a role by
    /// pyatspi's constant (`{ROLE_PUSH_BUTTON}`): the probe puts in the name Orca speaks for it.
    static func orca(walk steps: [String], windowManager: Bool = false) throws -> OrcaRun? {
        let server = try XvfbServer()
        defer { server.stop() }
        let manager = windowManager ? try startOpenbox(on: server) : nil
        defer { manager?.stop() }
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
            ["--", "/usr/bin/python3", script, "--walk"] + steps + [
                "--", ProgramProcess.executablePath("tooltip-demo"),
            ],
            environment: environment, stdout: .file(output), stderr: .null, ownProcessGroup: true)
        defer { probe.stop() }  // the probe's Orca, bus and program go with it
        // The probe stops at its first step that times out (20 s), and at once when Orca never
        // listens or never sees the demo: a minute is ample.
        guard probe.wait(timeout: 120) != nil else {
            // What the probe heard until then says which step never came.
            let heard = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            Issue.record("the Orca probe heard, before it was stopped:\n\(heard.suffix(4000))")
            return nil
        }
        let lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n")
        return OrcaRun(lines: lines.map(String.init))
    }

    /// Debian's Orca, on its own display and session bus, speaks the Buy button focused with the
    /// keyboard (the window opened on it: Tab moves on to the cart, Shift-Tab comes back): its
    /// name and role, then its tooltip as the description.
    @Test func orcaSpeaksTheFocusedBuyButtonAndItsRole() throws {
        let steps = [
            "Tab=Add to Cart {ROLE_PUSH_BUTTON}.", "shift+Tab=Buy, Only $9.99 {ROLE_PUSH_BUTTON}.",
            "=Click to buy this item.",
        ]
        guard let run = try Self.orca(walk: steps) else { return }
        #expect(run.errors.isEmpty, "\(run.errors)")
        #expect(["push button", "button"].contains(run.role("ROLE_PUSH_BUTTON")), "\(run.lines)")
        #expect(run.matched(1) == "Buy, Only $9.99 \(run.role("ROLE_PUSH_BUTTON")).", "Orca said: \(run.spoken)")
        #expect(run.matched(2) == Self.buyText, "and read the tooltip as the description: \(run.spoken)")
    }

    /// A keyboard walk under Orca (tooltips presented, as a user who wants them read sets it):
    /// each control Tab and Shift-Tab reach is spoken with its role, name and tooltip; the
    /// focus tooltip that follows is spoken as a tool tip, Escape hides it; an icon with a click
    /// tooltip is a push button whose tooltip Space shows and Orca speaks. Each step waits for
    /// its words (or the demo's report of the show or the hide) before the next key. The window
    /// opened with the Buy button focused, so the first Tab moves on to the cart.
    @Test func orcaWalksTheDemoByKeyboard() throws {
        let button = "{ROLE_PUSH_BUTTON}"
        let steps: [(step: String, spoken: String?)] = [
            ("Tab=Add to Cart \(button).", "Add to Cart \(button)."),
            ("=Your cart is empty.", "Add this item to your cart. Your cart is empty."),
            ("=!shown", nil),
            ("Escape=!hidden", nil),
            ("shift+Tab=Buy, Only $9.99 \(button).", "Buy, Only $9.99 \(button)."),
            ("=Click to buy this item.", Self.buyText),
            ("=tool tip", nil),  // the tool tip: checked below
            ("Escape=!hidden", nil),
            ("Tab=Add to Cart \(button).", "Add to Cart \(button)."),
            ("Tab=read only text.", "read only text."),
            ("=Select some of this text", nil),
            ("Tab=Home \(button).", "Home \(button)."),
            ("space=tool tip", nil),  // the icon's click tooltip: checked below
            ("Escape=!hidden", nil),
            ("Tab=Camera \(button).", "Camera \(button)."),
        ]
        guard let run = try Self.orca(walk: steps.map(\.step)) else { return }
        #expect(run.errors.isEmpty, "\(run.errors)")
        let results = run.lines.filter { $0.hasPrefix("STEP ") }
        #expect(results.count == steps.count && results.allSatisfy { $0.hasSuffix(" ok") }, "\(run.lines)")
        // The utterance each step waited for, exactly.
        let role = run.role("ROLE_PUSH_BUTTON")
        for (number, step) in steps.enumerated() {
            guard let spoken = step.spoken else { continue }
            let expected = spoken.replacingOccurrences(of: button, with: role)
            #expect(run.matched(number) == expected, "step \(number) \(step.step): \(run.lines)")
        }
        #expect(run.spokeToolTip(step: 6, text: Self.buyText), "the Buy button's tooltip: \(run.spoken)")
        #expect(run.spokeToolTip(step: 12, text: "Home."), "the Home icon's tooltip: \(run.spoken)")
    }

    /// The Check Out button's keyboard shortcut under Orca: its key binding is spoken with the
    /// button when focus reaches it ("Check Out push button Ctrl+Return." from Orca 43, "Check
    /// Out button." and "Ctrl+Return Check out 1 item for $9.99." from Orca 48), and its tooltip
    /// as "text (Ctrl+Return)". Space on the cart, while its tooltip shows, enables Check Out
    /// (Orca says nothing of a tooltip that changes in place: the step waits for nothing, and
    /// Escape follows it in order). Escape hides the cart's tooltip before Tab, so that Check
    /// Out's comes after the demo's delay: Orca 48 drops a tooltip's showing that comes within
    /// 0.1 s of another's hiding.
    @Test func orcaSpeaksTheCheckoutButtonsShortcut() throws {
        // The window opened with the Buy button focused: the first Tab reaches the cart.
        let steps = [
            "Tab=Add to Cart {ROLE_PUSH_BUTTON}.", "=!shown", "space=", "Escape=!hidden",
            "Tab=Check Out {ROLE_PUSH_BUTTON}", "=tool tip Check out",
        ]
        guard let run = try Self.orca(walk: steps) else { return }
        #expect(run.errors.isEmpty, "\(run.errors)")
        let results = run.lines.filter { $0.hasPrefix("STEP ") }
        #expect(results.count == steps.count && results.allSatisfy { $0.hasSuffix(" ok") }, "\(run.lines)")
        let button = try #require(run.marks[4], "\(run.lines)")
        let withTheButton = run.spoken[button...].prefix(2)
        #expect(withTheButton.first?.hasPrefix("Check Out \(run.role("ROLE_PUSH_BUTTON"))") == true, "\(run.spoken)")
        #expect(withTheButton.contains { $0.contains("Ctrl+Return") }, "the shortcut with the button: \(run.spoken)")
        #expect(run.matched(5) == "tool tip Check out 1 item for $9.99. (Ctrl+Return)", "Orca said: \(run.spoken)")
    }

    /// An Xlib program that embeds X11UI (its own loop, `Application(display:)`): the
    /// application is on the desktop with the embedded button, its tooltip as description.
    @Test func anEmbeddingProgramRegistersItsViews() throws {
        let run = try Self.probe(["--tree-only", "embed-example"])
        #expect(run.report["errors"] as? [String] == [])
        let tree = try #require(run.report["tree"] as? [String: Any])
        #expect(tree["name"] as? String == "embed-example")
        let button = try #require(run.nodes["embedded-button"], "the embedded button is in the tree")
        #expect(button["role"] as? String == "ROLE_PUSH_BUTTON")
        #expect(button["name"] as? String == "X11UI button, clicked 0 times")
        #expect(button["description"] as? String == "An X11UI view inside an Xlib window")
        #expect(button["actions"] as? [String] == ["click", "toggle tooltip"])
        let panel = try #require((tree["children"] as? [[String: Any]])?.first)
        #expect(panel["role"] as? String == "ROLE_PANEL", "views in a host's window are a panel")
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
