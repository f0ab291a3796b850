/// The AT-SPI2 interfaces X11UI's objects implement, answered from the live view tree:
/// Accessible, Component, Action, Text (text views, labels, the tooltip), Application (the root), and the
/// properties of each through `org.freedesktop.DBus.Properties`.
extension AccessibilityBridge {
    private static let atspi = "org.a11y.atspi."

    /// Handles a method call to one of the application's objects; returns whether it was one.
    func receive(_ message: DBusMessage) -> Bool {
        if message.isSignal {
            if message.interface == "org.a11y.atspi.Registry" { listenerSignal(message) }
            return false
        }
        guard message.isMethodCall, let path = message.path, let member = message.member else { return false }
        if path == Self.cachePath {
            let interface = message.interface ?? ""
            guard interface == Self.cacheInterface || interface.isEmpty, let result = cache(member) else {
                reply(to: message, error: "org.freedesktop.DBus.Error.UnknownMethod", "\(interface).\(member)")
                return true
            }
            if message.expectsReply, let reply = bus.reply(to: message, result) { bus.send(reply) }
            return true
        }
        guard let node = node(at: path) else {
            guard path.hasPrefix("/org/a11y/atspi/accessible") else { return false }
            reply(to: message, error: "org.freedesktop.DBus.Error.UnknownObject", "No such object: \(path)")
            return true
        }
        let arguments = message.arguments
        let interface = message.interface ?? ""
        let result: [DBusValue]?
        switch interface {
        case "org.freedesktop.DBus.Properties": result = properties(node, member, arguments)
        case Self.atspi + "Accessible": result = accessible(node, member, arguments)
        case Self.atspi + "Component": result = component(node, member, arguments)
        case Self.atspi + "Action": result = action(node, member, arguments)
        case Self.atspi + "Text": result = text(node, member, arguments)
        case Self.atspi + "Application": result = member == "GetLocale" ? [.string(Self.locale)] : nil
        default: result = nil
        }
        if let result {
            if message.expectsReply, let reply = bus.reply(to: message, result) { bus.send(reply) }
        } else {
            reply(to: message, error: "org.freedesktop.DBus.Error.UnknownMethod", "\(interface).\(member)")
        }
        return true
    }

    private func reply(to message: DBusMessage, error: String, _ text: String) {
        if message.expectsReply, let reply = bus.errorReply(to: message, name: error, message: text) {
            bus.send(reply)
        }
    }

    private func listenerSignal(_ message: DBusMessage) {
        let arguments = message.arguments
        // (ss) from older registries, (ssas) from at-spi2-core 2.46 (with the listener's properties).
        guard arguments.count >= 2, let name = arguments[0].stringValue, let event = arguments[1].stringValue else {
            return
        }
        switch message.member {
        case "EventListenerRegistered": listenerRegistered(name: name, event: event)
        case "EventListenerDeregistered": listenerDeregistered(name: name, event: event)
        default: break
        }
    }

    static var locale: String {
        let value = Environment.value("LC_ALL") ?? Environment.value("LC_MESSAGES") ?? Environment.value("LANG")
        return value.flatMap { $0.isEmpty ? nil : $0 } ?? "C"
    }

    /// The interfaces an object implements.
    func interfaces(of node: AccessibleNode) -> [String] {
        var names = ["Accessible"]
        switch node {
        case .application: names.append("Application")
        case .view(let view):
            names.append("Component")
            if !node.actions.isEmpty { names.append("Action") }
            if view is TextView || view is Label { names.append("Text") }
        case .toolTip: names += ["Component", "Text"]  // its labels' text, as GTK's tooltip window offers
        default: names.append("Component")
        }
        return names.map { Self.atspi + $0 }
    }

    // MARK: - Properties

    private func properties(_ node: AccessibleNode, _ member: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        switch member {
        case "Get":
            guard arguments.count == 2, let interface = arguments[0].stringValue, let name = arguments[1].stringValue,
                let value = property(node, interface: interface, name: name)
            else { return nil }
            return [.variant(value)]
        case "GetAll":
            guard let interface = arguments.first?.stringValue else { return nil }
            let names = Self.propertyNames[interface] ?? []
            return [
                .properties(
                    names.compactMap { name in property(node, interface: interface, name: name).map { (name, $0) } })
            ]
        case "Set":
            return []  // the registry sets the application's Id; nothing else is writable
        default:
            return nil
        }
    }

    private static let propertyNames: [String: [String]] = [
        atspi + "Accessible": ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId"],
        atspi + "Application": ["ToolkitName", "Version", "AtspiVersion", "Id"],
        atspi + "Action": ["NActions"],
        atspi + "Text": ["CharacterCount", "CaretOffset"],
    ]

    private func property(_ node: AccessibleNode, interface: String, name: String) -> DBusValue? {
        switch (interface, name) {
        case (Self.atspi + "Accessible", "Name"): return .string(node.name)
        case (Self.atspi + "Accessible", "Description"): return .string(description(of: node))
        case (Self.atspi + "Accessible", "Parent"): return parentReference(of: node)
        case (Self.atspi + "Accessible", "ChildCount"): return .int32(Int32(node.children.count))
        case (Self.atspi + "Accessible", "Locale"): return .string(Self.locale)
        case (Self.atspi + "Accessible", "AccessibleId"):
            if case .view(let view) = node { return .string(view.identifier ?? "") }
            return .string("")
        case (Self.atspi + "Application", "ToolkitName"): return .string("X11UI")
        case (Self.atspi + "Application", "Version"): return .string("1.0")
        case (Self.atspi + "Application", "AtspiVersion"): return .string("2.1")
        case (Self.atspi + "Application", "Id"): return .int32(0)
        case (Self.atspi + "Action", "NActions"): return .int32(Int32(node.actions.count))
        case (Self.atspi + "Text", "CharacterCount"):
            guard let text = AccessibleText(node) else { return nil }
            return .int32(Int32(clamping: text.text.unicodeScalars.count))
        case (Self.atspi + "Text", "CaretOffset"):
            guard let text = AccessibleText(node) else { return nil }
            return .int32(Int32(clamping: text.caretOffset))
        default: return nil
        }
    }

    /// An object's description, remembered as read for a view.
    func description(of node: AccessibleNode) -> String {
        let description = node.description
        if case .view(let view) = node { noteDescriptionRead(description, of: view) }
        return description
    }

    // MARK: - Accessible

    private func accessible(_ node: AccessibleNode, _ member: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        switch member {
        case "GetChildAtIndex":
            let children = node.children
            guard let index = arguments.first?.intValue, children.indices.contains(index) else {
                return [reference(nil)]
            }
            return [reference(children[index])]
        case "GetChildren":
            return [.array(element: "(so)", node.children.map { reference($0) })]
        case "GetIndexInParent": return [.int32(Int32(node.indexInParent))]
        case "GetRelationSet": return [relations(of: node)]
        case "GetRole": return [.uint32(node.role.rawValue)]
        case "GetRoleName", "GetLocalizedRoleName": return [.string(node.role.name)]
        case "GetState":
            var words: [UInt32] = [0, 0]
            for state in node.states { words[state.rawValue / 32] |= 1 << UInt32(state.rawValue % 32) }
            return [.array(element: "u", words.map { .uint32($0) })]
        case "GetAttributes":
            var attributes: [DBusValue] = [.dictionaryEntry(.string("toolkit"), .string("X11UI"))]
            if case .view(let view) = node, let identifier = view.identifier {
                attributes.append(.dictionaryEntry(.string("id"), .string(identifier)))
            }
            return [.array(element: "{ss}", attributes)]
        case "GetApplication": return [reference(.application(application))]
        case "GetInterfaces": return [.array(element: "s", interfaces(of: node).map { .string($0) })]
        default: return nil
        }
    }

    /// DESCRIBED_BY from a view to the tooltip showing for it, DESCRIPTION_FOR back.
    private func relations(of node: AccessibleNode) -> DBusValue {
        let describedBy: UInt32 = 18
        let descriptionFor: UInt32 = 17
        var relations: [DBusValue] = []
        let shownSource = application.toolTips.accessibleText != nil ? application.toolTips.shownSource : nil
        switch node {
        case .view(let view) where view === shownSource:
            relations.append(
                .structure([.uint32(describedBy), .array(element: "(so)", [reference(.toolTip(application))])]))
        case .toolTip:
            if let shownSource {
                relations.append(
                    .structure([.uint32(descriptionFor), .array(element: "(so)", [reference(.view(shownSource))])]))
            }
        default: break
        }
        return .array(element: "(ua(so))", relations)
    }

    // MARK: - Component

    /// Coordinates AT-SPI2 asks in: 0 the screen, 1 the window, 2 the parent.
    private func rectangle(of node: AccessibleNode, in coordinates: Int) -> Rect {
        guard let frame = node.frameOnScreen else { return Rect(x: -1, y: -1, width: -1, height: -1) }
        var origin = Point.zero
        if coordinates == 1, let window = node.window, let windowOrigin = window.screenOrigin {
            origin = windowOrigin
        } else if coordinates == 2, let parent = node.parent?.frameOnScreen {
            origin = parent.origin
        }
        return frame.offsetBy(dx: -origin.x, dy: -origin.y)
    }

    private func component(_ node: AccessibleNode, _ member: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        let coordinates = arguments.last?.intValue ?? 0
        switch member {
        case "GetExtents":
            let r = rectangle(of: node, in: coordinates)
            return [.structure([r.minX, r.minY, r.width, r.height].map { .int32(Self.pixels($0)) })]
        case "GetPosition":
            let r = rectangle(of: node, in: coordinates)
            return [.int32(Self.pixels(r.minX)), .int32(Self.pixels(r.minY))]
        case "GetSize":
            let r = rectangle(of: node, in: 0)
            return [.int32(Self.pixels(r.width)), .int32(Self.pixels(r.height))]
        case "Contains", "GetAccessibleAtPoint":
            guard arguments.count >= 2, let x = arguments[0].intValue, let y = arguments[1].intValue else { return nil }
            let r = rectangle(of: node, in: coordinates)
            let point = Point(x: Double(x), y: Double(y))
            if member == "Contains" { return [.bool(r.contains(point))] }
            let hit = node.children.last { rectangle(of: $0, in: coordinates).contains(point) }
            return [reference(hit)]
        case "GetLayer": return [.uint32(node.isToolTipNode ? 5 : 3)]  // popup or widget layer
        case "GetMDIZOrder": return [.int16(0)]
        case "GetAlpha": return [.double(1)]
        case "GrabFocus":
            guard case .view(let view) = node, let window = view.window, view.acceptsFocus else {
                return [.bool(false)]
            }
            window.focus(view, byKeyboard: true)
            return [.bool(view.isFocused)]
        default: return nil
        }
    }

    /// A coordinate as whole pixels; 0 for one a program left infinite or not a number.
    static func pixels(_ value: Double) -> Int32 {
        Int32(clamping: Int(exactly: value.rounded()) ?? 0)
    }

    // MARK: - Action

    private func action(_ node: AccessibleNode, _ member: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        let actions = node.actions
        let index = arguments.first?.intValue ?? -1
        let chosen = actions.indices.contains(index) ? actions[index] : nil
        switch member {
        case "GetName", "GetLocalizedName": return [.string(chosen?.name ?? "")]
        case "GetDescription": return [.string(chosen?.description ?? "")]
        case "GetKeyBinding": return [.string(chosen.map { node.keyBinding(ofAction: $0.name) } ?? "")]
        case "GetActions":
            return [
                .array(
                    element: "(sss)",
                    actions.map {
                        .structure([
                            .string($0.name), .string($0.description), .string(node.keyBinding(ofAction: $0.name)),
                        ])
                    })
            ]
        case "DoAction":
            // After the reply: the action may close windows or change the tree being answered from.
            guard chosen != nil else { return [.bool(false)] }
            application.schedule(after: .zero) { _ = node.performAction(index) }
            return [.bool(true)]
        default: return nil
        }
    }
}

extension AccessibleNode {
    var isToolTipNode: Bool {
        if case .toolTip = self { return true }
        return false
    }
}
