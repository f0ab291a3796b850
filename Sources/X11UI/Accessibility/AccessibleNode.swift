/// One object of the application's accessibility tree: the application, a top-level window
/// (a frame), a view, or the shown tooltip. Pure Swift: what AT-SPI2 is told is decided here.
@MainActor
enum AccessibleNode {
    case application(Application)
    case window(Window)
    case view(View)
    case toolTip(Application)

    /// AT-SPI2 states (`AtspiStateType`) X11UI sets.
    enum State: Int, CaseIterable {
        case active = 1
        case enabled = 8
        case focusable = 11
        case focused = 12
        case hasToolTip = 13
        case multiLine = 17
        case readOnly = 43
        case resizable = 21
        case selectableText = 38
        case sensitive = 24
        case showing = 25
        case visible = 30
    }

    var role: AccessibilityRole {
        switch self {
        case .application: .application
        case .window(let window):
            window.isEmbedded ? .panel : .frame
        case .view(let view): view.resolvedAccessibilityRole
        case .toolTip: .toolTip
        }
    }

    var name: String {
        switch self {
        case .application: Window.programName
        case .window(let window): window.title
        case .view(let view): view.resolvedAccessibilityLabel ?? ""
        case .toolTip(let application):
            application.toolTips.accessibleText ?? application.accessibility?.lastToolTipText ?? ""
        }
    }

    var description: String {
        switch self {
        case .view(let view): view.accessibilityDescription ?? ""
        default: ""
        }
    }

    /// The objects inside this one, in order.
    var children: [AccessibleNode] {
        switch self {
        case .application(let application):
            var nodes = application.openWindows.filter { $0.native != nil }.map { AccessibleNode.window($0) }
            // Views embedded in a host program's windows (Window(embeddedIn:)), in creation order.
            let embedded = application.targets.values.compactMap { target -> Window? in
                guard let window = target as? Window, window.isEmbedded else { return nil }
                return window
            }
            nodes += embedded.sorted { $0.xid < $1.xid }.map { .window($0) }
            if application.toolTips.accessibleText != nil { nodes.append(.toolTip(application)) }
            return nodes
        case .window(let window):
            return window.rootView.subviews.filter { !$0.isHidden }.map { .view($0) }
        case .view(let view):
            // A button is one object: its title is its name, not a label inside it.
            if view is Button { return [] }
            return view.subviews.filter { !$0.isHidden }.map { .view($0) }
        case .toolTip:
            return []
        }
    }

    /// The object this one is inside; nil for the application (whose parent is the desktop)
    /// and for views that are in no window.
    var parent: AccessibleNode? {
        switch self {
        case .application: return nil
        case .window(let window): return window.application.map { .application($0) }
        case .toolTip(let application): return .application(application)
        case .view(let view):
            guard let window = view.window else { return nil }
            guard let superview = view.superview, superview !== window.rootView else { return .window(window) }
            return .view(superview)
        }
    }

    var indexInParent: Int {
        guard let siblings = parent?.children else { return self.isApplication ? 0 : -1 }
        return siblings.firstIndex { $0.isSame(as: self) } ?? -1
    }

    var isApplication: Bool {
        if case .application = self { return true }
        return false
    }

    func isSame(as other: AccessibleNode) -> Bool {
        switch (self, other) {
        case (.application(let a), .application(let b)): a === b
        case (.window(let a), .window(let b)): a === b
        case (.view(let a), .view(let b)): a === b
        case (.toolTip(let a), .toolTip(let b)): a === b
        default: false
        }
    }

    var states: Set<State> {
        switch self {
        case .application:
            return []
        case .window(let window):
            var states: Set<State> = [.enabled, .sensitive, .resizable]
            if window.isVisible { states.formUnion([.showing, .visible]) }
            if window.focusState.windowHasFocus || window.application?.accessibility?.keyboardWindow === window {
                states.insert(.active)
            }
            return states
        case .toolTip(let application):
            return application.toolTips.accessibleText != nil ? [.enabled, .sensitive, .showing, .visible] : [.enabled]
        case .view(let view):
            var states: Set<State> = [.enabled, .sensitive]
            if view.isVisibleInWindow {
                states.insert(.visible)
                if view.window?.isVisible == true { states.insert(.showing) }
            }
            if view.acceptsFocus { states.insert(.focusable) }
            if view.isFocused { states.insert(.focused) }
            if view.interactions.contains(where: { ($0 as? ToolTipInteraction)?.isEnabled == true }) {
                states.insert(.hasToolTip)
            }
            if view is TextView { states.formUnion([.selectableText, .multiLine, .readOnly]) }
            return states
        }
    }

    /// The object's rectangle on the screen (root window coordinates); nil when it is not on it.
    var frameOnScreen: Rect? {
        switch self {
        case .application: return nil
        case .window(let window):
            guard let origin = window.screenOrigin else { return nil }
            return Rect(origin: origin, size: window.bounds.size)
        case .view(let view): return view.frameOnScreen
        case .toolTip(let application): return application.toolTips.shownFrame
        }
    }

    /// The top-level window the object is in, for window-relative coordinates.
    var window: Window? {
        switch self {
        case .window(let window): window
        case .view(let view): view.window
        default: nil
        }
    }

    /// The actions the object offers (AT-SPI2's Action interface): a button's click, what the
    /// keyboard shortcut of another view does, a click tooltip's toggle.
    var actions: [(name: String, description: String)] {
        guard case .view(let view) = self else { return [] }
        var actions: [(String, String)] = []
        if view is Button {
            actions.append(("click", "Clicks the button"))
        } else if view.keyboardShortcut != nil {
            actions.append(("activate", "Does what its keyboard shortcut does"))
        }
        if view.clickToolTipInteraction?.isEnabled == true {
            actions.append(("toggle tooltip", "Shows or hides the tooltip"))
        }
        return actions
    }

    /// The keys of an action, in the format of AT-SPI2 and ATK ("mnemonic;sequence;shortcut",
    /// keys as `gtk_accelerator_name` writes them): a view's keyboard shortcut is the third
    /// part (";;<Control>Return", which Orca reads as "Ctrl+Return"); a button without one is
    /// pressed with Space.
    func keyBinding(ofAction name: String) -> String {
        guard case .view(let view) = self, name == "click" || name == "activate" else { return "" }
        if let shortcut = view.keyboardShortcut { return ";;" + shortcut.acceleratorName }
        return name == "click" ? "space" : ""
    }

    /// Performs the action at `index`; returns whether there was one.
    func performAction(_ index: Int) -> Bool {
        guard case .view(let view) = self, actions.indices.contains(index) else { return false }
        switch actions[index].name {
        case "click":
            (view as? Button)?.performClick()
        case "activate":
            guard view.isEnabledInHierarchy, view.isVisibleInWindow else { return false }
            _ = view.keyboardShortcutPressed()
        default:
            guard let interaction = view.clickToolTipInteraction, interaction.isEnabled,
                let application = view.window?.application
            else {
                return false
            }
            if application.toolTips.shownSource === view { interaction.dismiss() } else { interaction.present() }
        }
        return true
    }
}

extension KeyboardShortcut {
    /// The shortcut as `gtk_accelerator_name` writes it and AT-SPI2 expects it: the modifiers
    /// in angle brackets, then the key's X name ("<Control>s", "<Control><Shift>z",
    /// "<Control>Page_Up", "F5").
    var acceleratorName: String {
        var name = ""
        if modifiers.contains(.control) { name += "<Control>" }
        if modifiers.contains(.shift) { name += "<Shift>" }
        if modifiers.contains(.alt) { name += "<Alt>" }
        if modifiers.contains(.super) { name += "<Super>" }
        switch key {
        case .pageUp: return name + "Page_Up"  // X's first names are Prior and Next
        case .pageDown: return name + "Page_Down"
        default: return name + (Self.keysym(of: key).flatMap(EventTranslator.keysymName) ?? "")
        }
    }
}
