/// Which views the pointer is over and which one took the last press.
struct HoverState {
    /// The views under the pointer, outermost first.
    var chain: [View] = []
    /// The view that took the current button press.
    var pressedView: View?
    var pressedButton: MouseButton?
    /// For click counting.
    var lastPressTime: UInt = 0
    var lastPressLocation = Point.zero
    var clickCount = 0
    /// The cursor defined on the window; nil: none (the parent's shows).
    var cursor: Cursor?
    /// The touch the pointer events being handled stand for (Window+Touch.swift), and whether
    /// the finger followed went down in this window.
    var touch: TouchPhase?
    var fingerDown = false
}

/// Keyboard focus within the window.
struct FocusState {
    weak var view: View?
    /// Whether focus arrived by keyboard (the ring shows and tooltips may follow it).
    var isVisible = false
    /// Whether the X window has input focus.
    var windowHasFocus = false
    /// Whether `view` has the focus the window gave on opening, not yet moved or confirmed by
    /// a key or a click.
    var isInitial = false
    /// The view the program names for the initial focus (`Window.initialFocus`).
    weak var initialView: View?
}

extension Window {
    /// The most time (milliseconds) and distance (pixels) between the presses of a double
    /// click: the desktop's (XSETTINGS `Net/DoubleClickTime` and `Net/DoubleClickDistance`),
    /// else 400 ms and 4 pixels.
    var doubleClick: (interval: UInt, distance: Double) {
        let settings = application?.desktopSettings
        return (
            UInt(settings?.doubleClickTime ?? DesktopSettings.defaultDoubleClickTime),
            Double(settings?.doubleClickDistance ?? DesktopSettings.defaultDoubleClickDistance)
        )
    }

    func handleEvent(_ event: Event) {
        guard let application, !handledAsTouch(event) else { return }
        switch event {
        case .pointerEnter, .pointerMotion, .buttonPress, .buttonRelease, .keyPress:
            // An unmapped window gets no input from the server; anything else (a host passing
            // stale events through) is ignored rather than acted on.
            guard isMapped else { return }
            layoutIfNeeded()
        default:
            break
        }
        switch event {
        case .expose(_, let rect, let count):
            expose(rect, remaining: count)
        case .configure(_, let frame, let synthetic):
            let resized = frame.size != size && frame.width > 0 && frame.height > 0
            // A resize lays the window out again, which reports the frames; a move alone must
            // report them itself.
            if synthetic || parentIsRootWindow { updateScreenOrigin(frame.origin, reporting: !resized) }
            if resized { resizeFromServer(frame.size) }
        case .reparent(_, let parent):
            parentIsRootWindow = parent == application.connection.root
        case .map:
            isMapped = true
            if !parentIsRootWindow { queryScreenOrigin() }
            application.inspector?.windowDidLayout(self)
        case .unmap:
            isMapped = false
            deliverWindowDeactivated(pointerLeft: true)
        case .destroy:
            if native != nil { close() }
        case .propertyChange(_, let atom) where atom == application.connection.atoms.netFrameExtents:
            frameExtentsDidChange()
        case .clientMessage(_, let type, let data):
            if type == application.connection.atoms.wmProtocols { handleWindowManagerProtocol(data) }
        case .pointerEnter(let p), .pointerMotion(let p):
            updateScreenOrigin(Point(x: p.rootLocation.x - p.location.x, y: p.rootLocation.y - p.location.y))
            pointerMoved(p, application: application)
        case .pointerLeave(let p):
            // A leave into a child window of ours (an embedded view) still counts as leaving.
            updateHover(to: nil, at: p.location)
            _ = deliverToWindowInteractions(.pointerExited, context(for: p, deepest: nil))
        case .buttonPress(let b):
            noteUserInput(at: b.pointer.time)
            buttonPressed(b)
        case .buttonRelease(let b):
            buttonReleased(b)
        case .keyPress(let k):
            noteUserInput(at: k.time)
            keyPressed(k)
        case .focusIn(let change):
            if change.isReal, !focusState.windowHasFocus {
                focusState.windowHasFocus = true
                application.accessibility?.windowDidChangeActivation(self, isActive: true)
            }
        case .focusOut(let change):
            if change.isReal {
                focusState.windowHasFocus = false
                deliverWindowDeactivated()
                application.accessibility?.windowDidChangeActivation(self, isActive: false)
            }
        default:
            break
        }
    }

    /// Repaints an exposed area from the back buffer. An uncovered shape arrives as many
    /// rectangles: their bounding box is copied once, after the last of the series. A window
    /// whose background is its buffer needs nothing: the server already painted the area from it.
    ///
    /// The first frame of a window made before the desktop's appearance was read waits for
    /// the portal's answer (`Application.firstFrameWaitForPortal` at most), and is copied only
    /// if the portal did not answer: otherwise the window paints again in the portal's
    /// appearance in this turn, and that frame is the first one copied.
    func expose(_ rect: Rect, remaining: Int) {
        if bufferIsBackground { return }
        exposed = exposed.union(rect)
        guard remaining == 0 else { return }
        if backgroundIsDeferred {
            application?.catchUpWithDesktop(beforeFirstFrame: true)
            if !backgroundIsDeferred {  // the appearance changed: repainted and copied whole
                exposed = .zero
                return
            }
        }
        buffer?.copy(exposed, to: xid)
        exposed = .zero
        if backgroundIsDeferred, buffer != nil { takeBackgroundPixel() }  // the first frame is out
    }

    /// Records where the window is on the screen; when it moved (a window manager moved it, or
    /// the host moved an embedded window's parent), the inspector gets a new `layout` line so
    /// that the root coordinates it reports stay true.
    private func updateScreenOrigin(_ origin: Point, reporting: Bool = true) {
        guard origin != screenOrigin else { return }
        let wasKnown = screenOrigin != nil
        screenOrigin = origin
        if reporting, wasKnown, isMapped { application?.inspector?.windowDidLayout(self) }
    }

    private func resizeFromServer(_ newSize: Size) {
        // The user (or the window manager) chose this size: it is the window's at any scale.
        if isTopLevel, let scale = application?.scale {
            logicalSize = Size(width: newSize.width / scale, height: newSize.height / scale)
        }
        setSizeWithoutRequest(newSize)
    }

    /// Asks the server where the window is (one round trip, at map time under a reparenting
    /// window manager only).
    private func queryScreenOrigin() {
        guard let origin = native?.originOnRoot() else { return }
        screenOrigin = origin
    }

    // MARK: - Pointer

    /// Pointer motion: the enters and exits, the deepest view's hook (or, during a drag, the
    /// pressed view's drag hook first), then the interactions of the hit chain innermost first,
    /// then the window-wide interactions.
    private func pointerMoved(_ p: PointerEvent, application: Application) {
        for interaction in application.windowInteractions { interaction.pointerEventArrived() }
        var deepest: (view: View, point: Point)?
        if let pressed = hover.pressedView {
            pressed.pointerDragged(to: pressed.convertFromWindow(p.location))
        } else {
            let hit = rootView.hitTest(p.location)
            updateHover(to: hit, at: p.location)
            let chain = hover.chain
            if let view = chain.last {
                // Its point serves its hook and its interactions.
                let local = Self.point(p.location, inLastOf: chain)
                deepest = (view, local)
                view.pointerMoved(to: local)
            }
        }
        let chain = hover.chain
        let last = chain.last
        // The hook may have changed the chain (removed a view): then each point is found anew.
        let deepestPoint = deepest.flatMap { $0.view === last ? $0.point : nil }
        deliverToInteractions(of: chain, at: p.location, deepestPoint: deepestPoint) { .pointerMoved($0) }
        _ = deliverToWindowInteractions(.pointerMoved(p.location), context(for: p, deepest: last), in: application)
    }

    /// Sends exits and enters for the views the pointer left and reached.
    func updateHover(to hit: View?, at location: Point) {
        if hoverChainEnds(at: hit) { return }
        var chain: [View] = []
        var current = hit
        while let view = current {
            chain.append(view)
            current = view.superview
        }
        chain.reverse()
        let old = hover.chain
        var common = 0
        while common < old.count, common < chain.count, old[common] === chain[common] { common += 1 }
        if common == old.count, common == chain.count { return }
        for view in old[common...].reversed() {
            view.pointerExited()
            for interaction in view.interactions { interaction.handle(.pointerExited) }
        }
        hover.chain = chain
        for view in chain[common...] {
            view.pointerEntered()
            let local = view.convertFromWindow(location)
            for interaction in view.interactions { interaction.handle(.pointerEntered(local)) }
        }
        updateCursor()
    }

    /// `location` (window coordinates) in the coordinates of the last view of `chain`, a view
    /// and its ancestors up to the root (as the hover chain is: views that leave the window
    /// leave it): the sum `convertFromWindow(_:)` makes, from the chain's strong references
    /// rather than a walk up the weak superview links.
    private static func point(_ location: Point, inLastOf chain: [View]) -> Point {
        var origin = Point.zero
        var index = chain.count
        while index > 0 {
            index -= 1
            let frame = chain[index].frame
            origin = origin.offsetBy(dx: frame.minX, dy: frame.minY)
        }
        return Point(x: location.x - origin.x, y: location.y - origin.y)
    }

    /// Whether the hover chain is already `hit` and its ancestors (most motion stays over the
    /// same view): checked in place, without building the chain.
    private func hoverChainEnds(at hit: View?) -> Bool {
        let chain = hover.chain
        var index = chain.count - 1
        var current = hit
        while let view = current {
            guard index >= 0, chain[index] === view else { return false }
            index -= 1
            current = view.superview
        }
        return index < 0
    }

    private func buttonPressed(_ b: ButtonEvent) {
        guard application != nil else { return }
        let location = b.pointer.location
        let hit = rootView.hitTest(location)
        updateHover(to: hit, at: location)
        // The interactions (a tooltip among them) hear of the press first, wheel steps too, and
        // never take it: the widget still gets it.
        deliverToInteractions(of: hover.chain, at: location) { .buttonPressed(b.button, $0) }
        _ = deliverToWindowInteractions(
            .buttonPressed(b.button, location), context(for: b.pointer, deepest: hover.chain.last))
        if b.button.isScroll { return }
        let limits = doubleClick
        let isRepeat =
            b.pointer.time &- hover.lastPressTime <= limits.interval
            && abs(location.x - hover.lastPressLocation.x) <= limits.distance
            && abs(location.y - hover.lastPressLocation.y) <= limits.distance
        hover.clickCount = isRepeat ? hover.clickCount + 1 : 1
        hover.lastPressTime = b.pointer.time
        hover.lastPressLocation = location
        // A click focuses the innermost focusable view, without a ring (mouse focus); not in
        // a tooltip, whose views the keyboard reaches from its source.
        if feedsToolTips, let focusable = hover.chain.last(where: { $0.canTakeFocus }) {
            focus(focusable, byKeyboard: false)
        }
        let event = { (view: View) in
            ViewButtonEvent(
                button: b.button, location: view.convertFromWindow(location), clickCount: self.hover.clickCount,
                modifiers: b.pointer.modifiers)
        }
        // Disabled views take no presses (their interactions heard of it above).
        for view in hover.chain.reversed() where view.isEnabledInHierarchy && view.buttonPressed(event(view)) {
            hover.pressedView = view
            hover.pressedButton = b.button
            break
        }
    }

    private func buttonReleased(_ b: ButtonEvent) {
        let location = b.pointer.location
        if let pressed = hover.pressedView, hover.pressedButton == b.button {
            hover.pressedView = nil
            pressed.buttonReleased(
                ViewButtonEvent(
                    button: b.button, location: pressed.convertFromWindow(location), clickCount: hover.clickCount,
                    modifiers: b.pointer.modifiers))
        }
        // The hover chain may be stale after a drag; bring it up to date.
        updateHover(to: rootView.hitTest(location), at: location)
        deliverToInteractions(of: hover.chain, at: location) { .buttonReleased(b.button, $0) }
        _ = deliverToWindowInteractions(
            .buttonReleased(b.button, location), context(for: b.pointer, deepest: hover.chain.last))
    }

    // MARK: - Keyboard

    /// A key: the focused view's interactions, then the window-wide interactions, which may use
    /// it up (Escape that hid a tooltip, Tab into an open click tooltip's views); then the
    /// focused view's hook, with keyboard shortcuts before it for a command key (held with
    /// Control, Alt or Super) and after it for a key alone (Window+KeyboardShortcuts.swift);
    /// then Tab moves focus.
    private func keyPressed(_ k: KeyEvent) {
        let press = ViewKeyEvent(k)
        let focused = focusedView
        if let focused {
            for interaction in focused.interactions { interaction.handle(.keyPressed(press)) }
        }
        var context = InteractionContext(window: self)
        context.focused = focused
        context.key = k
        if deliverToWindowInteractions(.keyPressed(press), context) { return }
        let isCommand = Self.isCommand(k.modifiers)
        if isCommand, performKeyboardShortcut(k.shortcut) { return }
        if let focused = focusedView, focused.keyPressed(press) { return }
        if !isCommand, performKeyboardShortcut(k.shortcut) { return }
        if k.key == .tab {
            focusNext(backwards: k.modifiers.contains(.shift))
        }
    }

    // MARK: - The interaction channel

    /// Delivers an event to the interactions of `chain` (outermost first), innermost view first;
    /// `event` makes each view's event from the point in its coordinates. `deepestPoint`, when
    /// given, is that point for the chain's last view, already converted.
    func deliverToInteractions(
        of chain: [View], at location: Point, deepestPoint: Point? = nil, _ event: (Point) -> InteractionEvent
    ) {
        var index = chain.count
        while index > 0 {
            index -= 1
            let view = chain[index]
            let interactions = view.interactions
            if interactions.isEmpty { continue }
            let given = index == chain.count - 1 ? deepestPoint : nil
            let local = given ?? view.convertFromWindow(location)
            for interaction in interactions { interaction.handle(event(local)) }
        }
    }

    /// Delivers an event to the application's window-wide interactions, after the views' ones;
    /// returns whether one used it up (keys only).
    func deliverToWindowInteractions(
        _ event: InteractionEvent, _ context: InteractionContext, in application: Application? = nil
    ) -> Bool {
        // The caller's application spares pointer motion a load of the weak reference.
        guard let application = application ?? self.application else { return false }
        for interaction in application.windowInteractions where interaction.handle(event, in: context) {
            return true
        }
        return false
    }

    /// The window was hidden, closed or lost keyboard focus: the views under the pointer (innermost
    /// first) and the focused view hear it, then the window-wide interactions.
    ///
    /// When the window stopped being on the screen (`pointerLeft`), the pointer is no longer over
    /// its views whatever the server reports (it may send the window no leave): they get their
    /// exits, and the window-wide interactions hear that the pointer left the window, as for a
    /// real leave. Otherwise a tooltip Escape dismissed would stay suppressed after the window
    /// is shown again, and resting on its view would never show it.
    func deliverWindowDeactivated(pointerLeft: Bool = false) {
        if pointerLeft { forgetTouch() }
        var views = Array(hover.chain.reversed())
        if let focused = focusedView, !views.contains(where: { $0 === focused }) { views.append(focused) }
        for view in views {
            for interaction in view.interactions { interaction.handle(.windowDeactivated) }
        }
        _ = deliverToWindowInteractions(.windowDeactivated, InteractionContext(window: self))
        if pointerLeft, !hover.chain.isEmpty {
            updateHover(to: nil, at: .zero)
            _ = deliverToWindowInteractions(.pointerExited, InteractionContext(window: self))
        }
    }

    /// A view (or an ancestor) of the window was removed or hidden.
    func deliverViewDidDisappear(_ view: View) {
        application?.windowInteractions.forEach { $0.viewDidDisappear(view, in: self) }
    }

    private func context(for p: PointerEvent, deepest: View?) -> InteractionContext {
        var context = InteractionContext(window: self)
        context.location = p.location
        context.rootLocation = p.rootLocation
        context.deepest = deepest
        context.touch = hover.touch
        return context
    }
}
