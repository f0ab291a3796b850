/// The fields of an XInput 2.2 touch event (`XIDeviceEvent` with evtype `XI_TouchBegin`,
/// `XI_TouchUpdate` or `XI_TouchEnd`) that tooltips need, copied out of the C struct by the
/// platform layer so the translation is pure and testable without a touch device.
package struct XITouchRecord: Hashable, Sendable {
    package enum Kind: Hashable, Sendable { case begin, update, end }

    /// `XI_TouchBegin`, `XI_TouchUpdate`, `XI_TouchEnd` (XI2.h).
    package static let touchBegin: Int32 = 18
    package static let touchUpdate: Int32 = 19
    package static let touchEnd: Int32 = 20
    /// `XITouchEmulatingPointer`: the server emulates pointer events from this touch.
    package static let emulatingPointer: UInt32 = 1 << 17
    /// `XIPointerEmulated`: an XI2 pointer event emulated from a touch.
    package static let pointerEmulated: UInt32 = 1 << 16

    package var kind: Kind
    /// `detail`: the touch's id, unique while it is down.
    package var touchID: UInt32
    /// `event_x`, `event_y`: in the event window.
    package var event: Point
    /// `root_x`, `root_y`.
    package var root: Point
    package var flags: UInt32
    /// The server's time (milliseconds, wrapping).
    package var time: UInt32

    /// A record from the C fields; nil for another event type or coordinates that are not
    /// finite (a hostile or broken server), which are dropped.
    package init?(
        evtype: Int32, detail: Int32, eventX: Double, eventY: Double, rootX: Double, rootY: Double, flags: Int32,
        time: UInt
    ) {
        switch evtype {
        case Self.touchBegin: kind = .begin
        case Self.touchUpdate: kind = .update
        case Self.touchEnd: kind = .end
        default: return nil
        }
        guard eventX.isFinite, eventY.isFinite, rootX.isFinite, rootY.isFinite else { return nil }
        touchID = UInt32(bitPattern: detail)
        event = Point(x: eventX, y: eventY)
        root = Point(x: rootX, y: rootY)
        self.flags = UInt32(bitPattern: flags)
        self.time = UInt32(truncatingIfNeeded: time)
    }

    package var emulatesPointer: Bool { flags & Self.emulatingPointer != 0 }
}

/// Turns XI 2.2 touch events into the tooltip machine's touch inputs, and tells which core
/// pointer events come from a touch.
///
/// One finger is followed, the first one down: a second finger makes the gesture something
/// else (a pinch, a two-finger scroll), so the followed touch is cancelled and every finger is
/// ignored until all have lifted. At most `maxTouches` other fingers are remembered.
///
/// Core pointer events emulated from a touch carry no mark (only XI2 pointer events carry
/// `XIPointerEmulated`). A window that selects touch events gets the touch, not the emulated
/// pointer events, under XI 2.2's delivery rules; where emulated core events arrive anyway
/// (another window of the program, a server that sends both), they are recognised thus: any
/// core pointer event while a pointer-emulating touch is down, and any that comes within
/// `emulationWindow` of that touch's end at the point where it lifted (the emulated release
/// and motion carry the touch end's time and position; a mouse that moves is elsewhere).
package struct TouchTranslator: Hashable, Sendable {
    /// Where and when a touch lifted.
    package struct Lift: Hashable, Sendable {
        package var time: UInt32
        package var root: Point
    }

    /// A touch input, with the point in the event window (for hit-testing) and on the root.
    package enum Output: Hashable, Sendable {
        case begin(event: Point, root: Point)
        case move(event: Point, root: Point)
        case end
        case cancel
    }

    package static let maxTouches = 32
    /// How long after a pointer-emulating touch lifts a core event at its point is its own.
    package static let emulationWindow: UInt32 = 100
    /// How far from where it lifted (pixels, either axis) such an event may be.
    package static let emulationSlop: Double = 1

    /// The followed touch.
    package private(set) var followed: UInt32?
    /// The followed touch was cancelled by a second finger.
    package private(set) var cancelled = false
    /// Other fingers down.
    package private(set) var others: Set<UInt32> = []
    /// The pointer-emulating touch that is down.
    package private(set) var emulating: UInt32?
    /// Where and when the last pointer-emulating touch lifted.
    package private(set) var lastEmulatedEnd: Lift?

    package init() {}

    /// The input for `record`, or nil when it changes nothing the tooltips see.
    package mutating func translate(_ record: XITouchRecord) -> Output? {
        let id = record.touchID
        switch record.kind {
        case .begin:
            if record.emulatesPointer { emulating = id }
            if followed == nil, others.isEmpty {
                followed = id
                cancelled = false
                return .begin(event: record.event, root: record.root)
            }
            if others.count < Self.maxTouches, id != followed { others.insert(id) }
            if followed != nil, !cancelled {
                cancelled = true
                return .cancel
            }
            return nil
        case .update:
            guard id == followed, !cancelled else { return nil }
            return .move(event: record.event, root: record.root)
        case .end:
            if id == emulating {
                emulating = nil
                lastEmulatedEnd = Lift(time: record.time, root: record.root)
            }
            guard id == followed else {
                others.remove(id)
                return nil
            }
            followed = nil
            defer { cancelled = false }
            return cancelled ? nil : .end
        }
    }

    /// Whether a core pointer event (motion, crossing, press or release) at `root` and `time`
    /// was emulated from a touch. `xi2Flags` are an XI2 pointer event's flags, when known.
    package func isEmulated(time: UInt32, root: Point, xi2Flags: UInt32? = nil) -> Bool {
        if let xi2Flags { return xi2Flags & XITouchRecord.pointerEmulated != 0 }
        if emulating != nil { return true }
        guard let end = lastEmulatedEnd, root.isFinite else { return false }
        // Server times wrap; an event before the end (a late event of the touch) counts too.
        let after = time &- end.time
        let before = end.time &- time
        guard min(after, before) <= Self.emulationWindow else { return false }
        return abs(root.x - end.root.x) <= Self.emulationSlop && abs(root.y - end.root.y) <= Self.emulationSlop
    }
}
