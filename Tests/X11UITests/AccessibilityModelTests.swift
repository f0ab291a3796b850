import Testing

@testable import X11UI

/// What X11UI tells assistive technologies, without a bus: roles, names and descriptions from
/// the widgets and their tooltips, AT-SPI2 event names and listener matching, and D-Bus values
/// written into a libdbus message and read back.
@MainActor
struct AccessibilityModelTests {
    @Test func rolesAndNamesDefaultFromTheWidget() {
        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        #expect(buy.resolvedAccessibilityRole == .pushButton)
        #expect(buy.resolvedAccessibilityLabel == "Buy, Only $9.99")
        #expect(Button(title: "OK").resolvedAccessibilityLabel == "OK")
        let label = Label("Hello")
        #expect(label.resolvedAccessibilityRole == .label)
        #expect(label.resolvedAccessibilityLabel == "Hello")
        #expect(TextView("text").resolvedAccessibilityRole == .text)
        #expect(ImageView(nil).resolvedAccessibilityRole == .image)
        #expect(ImageView(nil).resolvedAccessibilityLabel == nil)
        #expect(VStack {}.resolvedAccessibilityRole == .panel)
        #expect(Spacer().resolvedAccessibilityRole == .filler)
    }

    /// A label or an image with a click tooltip takes focus and toggles it: a push button,
    /// named as before, its tooltip its description; an explicit role still wins.
    @Test func aViewWithAClickTooltipIsAPushButton() {
        let label = Label("도움말")
        label.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "Help"))
        #expect(label.resolvedAccessibilityRole == .pushButton)
        #expect(label.resolvedAccessibilityLabel == "도움말")
        let icon = ImageView(nil)
        let interaction = ToolTipInteraction(trigger: .click, defaultToolTip: "Home")
        icon.addInteraction(interaction)
        #expect(icon.resolvedAccessibilityRole == .pushButton)
        interaction.isEnabled = false
        #expect(icon.resolvedAccessibilityRole == .image)
        let hovered = Label("Hover")
        hovered.addInteraction(ToolTipInteraction(defaultToolTip: "Help"))
        #expect(hovered.resolvedAccessibilityRole == .label)
        label.accessibilityRole = .label
        #expect(label.resolvedAccessibilityRole == .label)
    }

    @Test func aProgramsLabelAndRoleWin() {
        let swatch = View()
        swatch.accessibilityLabel = "Yellow"
        swatch.accessibilityRole = .image
        #expect(swatch.resolvedAccessibilityLabel == "Yellow")
        #expect(swatch.resolvedAccessibilityRole == .image)
        let button = Button(title: "×")
        button.accessibilityLabel = "Close"
        #expect(button.resolvedAccessibilityLabel == "Close")
    }

    final class Counter: ToolTipInteractionDelegate {
        var count = 0
        var region: Rect?
        func toolTipInteraction(
            _ interaction: ToolTipInteraction, configurationAt point: Point
        )
            -> ToolTipConfiguration?
        {
            if let region { return ToolTipConfiguration(toolTip: "Part", in: region) }
            return ToolTipConfiguration(toolTip: "\(count) items")
        }
    }

    @Test func theDescriptionIsTheTooltipForTheWholeView() {
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 30))
        #expect(view.accessibilityDescription == nil)
        view.toolTip = "Saves the file."
        #expect(view.accessibilityDescription == "Saves the file.")

        let cart = View(frame: Rect(x: 0, y: 0, width: 100, height: 30))
        let counter = Counter()
        let tip = ToolTipInteraction()
        tip.delegate = counter
        cart.addInteraction(tip)
        #expect(cart.accessibilityDescription == "0 items")
        counter.count = 3
        #expect(cart.accessibilityDescription == "3 items", "asked afresh")
        counter.region = Rect(x: 0, y: 0, width: 100, height: 10)
        #expect(cart.accessibilityDescription == nil, "a tooltip for a part is not the view's description")
        tip.isEnabled = false
        counter.region = nil
        #expect(cart.accessibilityDescription == nil)

        let home = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        home.addInteraction(
            ToolTipInteraction(trigger: .click) {
                HStack {
                    Label("Home"); Circle(color: .green)
                }
            })
        #expect(home.accessibilityDescription == "Home")
        #expect(home.clickToolTipInteraction != nil)
        let blank = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        blank.toolTip = "   "
        #expect(blank.accessibilityDescription == nil, "whitespace is no tooltip")
    }

    @Test func theNodeOfAViewOutsideAWindow() {
        let button = Button(title: "Buy")
        button.toolTip = "Click to buy."
        let node = AccessibleNode.view(button)
        #expect(node.role == .pushButton)
        #expect(node.name == "Buy")
        #expect(node.description == "Click to buy.")
        #expect(node.states.isSuperset(of: [.enabled, .sensitive, .focusable, .hasToolTip]))
        #expect(!node.states.contains(.showing), "not in a window")
        #expect(node.actions.map(\.name) == ["click"])
        #expect(node.children.isEmpty)
        #expect(node.parent == nil)
        var clicked = 0
        button.action = { clicked += 1 }
        #expect(node.performAction(0))
        #expect(!node.performAction(1))
        #expect(clicked == 1)
        let text = AccessibleNode.view(TextView("Hello"))
        #expect(text.states.isSuperset(of: [.selectableText, .multiLine, .readOnly]))
    }

    @Test func eventNamesAndListeners() {
        #expect(
            AccessibilityBridge.eventName(interface: "Object", member: "StateChanged", detail: "focused")
                == "object:state-changed:focused")
        #expect(AccessibilityBridge.eventName(interface: "Focus", member: "Focus", detail: "") == "focus:focus:")
        let focused = AccessibilityBridge.eventParts("object:state-changed:focused")
        func matches(_ listener: String, _ event: [String]) -> Bool {
            AccessibilityBridge.listener(AccessibilityBridge.eventParts(listener), matches: event)
        }
        #expect(matches("object:state-changed:focused", focused))
        #expect(matches("object:state-changed", focused))
        #expect(matches("Object:StateChanged:", focused), "case and dashes do not matter")
        #expect(matches("object:", focused))
        #expect(!matches("object:state-changed:showing", focused))
        #expect(!matches("window:", focused))
        #expect(matches("focus:", AccessibilityBridge.eventParts("focus:focus:")))
    }

    @Test func textOffsetsCountCharacters() {
        let view = TextView("héllo wörld")
        #expect(view.caretOffset == 0)
        #expect(view.selectionOffsets == nil)
        let start = view.text.index(view.text.startIndex, offsetBy: 6)
        view.select(start..<view.text.endIndex)
        #expect(view.selectionOffsets == 6..<11)
        #expect(view.caretOffset == 11)
    }

    /// Text attributes change only where the direction does: paragraphs of one direction are
    /// one run, and the whole text is one run when it has one direction.
    @Test func textAttributeRunsFollowTheParagraphsDirection() {
        let hebrew = "\u{5E9}\u{5DC}\u{5D5}\u{5DD}"  // four letters
        let runs = AccessibilityBridge.directionRuns(of: "ab\ncd\n" + hebrew + "\nxyz")
        #expect(runs.map(\.range) == [0..<6, 6..<11, 11..<14])
        #expect(runs.map(\.rightToLeft) == [false, true, false])
        #expect(AccessibilityBridge.directionRuns(of: "one run").map(\.range) == [0..<7])
        #expect(AccessibilityBridge.directionRuns(of: "").map(\.range) == [0..<0])

        let style = AccessibilityBridge.TextStyle(
            text: "ab\n" + hebrew, font: Font(family: "serif", size: 16, weight: .bold), color: .label,
            background: .white, alignment: .leading, wraps: true, margin: 8, resolvedFamily: nil)
        let first = AccessibilityBridge.attributeRun(style, at: 1)
        #expect(first.range == 0..<3)
        let values = Dictionary(uniqueKeysWithValues: first.attributes)
        #expect(values["family-name"] == "serif")
        #expect(values["size"] == "12")
        #expect(values["weight"] == "700")
        #expect(values["fg-color"] == "7196,7196,7710")
        #expect(values["bg-color"] == "65535,65535,65535")
        #expect(values["direction"] == "ltr")
        #expect(values["justification"] == "left")
        let second = AccessibilityBridge.attributeRun(style, at: 5)
        #expect(second.range == 3..<7)
        let rtl = Dictionary(uniqueKeysWithValues: second.attributes)
        #expect(rtl["direction"] == "rtl")
        #expect(rtl["justification"] == "right", "leading is the right edge of a right-to-left paragraph")
        // Offsets past the end are the last run's; the defaults take the first paragraph's direction.
        #expect(AccessibilityBridge.attributeRun(style, at: 99).range == 3..<7)
        #expect(Dictionary(uniqueKeysWithValues: AccessibilityBridge.defaultAttributes(style))["direction"] == "ltr")
    }

    @Test func valuesRoundTripThroughALibdbusMessage() throws {
        try #require(DBusLibrary.shared != nil, "libdbus-1 is installed")
        let library = try #require(DBusLibrary.shared)
        let raw = try #require(library.pointee.message_new_signal("/a/b", "org.example.I", "Changed"))
        let message = DBusMessage(adopting: raw, library: library)
        let values: [DBusValue] = [
            .string("focused"), .int32(-1), .uint32(7), .bool(true), .double(0.5), .objectPath("/org/a11y/x"),
            .variant(.string("héllo\u{1F600}")),
            .array(element: "(so)", [.structure([.string(":1.2"), .objectPath("/p")])]),
            .array(element: "u", []),
            .properties([("Name", .string("Buy")), ("Count", .int32(3))]),
        ]
        #expect(message.append(values))
        #expect(message.isSignal)
        #expect(message.path == "/a/b")
        #expect(message.member == "Changed")
        let read = message.arguments
        #expect(read.count == values.count)
        #expect(read.map(\.signature) == values.map(\.signature))
        #expect(Array(read.prefix(8)) == Array(values.prefix(8)))
        #expect(read[9] == values[9])
        #expect(values.map(\.signature).joined() == "siubdova(so)aua{sv}")
    }

    /// An array whose element is not of its declared type is refused (libdbus would abort the
    /// process); a cache item's array with the item's own signature is written.
    @Test func anArrayOfTheWrongTypeIsRefusedNotAborted() throws {
        let library = try #require(DBusLibrary.shared, "libdbus-1 is installed")
        func message() throws -> DBusMessage {
            let raw = try #require(library.pointee.message_new_signal("/a/b", "org.example.I", "Changed"))
            return DBusMessage(adopting: raw, library: library)
        }
        let reference = DBusValue.structure([.string(":1.2"), .objectPath("/p")])
        #expect(try !message().append([.array(element: "s", [reference])]))
        let item = DBusValue.structure([
            reference, reference, reference, .int32(-1), .int32(2), .array(element: "s", [.string("Accessible")]),
            .string("name"), .uint32(75), .string(""), .array(element: "u", [.uint32(0), .uint32(0)]),
        ])
        #expect(item.signature == AccessibilityBridge.cacheItemSignature)
        let written = try message()
        #expect(written.append([.array(element: AccessibilityBridge.cacheItemSignature, [item])]))
        #expect(written.arguments == [.array(element: AccessibilityBridge.cacheItemSignature, [item])])
    }
}
