/// Touch, in the tooltips' driver: the pointer events a window makes from a finger
/// (Window+Touch.swift) carry their place in the touch, and the machine hears them as the
/// touch inputs of `ToolTipStateMachine+Touch.swift`; a hover tooltip shown by a long press is
/// placed clear of the finger.
extension ToolTipEventRouter {
    /// The pointer is over `target` at `root`: the machine hears the mouse's motion, or the
    /// touch the motion was made from.
    func feedPointer(
        _ target: ToolTipStateMachine.Target, at root: Point, touch: TouchPhase?, arrival: MonotonicInstant?
    ) {
        switch touch {
        case nil:
            controller.feed(.pointer(target, at: root), at: arrival)
        case .began:
            // Before the press made from it: the machine takes that press for the finger's.
            controller.feed(.touchBegin(target, at: root), at: arrival)
        case .moved:
            controller.feed(.touchMove(root), at: arrival)
            controller.feed(.touchPointer(target, at: root), at: arrival)
        case .ended:
            // Before the release made from it, which toggles a click tooltip.
            controller.feed(.touchMove(root), at: arrival)
            controller.feed(.touchEnd, at: arrival)
            controller.feed(.touchPointer(target, at: root), at: arrival)
        case .cancelled:
            controller.feed(.touchCancel, at: arrival)
            controller.feed(.touchPointer(target, at: root), at: arrival)
        case .emulated:
            controller.feed(.touchPointer(target, at: root), at: arrival)
        }
    }
}

extension ToolTipPresenter.Request {
    /// The side of a finger's contact at 96 dpi (about 10 mm, a fingertip's width): a tooltip
    /// shown by a long press keeps this clear around the touch point.
    static let fingerSide: Double = 40

    /// This request for a hover tooltip a long press showed: it points at the finger, a
    /// finger-sized square around the touch point, from above rather than below (the hand is
    /// below the finger), and goes below it only when there is no room above (the layout's
    /// flip). An expansion tooltip, or one with no pointer, is returned as it is.
    func placedClearOfFinger(scale: Double) -> ToolTipPresenter.Request {
        guard expansion == nil, let pointer, pointer.isFinite else { return self }
        var placed = self
        let side = Self.fingerSide * scale
        let finger = Rect(x: -side / 2, y: -side / 2, width: side, height: side)
        placed.source = finger.offsetBy(dx: pointer.x, dy: pointer.y)
        placed.cursor = CursorInk(box: finger)
        placed.avoiding = nil
        placed.followsPointer = false
        if placed.placement.edge == .bottom { placed.placement.edge = .top }
        return placed
    }
}
