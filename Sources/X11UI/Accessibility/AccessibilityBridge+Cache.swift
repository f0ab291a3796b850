/// AT-SPI2's Cache interface on `/org/a11y/atspi/cache`: the whole tree in one reply
/// (`GetItems`), and `AddAccessible` / `RemoveAccessible` as objects appear and go (a tooltip
/// shows or hides, a view is added, removed, shown or hidden, a window maps or goes).
///
/// libatspi asks `GetItems` when it first meets the application and keeps what it gets: each
/// object's name, role, description, states, parent and child count. Item layout
/// (at-spi2-core's `xml/Cache.xml`, read by `add_accessible_from_iter` in `atspi-misc.c`):
/// `((so)(so)(so)iiassusau)`: the object, the application, the parent, the index in the
/// parent, the child count, the interfaces, the name, the role, the description, the states.
extension AccessibilityBridge {
    static let cachePath = "/org/a11y/atspi/cache"
    static let cacheInterface = "org.a11y.atspi.Cache"
    /// The signature of one cache item.
    static let cacheItemSignature = "((so)(so)(so)iiassusau)"

    /// Answers a call to the cache object; nil for a method it does not have.
    func cache(_ member: String) -> [DBusValue]? {
        switch member {
        case "GetItems":
            return [.array(element: Self.cacheItemSignature, cacheItems())]
        default: return nil
        }
    }

    /// Every object of the tree, parents before their children.
    func cacheItems() -> [DBusValue] {
        var items: [DBusValue] = []
        let application = AccessibleNode.application(application)
        if desktop != nil {
            appendSubtree(application, parent: nil, index: -1, to: &items)
        } else {
            // libatspi would take the application's null parent as having none: it waits for
            // the registry's answer, and its children come alone.
            for (index, child) in application.children.enumerated() {
                appendSubtree(child, parent: application, index: index, to: &items)
            }
        }
        return items
    }

    /// Appends `node` (at `index` in `parent`) and the objects inside it, parents first; the
    /// tree is walked once, each object's parent and index known on the way.
    private func appendSubtree(
        _ node: AccessibleNode, parent: AccessibleNode?, index: Int, to items: inout [DBusValue]
    ) {
        let children = node.children
        items.append(cacheItem(node, parent: parent, index: index, childCount: children.count))
        for (index, child) in children.enumerated() {
            appendSubtree(child, parent: node, index: index, to: &items)
        }
    }

    /// One object as a cache item. The application's parent is the desktop, at index -1:
    /// libatspi would put it at a real index of the desktop's children, over whichever
    /// application is there.
    private func cacheItem(_ node: AccessibleNode, parent: AccessibleNode?, index: Int, childCount: Int) -> DBusValue {
        var words: [UInt32] = [0, 0]
        for state in node.states { words[state.rawValue / 32] |= 1 << UInt32(state.rawValue % 32) }
        return .structure([
            reference(node), reference(.application(application)),
            node.isApplication ? parentReference(of: node) : reference(parent),
            .int32(Int32(clamping: node.isApplication ? -1 : index)), .int32(Int32(clamping: childCount)),
            .array(element: "s", interfaces(of: node).map { .string($0) }),
            .string(node.name), .uint32(node.role.rawValue), .string(description(of: node)),
            .array(element: "u", words.map { .uint32($0) }),
        ])
    }

    /// Whether cache signals are worth sending: some client registered an event listener (a
    /// screen reader runs). libatspi subscribes to cache signals with a match rule of its own
    /// that the registry does not announce, so any registered listener stands for it.
    var sendsCacheSignals: Bool { hasListeners }

    /// Tells clients' caches about `node` and the objects inside it.
    func cacheAdd(_ node: AccessibleNode) {
        guard sendsCacheSignals else { return }
        var items: [DBusValue] = []
        appendSubtree(node, parent: node.parent, index: node.indexInParent, to: &items)
        for item in items {
            if let signal = bus.signal(
                path: Self.cachePath, interface: Self.cacheInterface, member: "AddAccessible", [item])
            {
                bus.send(signal)
            }
        }
    }

    /// Tells clients' caches that `node` and the objects inside it are gone (innermost first).
    /// Only objects a client can know of (they have a path already) are named.
    func cacheRemove(_ node: AccessibleNode) {
        guard sendsCacheSignals else { return }
        var paths: [String] = []
        func visit(_ node: AccessibleNode) {
            for child in node.children { visit(child) }
            if let path = knownPath(of: node) { paths.append(path) }
        }
        visit(node)
        for path in paths {
            if let signal = bus.signal(
                path: Self.cachePath, interface: Self.cacheInterface, member: "RemoveAccessible",
                [.structure([.string(bus.uniqueName), .objectPath(path)])])
            {
                bus.send(signal)
            }
        }
    }
}
