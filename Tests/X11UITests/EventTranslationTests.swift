import CX11
import Testing

@testable import X11UI

// MARK: - A translator without a server

/// Stands in for the `Display *`. The translations tested here never dereference it: they only copy it into
/// events that lack one. (Key events and RandR events do dereference it, so they are not translated here.)
private func fakeDisplay() -> OpaquePointer { OpaquePointer(bitPattern: 0x0D15_0000)! }

/// `Extensions` has only an initialiser that queries the server. Its stored properties are plain values, so the
/// tests build one in raw memory, field by field at the offsets their key paths give (no layout is guessed).
private func extensions(randrEventBase: Int32? = nil, xfixesEventBase: Int32? = nil) -> Extensions {
    precondition(_isPOD(Extensions.self), "Extensions is no longer a plain value type")
    let layout = MemoryLayout<Extensions>.self
    let raw = UnsafeMutableRawPointer.allocate(byteCount: layout.size, alignment: layout.alignment)
    defer { raw.deallocate() }
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: layout.size)
    func store<T>(_ value: T, at path: KeyPath<Extensions, T>) {
        guard let offset = layout.offset(of: path) else { preconditionFailure("\(path) is not stored") }
        raw.storeBytes(of: value, toByteOffset: offset, as: T.self)
    }
    store(false, at: \.hasShape)
    store(randrEventBase, at: \.randrEventBase)
    store(false, at: \.randrMonitors)
    store(xfixesEventBase, at: \.xfixesEventBase)
    return raw.load(as: Extensions.self)
}

private func translate(_ event: XEvent, randrEventBase: Int32? = nil, xfixesEventBase: Int32? = nil) -> Event {
    var event = event
    let translator = EventTranslator(
        extensions: extensions(randrEventBase: randrEventBase, xfixesEventBase: xfixesEventBase),
        display: fakeDisplay())
    return translator.translate(&event)
}

/// Distinct made-up values, so that a field read from the wrong place shows.
private let window: UInt = 0x0280_0005
private let otherWindow: UInt = 0x0280_0011
private let root: UInt = 0x0000_0539
private let time: UInt = 987_654

// MARK: - Building events

private func pointerEvent(
    _ type: Int32, x: Int32 = 12, y: Int32 = 34, rootX: Int32 = 1012, rootY: Int32 = 734, state: UInt32 = 0,
    button: UInt32 = 1
) -> XEvent {
    var e = XEvent()
    e.type = type
    switch type {
    case ButtonPress, ButtonRelease:
        e.xbutton.window = window
        e.xbutton.root = root
        e.xbutton.subwindow = otherWindow
        e.xbutton.time = time
        e.xbutton.x = x
        e.xbutton.y = y
        e.xbutton.x_root = rootX
        e.xbutton.y_root = rootY
        e.xbutton.state = state
        e.xbutton.button = button
        e.xbutton.same_screen = 1
    case MotionNotify:
        e.xmotion.window = window
        e.xmotion.root = root
        e.xmotion.subwindow = otherWindow
        e.xmotion.time = time
        e.xmotion.x = x
        e.xmotion.y = y
        e.xmotion.x_root = rootX
        e.xmotion.y_root = rootY
        e.xmotion.state = state
        e.xmotion.is_hint = CChar(NotifyNormal)
        e.xmotion.same_screen = 1
    default:
        e.xcrossing.window = window
        e.xcrossing.root = root
        e.xcrossing.subwindow = otherWindow
        e.xcrossing.time = time
        e.xcrossing.x = x
        e.xcrossing.y = y
        e.xcrossing.x_root = rootX
        e.xcrossing.y_root = rootY
        e.xcrossing.state = state
        e.xcrossing.same_screen = 1
    }
    return e
}

private func crossingEvent(_ type: Int32, mode: Int32, detail: Int32) -> XEvent {
    var e = pointerEvent(type, state: UInt32(ShiftMask))
    e.xcrossing.mode = mode
    e.xcrossing.detail = detail
    e.xcrossing.focus = 1
    return e
}

private func focusEvent(_ type: Int32, mode: Int32, detail: Int32) -> XEvent {
    var e = XEvent()
    e.type = type
    e.xfocus.window = window
    e.xfocus.mode = mode
    e.xfocus.detail = detail
    return e
}

// MARK: - Reading events

extension Event {
    fileprivate var pointerEvent: PointerEvent? {
        switch self {
        case .pointerMotion(let p), .pointerEnter(let p), .pointerLeave(let p): return p
        case .buttonPress(let b), .buttonRelease(let b): return b.pointer
        default: return nil
        }
    }

    fileprivate var buttonPress: ButtonEvent? {
        if case .buttonPress(let b) = self { return b }
        return nil
    }

    fileprivate var buttonRelease: ButtonEvent? {
        if case .buttonRelease(let b) = self { return b }
        return nil
    }

    fileprivate var focusIn: FocusChange? {
        if case .focusIn(let f) = self { return f }
        return nil
    }

    fileprivate var focusOut: FocusChange? {
        if case .focusOut(let f) = self { return f }
        return nil
    }
}

// MARK: - Pointer

private let buttonNumbers: [(UInt32, MouseButton)] = [
    (1, .primary), (2, .middle), (3, .secondary), (4, .scrollUp), (5, .scrollDown), (6, .scrollLeft),
    (7, .scrollRight), (8, .other(8)), (9, .other(9)), (0, .other(0)), (255, .other(255)),
]

/// Buttons, wheel steps, motion and crossings: which case, which button, where and when.
@Suite struct EventTranslationPointerTests {
    @Test(arguments: buttonNumbers)
    func buttonNumbersBecomeNamedButtonsAndWheelSteps(number: UInt32, button: MouseButton) throws {
        let press = try #require(translate(pointerEvent(ButtonPress, button: number)).buttonPress)
        let release = try #require(translate(pointerEvent(ButtonRelease, button: number)).buttonRelease)
        #expect(press.button == button)
        #expect(release.button == button)
    }

    @Test func onlyButtonsFourToSevenAreWheelSteps() {
        let scrolls = (0...9).filter { MouseButton(x11: UInt32($0)).isScroll }
        #expect(scrolls == [4, 5, 6, 7])
    }

    /// X numbers the wheel buttons in `X.h` only up to 5; 6 and 7 are the horizontal wheel by convention.
    @Test func theWheelButtonsAgreeWithTheXHeaderNames() {
        #expect(MouseButton(x11: UInt32(Button1)) == .primary)
        #expect(MouseButton(x11: UInt32(Button2)) == .middle)
        #expect(MouseButton(x11: UInt32(Button3)) == .secondary)
        #expect(MouseButton(x11: UInt32(Button4)) == .scrollUp)
        #expect(MouseButton(x11: UInt32(Button5)) == .scrollDown)
    }

    @Test func aButtonPressCarriesWindowPositionsTimeAndModifiers() throws {
        let state = UInt32(ControlMask | Button1Mask)
        let event = translate(pointerEvent(ButtonPress, x: 12, y: 34, rootX: 1012, rootY: 734, state: state, button: 3))
        let b = try #require(event.buttonPress)
        #expect(b.button == .secondary)
        #expect(b.pointer.window == window)
        #expect(b.pointer.location == Point(x: 12, y: 34))
        #expect(b.pointer.rootLocation == Point(x: 1012, y: 734))
        #expect(b.pointer.modifiers == [.control, .button1])
        #expect(b.pointer.time == time)
        #expect(event.window == window)
    }

    @Test func aButtonReleaseIsNotAPress() throws {
        let event = translate(pointerEvent(ButtonRelease, x: 5, y: 6, rootX: 105, rootY: 206, button: 1))
        #expect(event.buttonPress == nil)
        let b = try #require(event.buttonRelease)
        #expect(b.button == .primary)
        #expect(b.pointer.location == Point(x: 5, y: 6))
        #expect(b.pointer.rootLocation == Point(x: 105, y: 206))
        #expect(event.window == window)
    }

    /// During a drag the pointer can be left of and above the window, and on a monitor left of the root origin.
    @Test func negativeCoordinatesSurvive() throws {
        let event = translate(pointerEvent(MotionNotify, x: -15, y: -3, rootX: -1, rootY: 40))
        let p = try #require(event.pointerEvent)
        #expect(p.location == Point(x: -15, y: -3))
        #expect(p.rootLocation == Point(x: -1, y: 40))
    }

    @Test func motionCarriesWindowPositionsTimeAndHeldButtons() throws {
        let event = translate(
            pointerEvent(MotionNotify, x: 200, y: 7, rootX: 1200, rootY: 707, state: UInt32(Button1Mask | ShiftMask)))
        guard case .pointerMotion(let p) = event else {
            Issue.record("expected pointerMotion, got \(event)")
            return
        }
        #expect(p.window == window)
        #expect(p.location == Point(x: 200, y: 7))
        #expect(p.rootLocation == Point(x: 1200, y: 707))
        #expect(p.modifiers == [.shift, .button1])
        #expect(p.time == time)
    }

    @Test func enterAndLeaveBecomePointerEnterAndPointerLeave() throws {
        let enter = translate(pointerEvent(EnterNotify, x: 1, y: 2, rootX: 301, rootY: 402))
        let leave = translate(pointerEvent(LeaveNotify, x: -1, y: 50, rootX: 299, rootY: 450))
        guard case .pointerEnter(let e) = enter, case .pointerLeave(let l) = leave else {
            Issue.record("expected pointerEnter and pointerLeave, got \(enter) and \(leave)")
            return
        }
        #expect(e.window == window && l.window == window)
        #expect(e.location == Point(x: 1, y: 2))
        #expect(e.rootLocation == Point(x: 301, y: 402))
        #expect(l.location == Point(x: -1, y: 50))
        #expect(l.rootLocation == Point(x: 299, y: 450))
        #expect(e.time == time && l.time == time)
    }

    /// The translator keeps neither the crossing mode (a grab starting or ending) nor the detail (the pointer
    /// going into or coming out of a child window): every crossing is a plain enter or leave.
    @Test(
        arguments: [NotifyNormal, NotifyGrab, NotifyUngrab],
        [NotifyAncestor, NotifyVirtual, NotifyInferior, NotifyNonlinear, NotifyNonlinearVirtual])
    func crossingModeAndDetailDoNotChangeTheTranslation(mode: Int32, detail: Int32) throws {
        let enter = translate(crossingEvent(EnterNotify, mode: mode, detail: detail))
        let leave = translate(crossingEvent(LeaveNotify, mode: mode, detail: detail))
        guard case .pointerEnter(let e) = enter, case .pointerLeave(let l) = leave else {
            Issue.record("expected pointerEnter and pointerLeave, got \(enter) and \(leave)")
            return
        }
        for p in [e, l] {
            #expect(p.window == window)
            #expect(p.location == Point(x: 12, y: 34))
            #expect(p.rootLocation == Point(x: 1012, y: 734))
            #expect(p.modifiers == .shift)
        }
    }
}

// MARK: - Modifiers

private let maskBits: [(Int32, Modifiers)] = [
    (ShiftMask, .shift), (LockMask, .capsLock), (ControlMask, .control), (Mod1Mask, .alt),
    (Mod4Mask, .super), (Button1Mask, .button1), (Button2Mask, .button2), (Button3Mask, .button3),
]

/// The `state` mask of pointer events: named bits, unnamed ones, and bits above the core modifiers and buttons.
@Suite struct EventTranslationModifierTests {
    @Test(arguments: maskBits)
    func eachXMaskBitBecomesItsModifier(mask: Int32, modifier: Modifiers) throws {
        let event = translate(pointerEvent(ButtonPress, state: UInt32(mask)))
        let modifiers = try #require(event.pointerEvent).modifiers
        #expect(modifiers == modifier)
        #expect(modifiers.rawValue == UInt32(mask))
    }

    @Test func combinedMasksBecomeCombinedModifiers() throws {
        let state = UInt32(ShiftMask | ControlMask | Mod1Mask | Mod4Mask | Button3Mask)
        let event = translate(pointerEvent(MotionNotify, state: state))
        #expect(try #require(event.pointerEvent).modifiers == [.shift, .control, .alt, .super, .button3])
    }

    @Test func noMaskIsNoModifiers() throws {
        #expect(try #require(translate(pointerEvent(ButtonPress, state: 0)).pointerEvent).modifiers.isEmpty)
    }

    /// Bits 13 and 14 hold the XKB keyboard group and bit 15 is `AnyModifier`: none is a modifier.
    @Test func bitsAboveTheButtonMasksAreDropped() throws {
        let state = UInt32(ShiftMask) | 1 << 13 | 1 << 14 | UInt32(AnyModifier) | 0xFFFF_0000
        let event = translate(pointerEvent(EnterNotify, state: state))
        let modifiers = try #require(event.pointerEvent).modifiers
        #expect(modifiers == .shift)
        #expect(modifiers.rawValue == 1)
    }

    /// Num Lock (usually Mod2), Mod3, Mod5 and buttons 4 and 5 have no name but stay in the raw value, so a
    /// comparison for equality with Num Lock on fails where `contains` does not.
    @Test func unnamedModifierBitsAreKept() throws {
        let state = UInt32(ControlMask | Mod2Mask | Mod3Mask | Mod5Mask | Button4Mask | Button5Mask)
        let event = translate(pointerEvent(ButtonRelease, state: state))
        let modifiers = try #require(event.pointerEvent).modifiers
        #expect(modifiers.rawValue == 0x1000 | 0x0800 | 0x80 | 0x20 | 0x10 | 0x04)
        #expect(modifiers.contains(.control))
        #expect(modifiers != .control)
        #expect(!modifiers.contains(.super) && !modifiers.contains(.alt) && !modifiers.contains(.button1))
    }
}

// MARK: - Focus

private let focusCases: [(Int32, Int32, Bool)] = [
    // A click into another application's window, or from it into ours.
    (NotifyNormal, NotifyNonlinear, true),
    (NotifyNormal, NotifyNonlinearVirtual, true),
    (NotifyNormal, NotifyAncestor, true),
    (NotifyNormal, NotifyVirtual, true),
    // Focus set to PointerRoot or to None.
    (NotifyNormal, NotifyPointerRoot, true),
    (NotifyNormal, NotifyDetailNone, true),
    // Between our own windows, or the pointer window under a pointer-root focus.
    (NotifyNormal, NotifyInferior, false),
    (NotifyNormal, NotifyPointer, false),
    // Keyboard grabs starting and ending.
    (NotifyGrab, NotifyNonlinear, false),
    (NotifyGrab, NotifyAncestor, false),
    (NotifyGrab, NotifyPointerRoot, false),
    (NotifyUngrab, NotifyNonlinear, false),
    (NotifyUngrab, NotifyVirtual, false),
    (NotifyUngrab, NotifyDetailNone, false),
    // Focus moving while the keyboard is grabbed is still a move.
    (NotifyWhileGrabbed, NotifyNonlinear, true),
    (NotifyWhileGrabbed, NotifyAncestor, true),
    (NotifyWhileGrabbed, NotifyInferior, false),
    (NotifyWhileGrabbed, NotifyPointer, false),
]

/// FocusIn and FocusOut, and which of them count as a real change of focus.
@Suite struct EventTranslationFocusTests {
    @Test(arguments: focusCases)
    func focusIsRealUnlessAGrabPointerFocusOrAChildCausedIt(mode: Int32, detail: Int32, real: Bool) throws {
        let focusIn = try #require(translate(focusEvent(FocusIn, mode: mode, detail: detail)).focusIn)
        let focusOut = try #require(translate(focusEvent(FocusOut, mode: mode, detail: detail)).focusOut)
        #expect(focusIn.isReal == real)
        #expect(focusOut.isReal == real)
        #expect(focusIn.window == window && focusOut.window == window)
    }

    @Test func focusInAndFocusOutAreNotConfused() {
        let focusIn = translate(focusEvent(FocusIn, mode: NotifyNormal, detail: NotifyNonlinear))
        let focusOut = translate(focusEvent(FocusOut, mode: NotifyNormal, detail: NotifyNonlinear))
        #expect(focusIn.focusOut == nil && focusIn.focusIn != nil)
        #expect(focusOut.focusIn == nil && focusOut.focusOut != nil)
        #expect(focusIn.window == window && focusOut.window == window)
    }
}

// MARK: - Window structure

/// Expose, ConfigureNotify, map, unmap, destroy and reparent: the window they are about and their geometry.
@Suite struct EventTranslationWindowTests {
    @Test(arguments: [0, 1, 7])
    func exposeCarriesItsRectangleAndHowManyFollow(count: Int32) {
        var e = XEvent()
        e.type = Expose
        e.xexpose.window = window
        e.xexpose.x = 3
        e.xexpose.y = 4
        e.xexpose.width = 50
        e.xexpose.height = 60
        e.xexpose.count = count
        guard case .expose(let w, let rect, let remaining) = translate(e) else {
            Issue.record("expected expose")
            return
        }
        #expect(w == window)
        #expect(rect == Rect(x: 3, y: 4, width: 50, height: 60))
        #expect(remaining == Int(count))
    }

    @Test(arguments: [(0, false), (1, true)] as [(Int32, Bool)])
    func configureCarriesTheFrameAndWhetherItWasSent(sendEvent: Int32, synthetic: Bool) {
        var e = XEvent()
        e.type = ConfigureNotify
        e.xconfigure.send_event = sendEvent
        e.xconfigure.event = otherWindow
        e.xconfigure.window = window
        e.xconfigure.x = -20
        e.xconfigure.y = 30
        e.xconfigure.width = 640
        e.xconfigure.height = 480
        e.xconfigure.border_width = 2
        e.xconfigure.above = otherWindow
        guard case .configure(let w, let frame, let sent) = translate(e) else {
            Issue.record("expected configure")
            return
        }
        #expect(w == window)
        #expect(frame == Rect(x: -20, y: 30, width: 640, height: 480))
        #expect(sent == synthetic)
    }

    /// Under SubstructureNotify `event` is the parent; the event is about `window`.
    @Test func mapUnmapAndDestroyAreAboutTheWindowNotTheParentTheyWereReportedTo() {
        var map = XEvent()
        map.type = MapNotify
        map.xmap.event = otherWindow
        map.xmap.window = window
        var unmap = XEvent()
        unmap.type = UnmapNotify
        unmap.xunmap.event = otherWindow
        unmap.xunmap.window = window
        var destroy = XEvent()
        destroy.type = DestroyNotify
        destroy.xdestroywindow.event = otherWindow
        destroy.xdestroywindow.window = window

        guard case .map(let mapped) = translate(map) else {
            Issue.record("expected map")
            return
        }
        guard case .unmap(let unmapped) = translate(unmap) else {
            Issue.record("expected unmap")
            return
        }
        guard case .destroy(let destroyed) = translate(destroy) else {
            Issue.record("expected destroy")
            return
        }
        #expect(mapped == window && unmapped == window && destroyed == window)
    }

    @Test func reparentCarriesTheWindowAndItsNewParent() {
        var e = XEvent()
        e.type = ReparentNotify
        e.xreparent.event = window
        e.xreparent.window = window
        e.xreparent.parent = otherWindow
        e.xreparent.x = 4
        e.xreparent.y = 22
        let event = translate(e)
        guard case .reparent(let w, let parent) = event else {
            Issue.record("expected reparent, got \(event)")
            return
        }
        #expect(w == window)
        #expect(parent == otherWindow)
        #expect(event.window == window)
    }
}

// MARK: - Messages, properties and selections

/// Client messages, property changes and the selection events X11UI answers as a selection owner.
@Suite struct EventTranslationMessageTests {
    /// The translator does not look at atoms: a window compares `type` and `data[0]` with WM_PROTOCOLS and
    /// WM_DELETE_WINDOW itself, so made-up atom numbers serve.
    @Test func aDeleteWindowMessageCarriesItsTypeAndAllFiveLongs() {
        let wmProtocols: UInt = 0x1A5
        let wmDeleteWindow: UInt = 0x1A6
        var e = XEvent()
        e.type = ClientMessage
        e.xclient.window = window
        e.xclient.message_type = wmProtocols
        e.xclient.format = 32
        e.xclient.data.l = (Int(wmDeleteWindow), Int(time), 0, 0, 0)
        let event = translate(e)
        guard case .clientMessage(let w, let type, let data) = event else {
            Issue.record("expected clientMessage, got \(event)")
            return
        }
        #expect(w == window)
        #expect(type == wmProtocols)
        #expect(data == [0x1A6, 987_654, 0, 0, 0])
        #expect(UInt(bitPattern: data[0]) == wmDeleteWindow)
        #expect(event.window == window)
    }

    @Test func clientMessageLongsKeepTheirOrderAndSign() {
        var e = XEvent()
        e.type = ClientMessage
        e.xclient.window = window
        e.xclient.message_type = 77
        e.xclient.format = 32
        e.xclient.data.l = (-1, 2, -3, 4, Int.min)
        guard case .clientMessage(_, let type, let data) = translate(e) else {
            Issue.record("expected clientMessage")
            return
        }
        #expect(type == 77)
        #expect(data == [-1, 2, -3, 4, Int.min])
    }

    @Test(arguments: [PropertyNewValue, PropertyDelete])
    func aPropertyChangeOrDeletionCarriesTheWindowAndAtom(state: Int32) {
        var e = XEvent()
        e.type = PropertyNotify
        e.xproperty.window = window
        e.xproperty.atom = 0x1F4
        e.xproperty.time = time
        e.xproperty.state = state
        let event = translate(e)
        guard case .propertyChange(let w, let atom) = event else {
            Issue.record("expected propertyChange, got \(event)")
            return
        }
        #expect(w == window)
        #expect(atom == 0x1F4)
    }

    @Test func aSelectionRequestCarriesEveryFieldAndIsAboutTheOwner() {
        var e = XEvent()
        e.type = SelectionRequest
        e.xselectionrequest.owner = window
        e.xselectionrequest.requestor = otherWindow
        e.xselectionrequest.selection = 1
        e.xselectionrequest.target = 0x1F5
        e.xselectionrequest.property = 0x1F6
        e.xselectionrequest.time = time
        let event = translate(e)
        guard case .selectionRequest(let r) = event else {
            Issue.record("expected selectionRequest, got \(event)")
            return
        }
        #expect(r.owner == window)
        #expect(r.requestor == otherWindow)
        #expect(r.selection == 1)
        #expect(r.target == 0x1F5)
        #expect(r.property == 0x1F6)
        #expect(r.time == time)
        #expect(event.window == window)
    }

    @Test func aSelectionClearCarriesTheWindowAndSelection() {
        var e = XEvent()
        e.type = SelectionClear
        e.xselectionclear.window = window
        e.xselectionclear.selection = 0x1F7
        e.xselectionclear.time = time
        let event = translate(e)
        guard case .selectionClear(let w, let selection) = event else {
            Issue.record("expected selectionClear, got \(event)")
            return
        }
        #expect(w == window)
        #expect(selection == 0x1F7)
        #expect(event.window == window)
    }
}

// MARK: - Other events, extensions and the display

/// Core events X11UI does not use, XFixes and RandR event numbers, and the display filled into events.
@Suite struct EventTranslationOtherTests {
    @Test(arguments: [
        KeymapNotify, GraphicsExpose, NoExpose, VisibilityNotify, CreateNotify, MapRequest, ConfigureRequest,
        GravityNotify, ResizeRequest, CirculateNotify, CirculateRequest, SelectionNotify, ColormapNotify,
        GenericEvent, LASTEvent, 200,
    ])
    func eventsX11UIDoesNotUseBecomeOtherWithTheirTypeAndWindow(type: Int32) {
        var e = XEvent()
        e.type = type
        e.xany.window = window
        let event = translate(e, randrEventBase: 89, xfixesEventBase: 87)
        guard case .other(let t, let w) = event else {
            Issue.record("expected other, got \(event)")
            return
        }
        #expect(t == type)
        #expect(w == window)
        #expect(event.window == window)
    }

    @Test func theStandInExtensionsReadBackAsBuilt() {
        let present = extensions(randrEventBase: 89, xfixesEventBase: 87)
        #expect(present.randrEventBase == 89 && present.xfixesEventBase == 87)
        #expect(!present.hasShape && !present.randrMonitors)
        let absent = extensions()
        #expect(absent.randrEventBase == nil && absent.xfixesEventBase == nil)
    }

    @Test func anXFixesSelectionNotifyBecomesASelectionOwnerChange() {
        var e = XEvent()
        withUnsafeMutablePointer(to: &e) {
            $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) {
                $0.pointee.type = 87 + XFixesSelectionNotify
                $0.pointee.window = root
                $0.pointee.subtype = XFixesSetSelectionOwnerNotify
                $0.pointee.owner = otherWindow
                $0.pointee.selection = 0x1F8
                $0.pointee.timestamp = time
                $0.pointee.selection_timestamp = time - 1
            }
        }
        let event = translate(e, xfixesEventBase: 87)
        guard case .selectionOwnerChange(let selection, let owner) = event else {
            Issue.record("expected selectionOwnerChange, got \(event)")
            return
        }
        #expect(selection == 0x1F8)
        #expect(owner == otherWindow)
        #expect(event.window == 0)
    }

    @Test func aChangeOfTheShownCursorIsTranslated() {
        var e = XEvent()
        e.type = 87 + XFixesCursorNotify
        e.xany.window = root
        let event = translate(e, xfixesEventBase: 87)
        guard case .shownCursorChange = event else {
            Issue.record("expected shownCursorChange, got \(event)")
            return
        }
    }

    @Test func otherXFixesEventsAreOther() {
        var e = XEvent()
        e.type = 87 + XFixesNumberEvents
        e.xany.window = root
        let event = translate(e, xfixesEventBase: 87)
        guard case .other(let type, let w) = event else {
            Issue.record("expected other, got \(event)")
            return
        }
        #expect(type == 87 + XFixesNumberEvents)
        #expect(w == root)
    }

    /// Without the extension, its event numbers mean nothing (and RandR's are not handed to Xlib).
    @Test(arguments: [87, 88, 89, 90])
    func extensionEventNumbersWithoutTheExtensionAreOther(type: Int32) {
        var e = XEvent()
        e.type = type
        e.xany.window = root
        let event = translate(e)
        guard case .other(let t, let w) = event else {
            Issue.record("expected other, got \(event)")
            return
        }
        #expect(t == type)
        #expect(w == root)
    }

    /// Only the base and base + 1 are RandR's; base + 2 must not reach `XRRUpdateConfiguration`.
    @Test func eventsPastRandRsTwoAreOther() {
        var e = XEvent()
        e.type = 89 + 2
        e.xany.window = root
        let event = translate(e, randrEventBase: 89)
        guard case .other(let type, _) = event else {
            Issue.record("expected other, got \(event)")
            return
        }
        #expect(type == 91)
    }

    @Test func theDisplayIsFilledIntoEventsThatLackIt() {
        let translator = EventTranslator(extensions: extensions(), display: fakeDisplay())
        var e = pointerEvent(MotionNotify)
        #expect(e.xany.display == nil)
        _ = translator.translate(&e)
        #expect(e.xany.display == fakeDisplay())

        let theirs = OpaquePointer(bitPattern: 0x0BAD_0000)!
        var f = pointerEvent(ButtonPress)
        f.xany.display = theirs
        _ = translator.translate(&f)
        #expect(f.xany.display == theirs)
    }
}

// MARK: - Keysyms

private let namedKeysyms: [(Int32, Key)] = [
    (XK_Return, .return), (XK_KP_Enter, .return), (XK_Escape, .escape), (XK_Tab, .tab),
    (XK_ISO_Left_Tab, .tab), (XK_space, .space), (XK_BackSpace, .backspace), (XK_Delete, .delete),
    (XK_Left, .left), (XK_Right, .right), (XK_Up, .up), (XK_Down, .down), (XK_Home, .home), (XK_End, .end),
    (XK_Page_Up, .pageUp), (XK_Page_Down, .pageDown), (XK_Prior, .pageUp), (XK_Next, .pageDown),
    // The keypad with Num Lock off.
    (XK_KP_Left, .left), (XK_KP_Right, .right), (XK_KP_Up, .up), (XK_KP_Down, .down), (XK_KP_Home, .home),
    (XK_KP_End, .end), (XK_KP_Prior, .pageUp), (XK_KP_Next, .pageDown), (XK_KP_Delete, .delete),
    (XK_KP_Space, .space), (XK_KP_Tab, .tab),
]

private let latin1Keysyms: [(Int32, Character)] = [
    (XK_a, "a"), (XK_z, "z"), (XK_A, "A"), (XK_Z, "Z"), (XK_c, "c"), (XK_C, "C"), (XK_0, "0"), (XK_9, "9"),
    // The ends of printable ASCII and of Latin-1.
    (XK_exclam, "!"), (XK_asciitilde, "~"), (XK_nobreakspace, "\u{A0}"), (XK_eacute, "é"),
    (XK_ssharp, "ß"), (XK_ydiaeresis, "ÿ"),
]

private let unicodeKeysyms: [(UInt, Character)] = [
    (0x0100_20AC, "€"), (0x0100_0441, "с"), (0x0101_F600, "😀"), (0x0110_FFFF, "\u{10FFFF}"),
]

private let unnamedKeysyms: [UInt] = [
    UInt(XK_Shift_L), UInt(XK_Shift_R), UInt(XK_Control_L), UInt(XK_Control_R), UInt(XK_Alt_L), UInt(XK_Alt_R),
    UInt(XK_Meta_L), UInt(XK_Super_L), UInt(XK_Super_R), UInt(XK_Caps_Lock), UInt(XK_Num_Lock),
    UInt(XK_ISO_Level3_Shift), UInt(XK_F1), UInt(XK_F12), UInt(XK_Insert), UInt(XK_Menu), UInt(XK_KP_0),
    UInt(XK_KP_Begin), UInt(XK_KP_Insert),
    UInt(XK_Aogonek), UInt(XK_Cyrillic_es), UInt(XK_EuroSign), 0x7F, 0x9F, 0x100, 0x0100_D800, 0x0110_FFFF + 1,
    UInt(NoSymbol),
]

/// `EventTranslator.key(forKeysym:)`, the display-free half of key translation. (Turning a key event into a
/// keysym and text needs `XLookupString`, which reads the server's keyboard mapping.)
@Suite struct EventTranslationKeysymTests {
    @Test(arguments: namedKeysyms)
    func namedKeysMapToTheirKey(keysym: Int32, key: Key) {
        #expect(EventTranslator.key(forKeysym: UInt(keysym)) == key)
    }

    @Test(arguments: latin1Keysyms)
    func latin1KeysymsAreTheirCharacter(keysym: Int32, character: Character) {
        #expect(EventTranslator.key(forKeysym: UInt(keysym)) == .character(character))
    }

    /// Keysyms 0x0100_0000 + U are the Unicode character U.
    @Test(arguments: unicodeKeysyms)
    func unicodeKeysymsAreTheirCharacter(keysym: UInt, character: Character) {
        #expect(EventTranslator.key(forKeysym: keysym) == .character(character))
    }

    /// Modifier keys, function keys, the keypad's digits and Insert, legacy non-Latin-1 keysyms (Latin-2, Cyrillic, the
    /// euro sign), gaps in Latin-1, surrogates and NoSymbol: none is named, each keeps its keysym.
    @Test(arguments: unnamedKeysyms)
    func otherKeysymsAreOtherWithTheirKeysym(keysym: UInt) {
        #expect(EventTranslator.key(forKeysym: keysym) == .other(keysym))
    }

    /// The space bar is a named key, not the character " ".
    @Test func spaceIsNamedNotACharacter() {
        #expect(EventTranslator.key(forKeysym: 0x20) == .space)
        #expect(EventTranslator.key(forKeysym: 0x20) != .character(" "))
    }
}

/// `EventTranslator.text(forKeysym:modifiers:)`: the text a key types, as XLookupString makes it
/// for Latin-1, and Unicode keysyms as their character. (Every key of a real keyboard is
/// compared with XLookupString itself in `KeyTranslationTests`.)
@Suite struct KeyTextTests {
    private let control = UInt32(ControlMask)

    @Test func charactersTypeThemselves() {
        #expect(EventTranslator.text(forKeysym: 0x61, modifiers: 0) == "a")
        #expect(EventTranslator.text(forKeysym: 0xe9, modifiers: 0) == "é")
        #expect(EventTranslator.text(forKeysym: 0x20, modifiers: 0) == " ")
    }

    @Test func unicodeKeysymsTypeTheirCharacterInAnyScript() {
        #expect(EventTranslator.text(forKeysym: 0x0100_0430, modifiers: 0) == "а")  // Cyrillic a
        #expect(EventTranslator.text(forKeysym: 0x0100_20ac, modifiers: 0) == "€")
        #expect(EventTranslator.text(forKeysym: 0x0101_f600, modifiers: 0) == "😀")
        #expect(EventTranslator.text(forKeysym: 0x0100_d800, modifiers: 0) == "", "a surrogate is no character")
    }

    @Test func editingAndKeypadKeysTypeWhatXlibGivesThem() {
        let expected: [(UInt, String)] = [
            (0xff08, "\u{8}"), (0xff09, "\t"), (0xff0d, "\r"), (0xff1b, "\u{1b}"), (0xffff, "\u{7f}"),
            (0xff80, " "), (0xff8d, "\r"), (0xffaa, "*"), (0xffab, "+"), (0xffad, "-"), (0xffae, "."),
            (0xffaf, "/"), (0xffb0, "0"), (0xffb9, "9"), (0xffbd, "="),
        ]
        for (keysym, text) in expected {
            #expect(EventTranslator.text(forKeysym: keysym, modifiers: 0) == text, "\(String(keysym, radix: 16))")
        }
        // Arrows, function keys, modifiers and Insert type nothing.
        for keysym: UInt in [0xff51, 0xffbe, 0xffe1, 0xff63, 0xff9e] {
            #expect(EventTranslator.text(forKeysym: keysym, modifiers: 0) == "")
        }
    }

    @Test func deadKeysTypeTheirSpacingAccentWhereLatin1HasOne() {
        #expect(EventTranslator.text(forKeysym: 0xfe50, modifiers: 0) == "`")
        #expect(EventTranslator.text(forKeysym: 0xfe51, modifiers: 0) == "\u{B4}")
        #expect(EventTranslator.text(forKeysym: 0xfe57, modifiers: 0) == "\u{A8}")
        #expect(EventTranslator.text(forKeysym: 0xfe5b, modifiers: 0) == "\u{B8}")
        #expect(EventTranslator.text(forKeysym: 0xfe52, modifiers: 0) == "^")
        #expect(EventTranslator.text(forKeysym: 0xfe5a, modifiers: 0) == "", "caron")
    }

    @Test func controlMakesControlCharacters() {
        #expect(EventTranslator.text(forKeysym: 0x61, modifiers: control) == "\u{1}")
        #expect(EventTranslator.text(forKeysym: 0x41, modifiers: control) == "\u{1}")
        #expect(EventTranslator.text(forKeysym: 0x20, modifiers: control) == "\u{0}")
        #expect(EventTranslator.text(forKeysym: 0x32, modifiers: control) == "\u{0}")
        #expect(EventTranslator.text(forKeysym: 0x33, modifiers: control) == "\u{1b}")
        #expect(EventTranslator.text(forKeysym: 0x37, modifiers: control) == "\u{1f}")
        #expect(EventTranslator.text(forKeysym: 0x38, modifiers: control) == "\u{7f}")
        #expect(EventTranslator.text(forKeysym: 0x2f, modifiers: control) == "\u{1f}")
        #expect(EventTranslator.text(forKeysym: 0x31, modifiers: control) == "1")
        #expect(EventTranslator.text(forKeysym: 0xe9, modifiers: control) == "é")
        #expect(EventTranslator.text(forKeysym: 0x0100_0430, modifiers: control) == "")
    }
}
