/// The last stage of the interaction channel: a behaviour of the whole application that hears
/// every window's events after the interactions of the views concerned did.
///
/// The tooltip coordinator's event router is one (`ToolTipEventRouter`, in front of
/// ``ToolTipController``, the one place that knows which tooltip is shown, like GTK's
/// per-display tooltip): the ``ToolTipInteraction``s of the views forward what they hear to it, and it decides when the window-wide stage comes, so that it
/// decides once per event, over everything the views' interactions heard, and also hears the
/// events over views without tooltips (hover intent follows the pointer there).
///
/// Windows deliver to `application.windowInteractions` and never to a behaviour by name.
@MainActor
protocol WindowInteraction: AnyObject {
    /// Hears `event` (the same event the views' interactions heard, without a point) after
    /// them. Returns whether a key was used up: the focused view's own hook and Tab then do
    /// not see it. Other events return false.
    func handle(_ event: InteractionEvent, in context: InteractionContext) -> Bool

    /// A view of `window` (or an ancestor) was removed or hidden.
    func viewDidDisappear(_ view: View, in window: Window)

    /// A pointer motion or enter reached a window, before its hit test and deliveries (the
    /// tooltip coordinator notes the time: a delay counts from the pointer's arrival).
    func pointerEventArrived()
}

/// What a window-wide interaction is told about an event beyond the event itself.
@MainActor
struct InteractionContext {
    /// The window the event happened in.
    let window: Window
    /// For pointer events: the pointer in the window's coordinates and on the screen.
    var location: Point?
    var rootLocation: Point?
    /// For pointer events: the deepest view under the pointer (nil: none, or the pointer left
    /// the window).
    var deepest: View?
    /// For focus events: the view that has focus now.
    var focused: View?
    /// For keys: the key as the server reported it.
    var key: KeyEvent?
    /// For pointer events: the touch they stand for, when a finger made them.
    var touch: TouchPhase?

    init(window: Window) { self.window = window }
}
