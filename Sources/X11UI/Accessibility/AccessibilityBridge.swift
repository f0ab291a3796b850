/// X11UI's AT-SPI2 provider: the application on the accessibility bus, so screen readers
/// (Orca), magnifiers and test tools see its windows, views and tooltips.
///
/// It connects through the run loop once the application runs, registers the application
/// root with the registry (`org.a11y.atspi.Socket.Embed`), answers the registry's and the
/// clients' method calls from the live view tree, and emits events only for those some client
/// registered a listener for. Without an accessibility bus it is never created.
@MainActor
final class AccessibilityBridge {
    static let rootPath = "/org/a11y/atspi/accessible/root"
    static let toolTipPath = "/org/a11y/atspi/accessible/tooltip"
    static let nullPath = "/org/a11y/atspi/null"
    private static let objectPrefix = "/org/a11y/atspi/accessible/"

    unowned let application: Application
    let bus: DBusConnection
    /// The desktop, the application's parent once the registry answered `Embed`.
    private(set) var desktop: (name: String, path: String)?
    /// Event listeners registered with the registry: (bus name, event) pairs.
    private var listeners: [(name: String, event: [String])] = []

    /// Objects by path number, weakly, and numbers by object.
    private var objects: [Int: WeakObject] = [:]
    private var numbers: [ObjectIdentifier: Int] = [:]
    private var nextNumber = 0
    /// The descriptions last told to clients, to emit changes only.
    private var descriptions: [ObjectIdentifier: String] = [:]
    /// The window keys reach without having had a focus change (pointer-root focus).
    private(set) weak var keyboardWindow: Window?
    /// The tooltip's text and source last told to clients.
    private var toolTipState: (text: String, source: WeakObject)?
    /// The text of the tooltip shown last, shown or not: the tool tip object keeps it once
    /// hidden, as GTK's tooltip window keeps its label's, so that a screen reader that reads
    /// the object late (its showing event queued behind others) hears what showed, not nothing.
    private(set) var lastToolTipText: String?

    init(application: Application, bus: DBusConnection, retry: SessionBusRetry) {
        self.application = application
        self.bus = bus
        bus.onMessage = { [unowned self] message in self.receive(message) }
        bus.onDisconnect = { [weak application] in
            guard let application else { return }
            application.accessibility = nil
            Self.connectionWasLost(application, retry: retry)
        }
        register()
    }

    func close() {
        bus.close()
        if application.accessibility === self { application.accessibility = nil }
    }

    // MARK: - Registration

    private func register() {
        let registry = "org.a11y.atspi.Registry"
        bus.addMatch("type='signal',interface='org.a11y.atspi.Registry',member='EventListenerRegistered'")
        bus.addMatch("type='signal',interface='org.a11y.atspi.Registry',member='EventListenerDeregistered'")
        if let call = bus.methodCall(
            destination: registry, path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry",
            member: "GetRegisteredEvents")
        {
            bus.call(call) { [weak self] reply in
                guard let self, case .array(_, let pairs)? = reply?.arguments.first else { return }
                for case .structure(let fields) in pairs where fields.count >= 2 {
                    if let name = fields[0].stringValue, let event = fields[1].stringValue {
                        self.listenerRegistered(name: name, event: event)
                    }
                }
                self.reportActiveWindows()
            }
        }
        let root = DBusValue.structure([.string(bus.uniqueName), .objectPath(Self.rootPath)])
        if let call = bus.methodCall(
            destination: registry, path: Self.rootPath, interface: "org.a11y.atspi.Socket", member: "Embed", [root])
        {
            bus.call(call) { [weak self] reply in
                guard let self, case .structure(let fields)? = reply?.arguments.first, fields.count == 2,
                    let name = fields[0].stringValue, let path = fields[1].stringValue
                else { return }
                self.desktop = (name, path)
            }
        }
    }

    func listenerRegistered(name: String, event: String) {
        listeners.append((name, Self.eventParts(event)))
    }

    func listenerDeregistered(name: String, event: String) {
        let parts = Self.eventParts(event)
        if let index = listeners.firstIndex(where: { $0.name == name && $0.event == parts }) {
            listeners.remove(at: index)
        }
    }

    /// An event name's parts, lower case without separators, so that "object:state-changed",
    /// "Object:StateChanged:" and "object:state_changed" compare equal.
    static func eventParts(_ event: String) -> [String] {
        event.split(separator: ":", omittingEmptySubsequences: false).map {
            String($0.lowercased().filter { $0 != "-" && $0 != "_" })
        }
    }

    /// Whether any client registered an event listener.
    var hasListeners: Bool { !listeners.isEmpty }

    /// Whether some client listens for the event (`object:state-changed:focused`, say): a
    /// registered name matches when each of its non-empty parts equals the event's.
    func isListened(_ event: String) -> Bool {
        let parts = Self.eventParts(event)
        return listeners.contains { Self.listener($0.event, matches: parts) }
    }

    /// Whether a registered listener's parts match an event's.
    static func listener(_ listener: [String], matches event: [String]) -> Bool {
        listener.enumerated().allSatisfy { index, part in
            part.isEmpty || (index < event.count && event[index] == part)
        }
    }

    // MARK: - Objects and paths

    func path(of node: AccessibleNode) -> String {
        switch node {
        case .application: return Self.rootPath
        case .toolTip: return Self.toolTipPath
        case .window(let window): return Self.objectPrefix + String(number(of: window))
        case .view(let view): return Self.objectPrefix + String(number(of: view))
        }
    }

    /// The path of an object clients may know of: nil for a window or view never named to them.
    func knownPath(of node: AccessibleNode) -> String? {
        let object: AnyObject
        switch node {
        case .application, .toolTip: return path(of: node)
        case .window(let window): object = window
        case .view(let view): object = view
        }
        guard let number = numbers[ObjectIdentifier(object)], objects[number]?.object === object else { return nil }
        return Self.objectPrefix + String(number)
    }

    private func number(of object: AnyObject) -> Int {
        let key = ObjectIdentifier(object)
        if let number = numbers[key], objects[number]?.object === object { return number }
        nextNumber += 1
        numbers[key] = nextNumber
        objects[nextNumber] = WeakObject(object)
        if objects.count > 64, objects.count.isMultiple(of: 64) { forgetGoneObjects() }
        return nextNumber
    }

    private func forgetGoneObjects() {
        objects = objects.filter { $0.value.object != nil }
        numbers = numbers.filter { objects[$0.value] != nil }
        descriptions = descriptions.filter { key, _ in numbers[key] != nil }
    }

    func node(at path: String) -> AccessibleNode? {
        if path == Self.rootPath { return .application(application) }
        if path == Self.toolTipPath { return .toolTip(application) }
        guard path.hasPrefix(Self.objectPrefix), let number = Int(path.dropFirst(Self.objectPrefix.count)) else {
            return nil
        }
        switch objects[number]?.object {
        case let window as Window: return .window(window)
        case let view as View: return view.window == nil ? nil : .view(view)
        default: return nil
        }
    }

    /// A reference `(so)` to an object of this application.
    func reference(_ node: AccessibleNode?) -> DBusValue {
        guard let node else { return .structure([.string(""), .objectPath(Self.nullPath)]) }
        return .structure([.string(bus.uniqueName), .objectPath(path(of: node))])
    }

    /// The reference of an object's parent: the desktop for the application.
    func parentReference(of node: AccessibleNode) -> DBusValue {
        if node.isApplication, let desktop {
            return .structure([.string(desktop.name), .objectPath(desktop.path)])
        }
        return reference(node.parent)
    }

    // MARK: - Events

    /// Emits an AT-SPI2 event from `node` when some client listens for it.
    func emit(
        _ node: AccessibleNode, _ interface: String, _ member: String, detail: String = "", _ detail1: Int = 0,
        _ detail2: Int = 0, data: DBusValue = .int32(0)
    ) {
        let name = Self.eventName(interface: interface, member: member, detail: detail)
        guard isListened(name),
            let signal = bus.signal(
                path: path(of: node), interface: "org.a11y.atspi.Event." + interface, member: member,
                [
                    .string(detail), .int32(Int32(clamping: detail1)), .int32(Int32(clamping: detail2)),
                    .variant(data), .properties([]),
                ])
        else { return }
        bus.send(signal)
    }

    /// The listener name of an event: `Object`, `StateChanged`, `focused` → `object:state-changed:focused`.
    static func eventName(interface: String, member: String, detail: String) -> String {
        var kind = ""
        for character in member {
            if character.isUppercase, !kind.isEmpty { kind.append("-") }
            kind.append(Character(character.lowercased()))
        }
        return interface.lowercased() + ":" + kind + ":" + detail
    }

    /// Focus moved between views. The focus a window gives as it opens (`initial`) makes no
    /// window active: in a window without the input focus it is only a state, told with the
    /// window's activation when the input focus comes.
    func focusDidMove(from old: View?, to new: View?, initial: Bool = false) {
        if let old { emit(.view(old), "Object", "StateChanged", detail: "focused", 0) }
        guard let new else { return }
        if initial, let window = new.window, !window.focusState.windowHasFocus, keyboardWindow !== window {
            emit(.view(new), "Object", "StateChanged", detail: "focused", 1)
            return
        }
        // Keys reach a window without a focus change of its own under pointer-root focus (no
        // window manager): focus moving inside it makes it the active window, or screen
        // readers would ignore focus in a frame that is not active.
        if let window = new.window, !window.focusState.windowHasFocus, keyboardWindow !== window {
            if let previous = keyboardWindow { windowDidChangeActivation(previous, isActive: false) }
            keyboardWindow = window
            windowDidChangeActivation(window, isActive: true, reportingFocus: false)
        }
        emit(.view(new), "Object", "StateChanged", detail: "focused", 1)
        emit(.view(new), "Focus", "Focus")
    }

    /// The window became active or inactive; an active window's focused view follows unless
    /// the caller reports it itself (`reportingFocus` false).
    func windowDidChangeActivation(_ window: Window, isActive: Bool, reportingFocus: Bool = true) {
        if keyboardWindow === window, !isActive || window.focusState.windowHasFocus { keyboardWindow = nil }
        emit(.window(window), "Object", "StateChanged", detail: "active", isActive ? 1 : 0)
        emit(.window(window), "Window", isActive ? "Activate" : "Deactivate", data: .string(window.title))
        // As GTK does: the active window's focused control follows its activation, so a screen
        // reader announces the window, then the control.
        if isActive, reportingFocus, let view = window.focusedView {
            emit(.view(view), "Object", "StateChanged", detail: "focused", 1)
            emit(.view(view), "Focus", "Focus")
        }
    }

    /// Reports the windows that had the input focus before the link came up (a window manager
    /// focuses a window as it maps, before its program reaches the accessibility bus): once the
    /// listeners are known, each is activated as a later focus-in would be.
    func reportActiveWindows() {
        for window in application.openWindows where window.isVisible && window.focusState.windowHasFocus {
            windowDidChangeActivation(window, isActive: true)
        }
    }

    func windowDidChangeVisibility(_ window: Window, isVisible: Bool) {
        let node = AccessibleNode.window(window)
        if isVisible { cacheAdd(node) }
        emit(
            .application(application), "Object", "ChildrenChanged", detail: isVisible ? "add" : "remove",
            node.indexInParent, data: reference(node))
        emit(node, "Object", "StateChanged", detail: "showing", isVisible ? 1 : 0)
        // A hidden window that is still the application's child stays in clients' caches.
        if !isVisible, !AccessibleNode.application(application).children.contains(where: { $0.isSame(as: node) }) {
            cacheRemove(node)
        }
    }

    /// The tooltip showed, changed in place, or hid (`source` is the view it belongs to).
    func toolTipDidChange(source: View?) {
        let node = AccessibleNode.toolTip(application)
        let text = application.toolTips.accessibleText
        let previous = toolTipState
        if let text {
            toolTipState = (text, WeakObject(source))
            lastToolTipText = text
            if previous == nil {
                cacheAdd(node)
                emit(
                    .application(application), "Object", "ChildrenChanged", detail: "add", node.indexInParent,
                    data: reference(node))
                emit(node, "Object", "StateChanged", detail: "showing", 1)
            } else if let old = previous?.text, old != text {
                textDidChange(node, from: old, to: text)
                emit(node, "Object", "PropertyChange", detail: "accessible-name", data: .string(text))
            }
        } else if previous != nil {
            toolTipState = nil
            emit(node, "Object", "StateChanged", detail: "showing", 0)
            emit(.application(application), "Object", "ChildrenChanged", detail: "remove", 0, data: reference(node))
            cacheRemove(node)
        }
        if let source { descriptionMayHaveChanged(of: source) }
    }

    /// A view's tooltip may answer differently now (`setNeedsUpdate()`, a new default text).
    func descriptionMayHaveChanged(of view: View) {
        guard view.window != nil else { return }
        let description = view.accessibilityDescription ?? ""
        let key = ObjectIdentifier(view)
        let old = descriptions[key]
        descriptions[key] = description
        _ = number(of: view)  // keeps the remembered description tied to this view
        // Unknown before: a client may hold an older text, so the change is reported.
        guard old != description else { return }
        emit(.view(view), "Object", "PropertyChange", detail: "accessible-description", data: .string(description))
    }

    /// A subview was added to `parent` or is about to be removed from it.
    func childrenDidChange(in parent: View, child: View, added: Bool) {
        guard !child.isHidden else { return }
        objectDidAppear(.view(child), in: parent, added)
    }

    /// Whether a window is one of the application's objects.
    private func isInTree(_ window: Window) -> Bool {
        AccessibleNode.application(application).children.contains { $0.isSame(as: .window(window)) }
    }

    /// A view was hidden or shown (`isHidden`): it leaves or joins its parent's children.
    func visibilityDidChange(of view: View) {
        guard let parent = view.superview else { return }
        objectDidAppear(.view(view), in: parent, !view.isHidden)
    }

    /// A view joins (`appeared`) or leaves the children of `parent`.
    private func objectDidAppear(_ child: AccessibleNode, in parent: View, _ appeared: Bool) {
        // Only in the application's windows (a tooltip's window is not one: its text is the tool tip).
        guard let window = parent.window, isInTree(window) else { return }
        var ancestor: View? = parent
        while let view = ancestor {
            if view is Button { return }  // a button is one object
            ancestor = view.superview
        }
        let node: AccessibleNode = parent === window.rootView ? .window(window) : .view(parent)
        let index = node.children.firstIndex { $0.isSame(as: child) } ?? -1
        if appeared { cacheAdd(child) }
        emit(node, "Object", "ChildrenChanged", detail: appeared ? "add" : "remove", index, data: reference(child))
        if !appeared { cacheRemove(child) }
    }

    func nameDidChange(of view: View) {
        emit(
            .view(view), "Object", "PropertyChange", detail: "accessible-name",
            data: .string(view.resolvedAccessibilityLabel ?? ""))
    }

    /// The whole text of `node` was replaced: AT-SPI2's `text-changed:delete` of the old text,
    /// then `text-changed:insert` of the new (offsets and lengths in characters).
    func textDidChange(_ node: AccessibleNode, from old: String, to new: String) {
        let (removed, inserted) = (old.unicodeScalars.count, new.unicodeScalars.count)
        if removed > 0 { emit(node, "Object", "TextChanged", detail: "delete", 0, removed, data: .string(old)) }
        if inserted > 0 { emit(node, "Object", "TextChanged", detail: "insert", 0, inserted, data: .string(new)) }
    }

    func textSelectionDidChange(in view: TextView) {
        emit(.view(view), "Object", "TextSelectionChanged")
        emit(.view(view), "Object", "TextCaretMoved", view.caretOffset)
    }

    /// Remembers the description a client read, so a later change is reported as a change.
    func noteDescriptionRead(_ description: String, of view: View) {
        descriptions[ObjectIdentifier(view)] = description
    }
}

/// A weak reference to any object.
final class WeakObject {
    weak var object: AnyObject?
    init(_ object: AnyObject?) { self.object = object }
}
