/// The tooltip's popup window. Its pointer events go to the tooltip controller (the pointer
/// rests on the tooltip, leaves it, presses on it), and beyond that it depends on the tooltip:
///
/// - **A click tooltip is interactive.** Its views get pointer events as in any window (a
///   button in it highlights, presses and runs its action) and, once Tab moved focus into them
///   from the focused source, keys; a press on it never dismisses it.
/// - **A hover or focus tooltip is not.** A press on it hides it and goes to the X11UI window
///   beneath, followed by the release and the motion until then, as if the tooltip had not been
///   there. Over a window of another program (or a window of a host program that X11UI only
///   adds tooltips to) the press hides the tooltip and goes no further: X gives a press to one
///   window, and X11UI forges no events for other clients.
@MainActor
final class ToolTipHostWindow: PopupWindow {
    /// The window a press through the tooltip went to, where that window is on the screen, and
    /// the button, until that button goes up or the tooltip window is unmapped: events the
    /// server sent here before it saw the unmap belong to that window.
    private var passThrough: (window: WeakWindow, origin: Point, button: MouseButton)?
    /// The source whose focus ring is hidden while keyboard focus is in the tooltip's views.
    private weak var ringHiddenOn: View?

    override var events: WindowEvents {
        [.exposure, .structure, .keyPress, .buttonPress, .buttonRelease, .pointerMotion, .pointerEnter, .pointerLeave]
    }

    override var feedsToolTips: Bool { false }
    /// `present` raised the window when it placed it: the map alone is left to do.
    override var raisesWhenShown: Bool { false }
    /// Assistive technologies hear of the tooltip itself (its text and source), not its window.
    override var reportsVisibility: Bool { false }

    /// A tooltip window: `_NET_WM_WINDOW_TYPE_TOOLTIP`, and a WM_CLASS of its own so that
    /// compositors can tell it from the program's other popups.
    override func didCreateWindow(_ native: NativeWindow) {
        native.setAtomProperty(\.netWMWindowType, [\.netWMWindowTypeTooltip])
        native.setStringProperty(\.wmClass, [windowClass.instance, windowClass.className])
    }

    /// Paints right away rather than after the Expose round: the buffer is ready. Nothing to
    /// do when the buffer is the window's background (the server painted it on map).
    override func didMap() {
        if !bufferIsBackground { buffer?.copy(bounds, to: xid) }
    }

    override func handle(_ event: Event) -> Bool {
        guard let application else { return true }
        let controller = application.toolTips
        let interactive = controller.shownIsInteractive
        (content as? ToolTipBubbleView)?.contentTakesEvents = interactive
        switch event {
        case .expose(_, let rect, let count):
            expose(rect, remaining: count)
        case .pointerEnter(let p), .pointerMotion(let p):
            if let target = passThroughTarget(p) {
                _ = target.window.handle(.pointerMotion(target.pointer))
                return true
            }
            controller.pointerOnToolTip(at: p.rootLocation)
            if interactive { handleEvent(event) }
        case .pointerLeave(let p):
            // Leaving because the tooltip unmapped under a press that went through is no move.
            if passThrough != nil { return true }
            controller.pointerLeftToolTip(at: p.rootLocation)
            if interactive { handleEvent(event) }
        case .buttonPress(let b):
            if interactive {
                controller.buttonPressedOnToolTip()
                handleEvent(event)
            } else {
                pressThrough(b, controller: controller)
            }
        case .buttonRelease(let b):
            if let target = passThroughTarget(b.pointer) {
                if b.button == passThrough?.button { passThrough = nil }
                _ = target.window.handle(.buttonRelease(ButtonEvent(pointer: target.pointer, button: b.button)))
                return true
            }
            if interactive { handleEvent(event) }
            controller.buttonReleasedOnToolTip()
        case .keyPress(let key):
            // Keys reach this window only when the pointer gives it the focus (no window
            // manager, pointer-root focus): they are meant for the source's window.
            if let window = controller.shownSource?.window, window.isVisible {
                _ = window.handle(.keyPress(key))
            } else {
                _ = controller.keyPressed(key)
            }
        case .unmap:
            passThrough = nil
            leaveContent()
            resetCursor()
        case .destroy:
            controller.toolTipWindowWasDestroyed()
        default:
            break
        }
        return true
    }

    /// The tooltip hid while its window stays on the screen to fade out: keyboard focus
    /// leaves its views now, as it does when the window unmaps.
    func toolTipDidHide() {
        leaveContent()
        resetCursor()
    }

    // MARK: - Presses through a tooltip that is not interactive

    /// Hides the tooltip, then hands the press to the X11UI window under it (the server is
    /// asked which window that is once the tooltip is unmapped: a round trip or two per press
    /// on a tooltip, none at any other time).
    private func pressThrough(_ b: ButtonEvent, controller: ToolTipController) {
        controller.buttonPressedThroughToolTip()
        guard let application else { return }
        let root = b.pointer.rootLocation
        // The deepest window under the pointer gets a press; it must be one of X11UI's own.
        guard let (xid, location) = application.connection.windows(at: root).last, xid != self.xid,
            let window = application.target(for: xid) as? Window, window.feedsToolTips, window.isVisible
        else { return }
        if window is ForeignWindow { return }
        let origin = Point(x: root.x - location.x, y: root.y - location.y)
        passThrough = (WeakWindow(window), origin, b.button)
        var pointer = b.pointer
        pointer.window = xid
        pointer.location = location
        _ = window.handle(.buttonPress(ButtonEvent(pointer: pointer, button: b.button)))
    }

    /// The window a press went through to and the pointer event rebased onto it.
    private func passThroughTarget(_ p: PointerEvent) -> (window: Window, pointer: PointerEvent)? {
        guard let pass = passThrough else { return nil }
        guard let window = pass.window.value, window.native != nil else {
            passThrough = nil
            return nil
        }
        var pointer = p
        pointer.window = window.xid
        pointer.location = Point(x: p.rootLocation.x - pass.origin.x, y: p.rootLocation.y - pass.origin.y)
        return (window, pointer)
    }

    // MARK: - Keyboard focus in a click tooltip's views

    /// A key pressed while the source of this (interactive) tooltip has focus in its window.
    /// Tab on the source moves focus to the tooltip's first focusable view; in the tooltip, Tab
    /// and Shift-Tab move through its views, Shift-Tab before the first goes back to the source,
    /// Tab after the last goes on to the view after the source, and Escape goes back to the
    /// source (the controller then closes the tooltip). Returns whether the key was used.
    func contentKeyPressed(_ event: KeyEvent, source: View) -> Bool {
        guard let focused = focusedView else {
            guard event.key == .tab, !event.modifiers.contains(.shift), source.isFocused,
                let first = focusableViews.first
            else { return false }
            focusContent(first, source: source)
            return true
        }
        guard focused.window === self, focused.isVisibleInWindow, source.isFocused else {
            leaveContent()
            return false
        }
        switch event.key {
        case .escape:
            leaveContent()
            return false
        case .tab:
            let views = focusableViews
            let backwards = event.modifiers.contains(.shift)
            if let index = views.firstIndex(where: { $0 === focused }),
                views.indices.contains(index + (backwards ? -1 : 1))
            {
                focusContent(views[index + (backwards ? -1 : 1)], source: source)
                return true
            }
            leaveContent()
            return backwards
        default:
            for interaction in focused.interactions { interaction.handle(.keyPressed(ViewKeyEvent(event))) }
            return focused.keyPressed(ViewKeyEvent(event))
        }
    }

    private func focusContent(_ view: View, source: View) {
        if ringHiddenOn == nil, let window = source.window, window.focusState.isVisible {
            window.focusState.isVisible = false
            source.focusDidChange()
            ringHiddenOn = source
        }
        focus(view, byKeyboard: true)
    }

    /// Focus leaves the tooltip's views; the source shows its ring again.
    private func leaveContent() {
        if focusedView != nil { focus(nil) }
        if let source = ringHiddenOn, let window = source.window, window.focusedView === source {
            window.focusState.isVisible = true
            source.focusDidChange()
        }
        ringHiddenOn = nil
    }
}
