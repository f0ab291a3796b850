/// A behaviour attached to a view, in the manner of UIKit's `UIInteraction`: tooltips are one.
///
/// The view holds its interactions strongly; an interaction holds its view weakly and is told
/// when it moves to or from a view.
///
/// Interactions are the one way events reach behaviours. A window delivers each event to the
/// interactions of the views it concerns, innermost view first and each view's interactions in
/// the order they were added:
///
/// - pointer motion and buttons: the views under the pointer (the hit chain), and during a drag
///   the chain where the press began;
/// - keys: the focused view;
/// - focus: the view that lost it, then the view that gained it;
/// - the window deactivating (hidden, closed, or losing keyboard focus): the views under the
///   pointer and the focused view.
///
/// After the views' interactions, the application's window-wide stage hears the event (the
/// tooltip coordinator). The views' own hooks keep their place around them: a press and a key
/// reach the interactions before ``View/buttonPressed(_:)`` and ``View/keyPressed(_:)`` (a
/// tooltip hears of a press before any view, and Escape that hid one goes no further);
/// ``View/pointerMoved(to:)``, ``View/pointerDragged(to:)`` and ``View/buttonReleased(_:)`` come
/// before them; enter and exit hooks come with each view's `.pointerEntered` and
/// `.pointerExited` (the DocC article "Custom views that draw" gives the order of each event).
/// Interactions observe: they cannot take an event from the views.
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
    /// The pointer moved within the view (or, during a drag, anywhere: the point may then be
    /// outside the view).
    case pointerMoved(Point)
    /// The pointer left the view.
    case pointerExited
    /// A button went down over the view (wheel steps included).
    case buttonPressed(MouseButton, Point)
    /// A button went up over the view.
    case buttonReleased(MouseButton, Point)
    /// A key was pressed while the view had focus.
    case keyPressed(ViewKeyEvent)
    /// The view took keyboard focus; `byKeyboard` when Tab (or code saying so) moved it there.
    /// It comes again when focus already on the view is asked for by keyboard.
    case focusGained(byKeyboard: Bool)
    /// The view lost keyboard focus.
    case focusLost
    /// The view's window was hidden or closed, or lost keyboard focus (another program's window
    /// became active): what the view shows for the user's attention should go.
    case windowDeactivated
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

    /// Creates a button event (views receive them from their window; tests make their own).
    public init(button: MouseButton, location: Point, clickCount: Int = 1, modifiers: Modifiers = []) {
        self.button = button
        self.location = location
        self.clickCount = clickCount
        self.modifiers = modifiers
    }
}

/// A key pressed while a view had keyboard focus.
public struct ViewKeyEvent: Sendable {
    /// The key.
    public var key: Key
    /// The text the key types (may be empty): its character, as `XLookupString` gives it for
    /// Latin-1, and any character a layout gives as a Unicode keysym; with Control, the control
    /// character (Control-A is U+0001); `"\r"`, `"\t"`, `"\u{1B}"` for Return, Tab and Escape.
    public var text: String
    /// Modifiers held.
    public var modifiers: Modifiers
    /// The server time of the key, in milliseconds (0 for a key made in code); selections
    /// taken in answer to the key are stamped with it.
    var time: UInt = 0

    /// Creates a key press (views receive them from their window; tests make their own).
    public init(key: Key, text: String = "", modifiers: Modifiers = []) {
        self.key = key
        self.text = text
        self.modifiers = modifiers
    }

    init(_ event: KeyEvent) {
        self.init(key: event.key, text: event.text, modifiers: event.modifiers)
        time = event.time
    }
}
