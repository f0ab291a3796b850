// The inputs, effects and state of `ToolTipStateMachine`: small value types, so that equality
// is synthesised and a state that makes no sense cannot be written.

extension ToolTipStateMachine {
    /// What shows a tooltip: hovering it, clicking it, or focusing it from the keyboard.
    package enum Anchor: Hashable, Sendable {
        case pointer, click, focus
    }

    /// A place that has a tooltip: one interaction, one region of it (root coordinates).
    package struct Source: Hashable, Sendable {
        package var interaction: UInt64
        package var region: Rect
        package var anchor: Anchor
        package var timings: ToolTipTimings
        /// Whether a hover tooltip shown here moves with the pointer while it stays inside
        /// (``ToolTipPlacement/Anchor/followsPointer``).
        package var follows = false

        /// Whether two sources are the same place (timings aside).
        package func isSamePlace(as other: Source?) -> Bool {
            guard let other else { return false }
            return interaction == other.interaction && region == other.region && anchor == other.anchor
        }

        /// Field for field (a memberwise initializer is at most internal; X11UI builds these).
        package init(
            interaction: UInt64, region: Rect, anchor: ToolTipStateMachine.Anchor, timings: ToolTipTimings,
            follows: Bool = false
        ) {
            self.interaction = interaction
            self.region = region
            self.anchor = anchor
            self.timings = timings
            self.follows = follows
        }
    }

    /// What the pointer is over.
    package enum Target: Hashable, Sendable {
        case nothing
        /// The tooltip window itself.
        case toolTip
        /// A region with a tooltip (hover or click).
        case source(Source)

        package var source: Source? {
            if case .source(let s) = self { return s }
            return nil
        }
    }

    /// The delegate's answer to `.ask` or `.reask`.
    package enum Answer: Hashable, Sendable {
        /// No tooltip here.
        case none
        /// A tooltip for `region` (root coordinates); `unchanged` when it is the content already
        /// shown.
        case content(region: Rect, unchanged: Bool = false)
    }

    package enum Input: Hashable, Sendable {
        /// The pointer moved; what is under it now and where it is (root coordinates; nil when
        /// unknown).
        case pointer(Target, at: Point? = nil)
        /// A button went down (scroll included) over `target`.
        case buttonPress(Target)
        /// A button went up over `target`.
        case buttonRelease(Target)
        /// Escape was pressed.
        case escape
        /// Keyboard focus moved: to a view with a tooltip (`source`), or elsewhere (nil).
        /// Focus given by a click or by the window shows nothing, like `:focus-visible`.
        case focus(Source?, byKeyboard: Bool = true)
        /// Space or Return on a focused view with a click tooltip (the toggletip pattern).
        case activate(Source)
        /// The program asked for this tooltip now (`ToolTipInteraction.present()`).
        case present(Source)
        /// The program asked this interaction's tooltip to go (`ToolTipInteraction.dismiss()`).
        case dismiss(UInt64)
        /// The timer set by the last `.setTimer` fired.
        case timer
        /// The interaction's view went away, hid, or the interaction was disabled.
        case sourceGone(UInt64)
        /// The window lost focus or was unmapped: hide everything.
        case dismissAll
        /// The source's content changed (`setNeedsUpdate()`).
        case invalidate(UInt64)
        /// The delegate answered the last question.
        case answer(Answer)
        /// The shown tooltip is on the screen in this frame (root coordinates).
        case placed(Rect)
        /// A finger touched the screen over `target`, at this point (root coordinates).
        case touchBegin(Target, at: Point)
        /// The finger moved to this point (root coordinates).
        case touchMove(Point)
        /// The finger lifted.
        case touchEnd
        /// The touch was taken away (another client grabbed it, the device went).
        case touchCancel
        /// Pointer motion emulated from a touch: the pointer is over `target` now, but starts
        /// no hover tooltip and keeps one shown by a long press.
        case touchPointer(Target, at: Point?)
    }

    package enum Effect: Hashable, Sendable {
        /// Ask the delegate for the tooltip of `source`, before it shows; answer with `.answer`.
        case ask(Source)
        /// Ask the delegate again for the shown tooltip; answer with `.answer`.
        case reask(Source)
        /// Show the tooltip of `source` with the content just answered, replacing any shown one.
        case show(Source)
        /// Re-render the shown tooltip in place with the content just answered (no hide).
        case update(Source)
        /// Move the shown tooltip to the pointer at this point (root coordinates), asking its
        /// delegate again there: a tooltip that follows the pointer, once a frame at most.
        case follow(Point)
        /// Hide the shown tooltip.
        case hide
        /// Wake the machine with `.timer` at this instant (nil: no timer).
        case setTimer(MonotonicInstant?)
    }

    // MARK: - State

    /// A tooltip waiting for its delay.
    package struct Pending: Hashable, Sendable {
        package var source: Source
        package var deadline: MonotonicInstant
    }

    /// The pointer left a shown hover tooltip's source (or the tooltip) and may be crossing to
    /// the other: it stays while the pointer is in `region`, until `deadline` if it stops.
    package struct Leaving: Hashable, Sendable {
        /// The safe region (root coordinates); nil when the exit point or the tooltip's frame
        /// is not known, and only the deadline decides.
        package var region: [Point]?
        package var deadline: MonotonicInstant
    }

    /// A tooltip on the screen.
    package struct Showing: Hashable, Sendable {
        package var source: Source
        package var since: MonotonicInstant
        /// The tooltip's frame on the screen, once placed.
        package var frame: Rect?
        package var leaving: Leaving?
        /// For a tooltip that follows the pointer: where it was put and when.
        package var follow: Follow?
        /// A hover tooltip shown by a long press: it stays until a touch elsewhere, and is
        /// placed at its source, clear of the finger.
        package var byTouch = false
    }

    /// A tooltip that follows the pointer: the pointer it was last put at, when, and the
    /// pointer it goes to once a frame has passed since (motion within a frame is coalesced).
    package struct Follow: Hashable, Sendable {
        /// The pointer the tooltip was last placed at (nil: not known).
        package var placedAt: Point?
        /// When it showed or last moved.
        package var lastMove: MonotonicInstant
        /// Where the pointer went within the frame, not yet followed.
        package var waiting: Point?
    }

    /// A question to the delegate, waiting for its answer.
    package struct Question: Hashable, Sendable {
        package var source: Source
        /// Whether it asks for the shown tooltip's new content (else for a tooltip to show).
        package var isUpdate: Bool
        /// The tooltip on the screen meanwhile.
        package var current: Showing?
        /// `setNeedsUpdate()` was called while the delegate answered: asked once more, after.
        package var updateRequested = false
        /// This question is that one more time (requests made while answering it are dropped,
        /// so a delegate that always asks for an update cannot loop).
        package var isRetry = false
        /// It asks for a hover tooltip shown by a long press.
        package var byTouch = false
    }

    package enum Phase: Hashable, Sendable {
        case idle
        case asking(Question)
        case showing(Showing)
    }

    /// A source dismissed by Escape (until the pointer leaves it) or by a press (until the
    /// pointer moves again).
    package struct Suppression: Hashable, Sendable {
        package var source: Source
        package var liftsOnMotion: Bool
    }
}
