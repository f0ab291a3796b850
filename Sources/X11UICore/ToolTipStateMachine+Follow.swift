/// A hover tooltip that follows the pointer inside its source: one move per frame at most,
/// none while the pointer stands still, and the last position always reached.
extension ToolTipStateMachine {
    /// When the shown tooltip moves next to where the pointer went (nil: nothing waits).
    package var followDeadline: MonotonicInstant? {
        guard case .showing(let s) = phase, let follow = s.follow, follow.waiting != nil else { return nil }
        return follow.lastMove + s.source.timings.followInterval
    }

    /// The pointer is at `location` inside the shown tooltip's source (or a frame passed since
    /// it went there): the tooltip moves now when a frame has passed since it last moved,
    /// else at the end of that frame, to wherever the pointer is then.
    package mutating func follow(
        _ current: inout Showing, to location: Point?, now: MonotonicInstant, _ effects: inout [Effect]
    ) {
        guard var follow = current.follow, let location, location.isFinite else { return }
        guard location != follow.placedAt else {
            // Back where it was put before the frame ended: nothing to move.
            follow.waiting = nil
            current.follow = follow
            return
        }
        if now - follow.lastMove >= current.source.timings.followInterval {
            follow = Follow(placedAt: location, lastMove: now, waiting: nil)
            effects.append(.follow(location))
        } else {
            follow.waiting = location
        }
        current.follow = follow
    }
}
