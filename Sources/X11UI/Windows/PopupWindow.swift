/// An override-redirect window: the window manager neither decorates nor moves it. Tooltips,
/// menus and popovers are popups.
///
/// ```swift
/// let popup = PopupWindow()
/// popup.content = Label("Saved")
/// popup.setFrame(Rect(x: 100, y: 100, width: 80, height: 24))
/// popup.show()
/// ```
@MainActor
open class PopupWindow: Window {
    /// Whether the X window is made with an alpha channel when the server has a 32-bit visual.
    private let wantsTranslucency: Bool

    /// Creates a popup; it appears on `show()`.
    public init(application: Application? = nil) {
        wantsTranslucency = false
        super.init(untitledIn: application)
        backgroundColor = .controlBackground
    }

    /// Creates a popup that can be translucent, when `translucent` and the server has a 32-bit
    /// visual with alpha (only useful while a compositor runs).
    init(application: Application, translucent: Bool) {
        wantsTranslucency = translucent
        super.init(untitledIn: application)
        rootView.backgroundColor = nil
    }

    /// Whether the popup's X window has an alpha channel.
    var isTranslucent: Bool { native?.isTranslucent ?? false }

    override var isTopLevel: Bool { false }
    override var usesBufferAsBackground: Bool { true }

    override func makeNativeWindow(on connection: DisplayConnection, frame: Rect) -> NativeWindow? {
        NativeWindow.create(
            on: connection, frame: frame, events: events,
            options: NativeWindow.Options(overrideRedirect: true, saveUnder: true, translucent: wantsTranslucency))
    }

    /// Moves and resizes the popup in one request, and raises it.
    public override func setFrame(_ frame: Rect) {
        // Taken even before the X window exists: it is made with this frame.
        let adopted = adoptFrame(frame)
        native?.setFrame(adopted, raise: true)
    }

    /// Takes `frame` as the popup's place and size (its views lay out and its buffer paints at
    /// that size) without telling the server yet: the next `setFrame` does. Returns the frame
    /// as the popup has it (whole pixels, at least one pixel a side).
    @discardableResult
    func adoptFrame(_ frame: Rect) -> Rect {
        let rect = frame.validated.integral
        let newSize = Self.windowSize(rect.size, scale: 1)
        screenOrigin = rect.origin
        requestedPosition = rect.origin
        if newSize != size { setSizeWithoutRequest(newSize) }
        return Rect(origin: rect.origin, size: newSize)
    }
}
