/// Keyboard and pointer-button modifiers held during an event.
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = Modifiers(rawValue: 1 << 0)
    /// Caps Lock.
    public static let capsLock = Modifiers(rawValue: 1 << 1)
    /// Control.
    public static let control = Modifiers(rawValue: 1 << 2)
    /// Alt (Mod1).
    public static let alt = Modifiers(rawValue: 1 << 3)
    /// Super (Mod4).
    public static let `super` = Modifiers(rawValue: 1 << 6)
    /// The primary (left) button is down.
    public static let button1 = Modifiers(rawValue: 1 << 8)
    /// The middle button is down.
    public static let button2 = Modifiers(rawValue: 1 << 9)
    /// The secondary (right) button is down.
    public static let button3 = Modifiers(rawValue: 1 << 10)
}

/// A pointer button, including the wheel "buttons" X11 reports as 4–7.
public enum MouseButton: Hashable, Sendable {
    /// Button 1, usually the left one.
    case primary
    /// Button 2, the middle one or the wheel pressed.
    case middle
    /// Button 3, usually the right one.
    case secondary
    /// A wheel step up (button 4).
    case scrollUp
    /// A wheel step down (button 5).
    case scrollDown
    /// A wheel step left (button 6).
    case scrollLeft
    /// A wheel step right (button 7).
    case scrollRight
    /// Any other button, by its X number.
    case other(UInt32)

    init(x11 number: UInt32) {
        switch number {
        case 1: self = .primary
        case 2: self = .middle
        case 3: self = .secondary
        case 4: self = .scrollUp
        case 5: self = .scrollDown
        case 6: self = .scrollLeft
        case 7: self = .scrollRight
        default: self = .other(number)
        }
    }

    /// Whether this "button" is a wheel step rather than a press.
    public var isScroll: Bool {
        switch self {
        case .scrollUp, .scrollDown, .scrollLeft, .scrollRight: return true
        default: return false
        }
    }
}

/// A key, as X11UI's widgets care about it.
public enum Key: Hashable, Sendable {
    /// Escape (dismisses tooltips).
    case escape
    /// Tab, and Shift-Tab (ISO_Left_Tab): moves focus.
    case tab
    /// Return or keypad Enter.
    case `return`
    /// The space bar.
    case space
    /// Backspace.
    case backspace
    /// Delete.
    case delete
    /// Left arrow.
    case left
    /// Right arrow.
    case right
    /// Up arrow.
    case up
    /// Down arrow.
    case down
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// A key that produces text (a letter, a digit, punctuation).
    case character(Character)
    /// Any other key, by its X keysym.
    case other(UInt)
}

/// Where the pointer was during a pointer event.
struct PointerEvent: Sendable {
    /// The X window the event was reported for.
    var window: UInt
    /// The position in that window's coordinates.
    var location: Point
    /// The position on the root window (the screen).
    var rootLocation: Point
    /// Modifiers and buttons held.
    var modifiers: Modifiers
    /// The server time of the event, in milliseconds.
    var time: UInt
}

/// A button press or release.
struct ButtonEvent: Sendable {
    /// Where the pointer was.
    var pointer: PointerEvent
    /// The button.
    var button: MouseButton
}

/// A key press or release.
struct KeyEvent: Sendable {
    /// The X window the event was reported for.
    var window: UInt
    /// The key.
    var key: Key
    /// The text the key produces (may be empty).
    var text: String
    /// Modifiers held.
    var modifiers: Modifiers
    /// The pointer's position in the window at the time.
    var location: Point
    /// The server time of the event, in milliseconds.
    var time: UInt
    /// The key as keyboard shortcuts match it.
    var shortcut = ShortcutKeyPress(pressed: .init(key: .other(0), consumed: []), modifiers: [])
}

/// A key press as keyboard shortcuts match it (`KeyboardShortcut.match`): what the layout typed
/// and how, Caps Lock aside.
struct ShortcutKeyPress: Equatable, Sendable {
    /// A key at one level of one layout group, and the modifiers the layout used to reach it
    /// (Shift for "Z" or for "+" on a US keyboard).
    struct Level: Equatable, Sendable {
        var key: Key
        var consumed: Modifiers
    }

    /// The modifiers shortcuts are made of.
    static let significant: Modifiers = [.shift, .control, .alt, .super]

    /// The key in the layout's current group.
    var pressed: Level
    /// The same key in the first group where it types ASCII, when the current group types no
    /// Latin-1 character there (a Russian letter): what GTK's accelerators fall back to.
    var latin: Level?
    /// Shift, Control, Alt and Super as held.
    var modifiers: Modifiers

    init(pressed: Level, latin: Level? = nil, modifiers: Modifiers) {
        self.pressed = pressed
        self.latin = latin
        self.modifiers = modifiers.intersection(Self.significant)
    }
}

/// Why keyboard focus moved, as X11 reports it in FocusIn and FocusOut.
struct FocusChange: Sendable {
    /// The X window the event was reported for.
    var window: UInt
    /// Whether the change is real, as opposed to the side effects of a pointer-root focus
    /// following the pointer or of a keyboard grab.
    var isReal: Bool
}

/// An X event, translated once from `XEvent` into Swift (internal: views and interactions
/// receive ``InteractionEvent``, ``ViewButtonEvent`` and ``KeyPress``).
enum Event: Sendable {
    /// Part of a window needs repainting; `count` more Expose events follow in this series.
    case expose(window: UInt, rect: Rect, count: Int)
    /// The window's size or position changed; the origin is in the parent's coordinates
    /// (the root's when `synthetic`, as window managers send it).
    case configure(window: UInt, frame: Rect, synthetic: Bool)
    /// The window was mapped (shown).
    case map(window: UInt)
    /// The window was unmapped (hidden).
    case unmap(window: UInt)
    /// The window was destroyed.
    case destroy(window: UInt)
    /// A window manager put the window into a frame window.
    case reparent(window: UInt, parent: UInt)
    /// The pointer moved within the window.
    case pointerMotion(PointerEvent)
    /// The pointer entered the window.
    case pointerEnter(PointerEvent)
    /// The pointer left the window.
    case pointerLeave(PointerEvent)
    /// A pointer button went down.
    case buttonPress(ButtonEvent)
    /// A pointer button went up.
    case buttonRelease(ButtonEvent)
    /// A key went down.
    case keyPress(KeyEvent)
    /// A key went up.
    case keyRelease(KeyEvent)
    /// The window got keyboard focus.
    case focusIn(FocusChange)
    /// The window lost keyboard focus.
    case focusOut(FocusChange)
    /// A client message (`WM_PROTOCOLS` from the window manager, say) with its five longs.
    case clientMessage(window: UInt, type: UInt, data: [Int])
    /// Another client asks for a selection X11UI owns.
    case selectionRequest(SelectionConversionRequest)
    /// Another client took a selection X11UI owned.
    case selectionClear(window: UInt, selection: UInt)
    /// A property of the window changed or was deleted.
    case propertyChange(window: UInt, atom: UInt)
    /// The monitor layout changed (RandR).
    case screenChange
    /// The owner of a selection changed (XFixes); X11UI watches the compositor's.
    case selectionOwnerChange(selection: UInt, owner: UInt)
    /// The cursor the server shows changed (XFixes), once X11UI asked to hear of it.
    case shownCursorChange
    /// A finger went down, moved or lifted on the window (XInput 2.2; the record's points are
    /// in the window and on the root).
    case touch(window: UInt, XITouchRecord)
    /// An event X11UI does not use, by its type.
    case other(type: Int32, window: UInt)

    /// The window the event is about.
    var window: UInt {
        switch self {
        case .expose(let w, _, _), .configure(let w, _, _), .map(let w), .unmap(let w), .destroy(let w),
            .reparent(let w, _), .clientMessage(let w, _, _), .selectionClear(let w, _),
            .propertyChange(let w, _), .other(_, let w), .touch(let w, _):
            return w
        case .pointerMotion(let p), .pointerEnter(let p), .pointerLeave(let p): return p.window
        case .buttonPress(let b), .buttonRelease(let b): return b.pointer.window
        case .keyPress(let k), .keyRelease(let k): return k.window
        case .focusIn(let f), .focusOut(let f): return f.window
        case .selectionRequest(let r): return r.owner
        case .screenChange, .selectionOwnerChange, .shownCursorChange: return 0
        }
    }
}

/// Another client asks for the contents of a selection X11UI owns.
struct SelectionConversionRequest: Sendable {
    var owner: UInt
    var requestor: UInt
    var selection: UInt
    var target: UInt
    var property: UInt
    var time: UInt
}
