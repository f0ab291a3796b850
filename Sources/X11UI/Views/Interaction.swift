/// A behaviour attached to a view, in the manner of UIKit's `UIInteraction`: tooltips are one.
///
/// The view holds its interactions strongly; an interaction holds its view weakly and is told
/// when it moves to or from a view. Events reach interactions of the views under the pointer
/// (innermost first) and of the focused view.
@MainActor
public protocol Interaction: AnyObject {
    /// The view the interaction is attached to.
    var view: View? { get }
    /// The interaction is about to be attached to `view` (nil: detached).
    func willMove(to view: View?)
    /// The interaction was attached to `view` (nil: detached).
    func didMove(to view: View?)
    /// An event at the view.
    func handle(_ event: InteractionEvent)
    /// Whether the interaction makes its view a control that keyboard focus must reach (a
    /// click tooltip does: Tab stops at its view, which draws a focus ring). False by default.
    var makesViewFocusable: Bool { get }
}

extension Interaction {
    public func willMove(to view: View?) {}
    public func handle(_ event: InteractionEvent) {}
    public var makesViewFocusable: Bool { false }
}

/// What happens at a view that its interactions hear about.
public enum InteractionEvent: Sendable {
    /// The pointer entered the view; the point is in the view's coordinates.
    case pointerEntered(Point)
    /// The pointer moved within the view.
    case pointerMoved(Point)
    /// The pointer left the view.
    case pointerExited
    /// A button went down over the view.
    case buttonPressed(MouseButton, Point)
    /// A button went up over the view.
    case buttonReleased(MouseButton, Point)
    /// A key was pressed while the view had focus.
    case keyPressed(KeyEvent)
    /// The view took keyboard focus; `byKeyboard` when Tab (or code saying so) moved it there.
    case focusGained(byKeyboard: Bool)
    /// The view lost keyboard focus.
    case focusLost
}

/// A button press or release at a view.
public struct ViewButtonEvent: Sendable {
    /// The button.
    public var button: MouseButton
    /// Where, in the view's coordinates.
    public var location: Point
    /// 1 for a single click, 2 for a double click, and so on.
    public var clickCount: Int
    /// Modifiers held.
    public var modifiers: Modifiers
}
