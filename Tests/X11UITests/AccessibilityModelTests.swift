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
}
