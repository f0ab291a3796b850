internal import CX11

/// Translates `XEvent`s into `Event`s, in one place.
struct EventTranslator {
    /// The extensions' event numbers, once asked for (none of their events come before).
    let extensions: () -> Extensions?
    /// The display events come from; filled into events that lack it (key translation reads it).
    let display: OpaquePointer

    init(extensions: @escaping () -> Extensions?, display: OpaquePointer) {
        self.extensions = extensions
        self.display = display
    }

    init(extensions: Extensions, display: OpaquePointer) {
        self.init(extensions: { extensions }, display: display)
    }

    func translate(_ event: inout XEvent) -> Event {
        if event.xany.display == nil { event.xany.display = display }
        switch event.type {
        case Expose:
            let e = event.xexpose
            return .expose(
                window: e.window,
                rect: Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)),
                count: Int(e.count))
        case ConfigureNotify:
            let e = event.xconfigure
            return .configure(
                window: e.window,
                frame: Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)),
                synthetic: e.send_event != 0)
        case MapNotify: return .map(window: event.xmap.window)
        case UnmapNotify: return .unmap(window: event.xunmap.window)
        case DestroyNotify: return .destroy(window: event.xdestroywindow.window)
        case ReparentNotify: return .reparent(window: event.xreparent.window, parent: event.xreparent.parent)
        case MotionNotify:
            let e = event.xmotion
            return .pointerMotion(
                pointer(e.window, e.x, e.y, e.x_root, e.y_root, e.state, e.time))
        case EnterNotify, LeaveNotify:
            let e = event.xcrossing
            let p = pointer(e.window, e.x, e.y, e.x_root, e.y_root, e.state, e.time)
            return event.type == EnterNotify ? .pointerEnter(p) : .pointerLeave(p)
        case ButtonPress, ButtonRelease:
            let e = event.xbutton
            let b = ButtonEvent(
                pointer: pointer(e.window, e.x, e.y, e.x_root, e.y_root, e.state, e.time),
                button: MouseButton(x11: e.button))
            return event.type == ButtonPress ? .buttonPress(b) : .buttonRelease(b)
        case KeyPress, KeyRelease:
            let k = key(&event.xkey)
            return event.type == KeyPress ? .keyPress(k) : .keyRelease(k)
        case FocusIn, FocusOut:
            let e = event.xfocus
            // Pointer-root focus follows the pointer (NotifyPointer), grabs come and go
            // (NotifyGrab/NotifyUngrab), and focus moving between our own subwindows
            // (NotifyInferior) is no loss either.
            let real =
                e.mode != NotifyGrab && e.mode != NotifyUngrab && e.detail != NotifyPointer
                && e.detail != NotifyInferior
            let change = FocusChange(window: e.window, isReal: real)
            return event.type == FocusIn ? .focusIn(change) : .focusOut(change)
        case ClientMessage:
            let e = event.xclient
            let l = e.data.l
            return .clientMessage(window: e.window, type: e.message_type, data: [l.0, l.1, l.2, l.3, l.4])
        case SelectionRequest:
            let e = event.xselectionrequest
            return .selectionRequest(
                SelectionConversionRequest(
                    owner: e.owner, requestor: e.requestor, selection: e.selection, target: e.target,
                    property: e.property, time: e.time))
        case SelectionClear:
            return .selectionClear(window: event.xselectionclear.window, selection: event.xselectionclear.selection)
        case MappingNotify:
            // The keyboard or modifier mapping changed (another layout, xmodmap): Xlib's copy
            // is refreshed, as its manual asks of every client, so key lookups stay right.
            XRefreshKeyboardMapping(&event.xmapping)
            return .other(type: event.type, window: event.xany.window)
        case PropertyNotify:
            return .propertyChange(window: event.xproperty.window, atom: event.xproperty.atom)
        case GenericEvent:
            return translateGeneric(&event)
        default:
            return translateExtension(&event)
        }
    }

    private func translateExtension(_ event: inout XEvent) -> Event {
        guard let extensions = extensions() else { return .other(type: event.type, window: event.xany.window) }
        if let base = extensions.randrEventBase,
            event.type == base + RRScreenChangeNotify || event.type == base + RRNotify
        {
            // A RandR event base means libXrandr is loaded (it was asked through it).
            _ = ExtensionLibraries.randr?.functions.update_configuration(&event)
            return .screenChange
        }
        if let base = extensions.xfixesEventBase, event.type == base + XFixesCursorNotify {
            return .shownCursorChange
        }
        if let base = extensions.xfixesEventBase, event.type == base + XFixesSelectionNotify {
            return withUnsafePointer(to: &event) {
                $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) {
                    .selectionOwnerChange(selection: $0.pointee.selection, owner: $0.pointee.owner)
                }
            }
        }
        return .other(type: event.type, window: event.xany.window)
    }

    /// An XInput 2.2 touch event (its data read and freed here), or `.other`.
    private func translateGeneric(_ event: inout XEvent) -> Event {
        guard let opcode = extensions()?.touchOpcode else { return .other(type: event.type, window: event.xany.window) }
        var fields = cx11_touch_fields()
        guard cx11_xi_read_touch(display, &event, opcode, &fields) != 0 else {
            return .other(type: event.type, window: event.xany.window)
        }
        return Self.touch(fields)
    }

    /// The event for an XI2 touch event's fields; `.other` for fields that are not a touch
    /// event or hold points that are not finite.
    static func touch(_ fields: cx11_touch_fields) -> Event {
        guard
            let record = XITouchRecord(
                evtype: fields.evtype, detail: fields.detail, eventX: fields.event_x, eventY: fields.event_y,
                rootX: fields.root_x, rootY: fields.root_y, flags: fields.flags, time: fields.time)
        else { return .other(type: GenericEvent, window: fields.event) }
        return .touch(window: fields.event, record)
    }

    private func pointer(
        _ window: UInt, _ x: Int32, _ y: Int32, _ rootX: Int32, _ rootY: Int32, _ state: UInt32, _ time: UInt
    ) -> PointerEvent {
        PointerEvent(
            window: window, location: Point(x: Double(x), y: Double(y)),
            rootLocation: Point(x: Double(rootX), y: Double(rootY)),
            modifiers: Modifiers(rawValue: state & 0x1FFF), time: time)
    }

    private func key(_ event: inout XKeyEvent) -> KeyEvent {
        let (keysym, text) = Self.translate(&event)
        return KeyEvent(
            window: event.window, key: Self.key(forKeysym: keysym), text: text,
            modifiers: Modifiers(rawValue: event.state & 0x1FFF),
            location: Point(x: Double(event.x), y: Double(event.y)), time: event.time,
            shortcut: Self.shortcutPress(&event))
    }

    /// Maps an X keysym to a `Key`.
    static func key(forKeysym keysym: UInt) -> Key {
        switch keysym {
        case 0xff1b: return .escape
        case 0xff09, 0xfe20, 0xff89: return .tab  // Tab, ISO_Left_Tab (Shift-Tab), KP_Tab
        case 0xff0d, 0xff8d: return .return  // Return, KP_Enter
        case 0x20, 0xff80: return .space  // space, KP_Space
        case 0xff08: return .backspace
        case 0xffff, 0xff9f: return .delete  // Delete, KP_Delete
        // The keypad's keys with Num Lock off are the cursor keys.
        case 0xff51, 0xff96: return .left
        case 0xff52, 0xff97: return .up
        case 0xff53, 0xff98: return .right
        case 0xff54, 0xff99: return .down
        case 0xff50, 0xff95: return .home
        case 0xff57, 0xff9c: return .end
        case 0xff55, 0xff9a: return .pageUp
        case 0xff56, 0xff9b: return .pageDown
        case 0x21...0x7e, 0xa0...0xff, 0x0100_0000...0x0110_ffff:
            return characterScalar(forKeysym: keysym).map { .character(Character($0)) } ?? .other(keysym)
        default: return .other(keysym)
        }
    }
}
