/// Where a pointer event made from a touch stands in the touch.
enum TouchPhase: Sendable {
    /// The finger went down (the motion to it, and the press).
    case began
    /// The finger moved.
    case moved
    /// The finger lifted (the motion to where it lifted, and the release).
    case ended
    /// A second finger made the touch a gesture: what the first one pressed is let go
    /// without a click.
    case cancelled
    /// A core pointer event the server emulated from a touch (recognised, not marked).
    case emulated
}

/// Touch: a window that selected XInput 2.2 touch events (DisplayConnection+Touch.swift) gets
/// a finger as touch events and no pointer events for it. The finger it follows (the first
/// one down, `TouchTranslator`) becomes pointer events here, as the server would have
/// emulated them — a motion to the finger and a press of the primary button when it goes
/// down, motions while it moves, a motion and the release where it lifts — delivered through
/// the same path as the mouse's, so a tap clicks a button and a drag drags. Each carries its
/// place in the touch (`InteractionContext.touch`): the tooltips hear a touch, not a hover.
extension Window {
    /// Handles `event` when it is a touch, or a core pointer event emulated from one; returns
    /// whether it did (the event then needs nothing more).
    func handledAsTouch(_ event: Event) -> Bool {
        guard hover.touch == nil, let application else { return false }
        let pointer: PointerEvent
        switch event {
        case .touch(_, let record):
            touched(record, application: application)
            return true
        case .pointerMotion(let p), .pointerEnter(let p): pointer = p
        case .buttonPress(let b), .buttonRelease(let b): pointer = b.pointer
        default: return false
        }
        let time = UInt32(truncatingIfNeeded: pointer.time)
        guard application.touches.isEmulated(time: time, root: pointer.rootLocation) else { return false }
        switch event {
        case .buttonPress, .buttonRelease:
            // The touch's own press and release were made from its touch events already.
            if selectsTouch { return true }
        default:
            break
        }
        emulating(.emulated) { handleEvent(event) }
        return true
    }

    /// Whether the server sends this window touch events.
    private var selectsTouch: Bool { events.contains(.touch) && application?.connection.selectsTouch == true }

    private func emulating(_ phase: TouchPhase, _ body: () -> Void) {
        hover.touch = phase
        defer { hover.touch = nil }
        body()
    }

    private func touched(_ record: XITouchRecord, application: Application) {
        guard let output = application.touches.translate(record) else { return }
        var pointer = PointerEvent(
            window: xid, location: record.event, rootLocation: record.root, modifiers: .button1,
            time: UInt(record.time))
        switch output {
        case .begin:
            for case let window as Window in application.targets.values { window.hover.fingerDown = false }
            hover.fingerDown = true
            pointer.modifiers = []
            emulating(.began) {
                handleEvent(.pointerMotion(pointer))
                handleEvent(.buttonPress(ButtonEvent(pointer: pointer, button: .primary)))
            }
        case .move:
            emulating(.moved) { handleEvent(.pointerMotion(pointer)) }
        case .end:
            hover.fingerDown = false
            emulating(.ended) {
                handleEvent(.pointerMotion(pointer))
                handleEvent(.buttonRelease(ButtonEvent(pointer: pointer, button: .primary)))
            }
        case .cancel:
            // The second finger may be in another window: the one the first went down in lets go.
            for case let window as Window in application.targets.values where window.hover.fingerDown {
                window.touchCancelled()
            }
        }
    }

    /// The window was hidden, unmapped or closed: the server may never send the end of a
    /// finger it had, which would otherwise stay down for good (every later finger a second
    /// one, every pointer event a touch's). The fingers are forgotten; a touch that goes on is
    /// ignored until it lifts.
    func forgetTouch() {
        guard hover.fingerDown, let application else { return }
        hover.fingerDown = false
        application.touches = TouchTranslator()
    }

    /// The followed finger's touch became a gesture: the tooltips hear it (with a motion where
    /// the finger went down), and the view it pressed gets its release away from itself (a
    /// press dragged off and let go: no click).
    private func touchCancelled() {
        hover.fingerDown = false
        guard isMapped else { return }
        let location = hover.lastPressLocation
        let origin = screenOrigin ?? .zero
        let pointer = PointerEvent(
            window: xid, location: location, rootLocation: location.offsetBy(dx: origin.x, dy: origin.y),
            modifiers: .button1, time: hover.lastPressTime)
        emulating(.cancelled) { handleEvent(.pointerMotion(pointer)) }
        guard let pressed = hover.pressedView else { return }
        hover.pressedView = nil
        let away = Point(x: pressed.bounds.minX - 1, y: pressed.bounds.minY - 1)
        pressed.buttonReleased(ViewButtonEvent(button: .primary, location: away, clickCount: hover.clickCount))
    }
}
