/// A window another part of the program created with plain Xlib, given tooltips by X11UI.
///
/// X11UI draws nothing in it. It adds the input it needs to the window's event mask (keeping
/// every bit the host selected), watches the pointer, and shows the tooltips of the regions
/// you add:
///
/// ```swift
/// let app = Application(display: hostDisplay)
/// let foreign = ForeignWindow(windowID: X11WindowID(rawValue: hostWindow), application: app)
/// let chart = foreign.addRegion(Rect(x: 20, y: 20, width: 200, height: 120))
/// chart.toolTip = "Sales by month"
/// ```
///
/// Its events must reach X11UI: the host passes them to `Application.handle(_:)` (which returns
/// false for them, so the host handles them too), or lets `processPending()` read them.
/// Use the host's own `Display*`: another connection could not select button presses on a
/// window whose owner already does.
@MainActor
public final class ForeignWindow: Window {
    /// Wraps a host window.
    ///
    /// - Parameters:
    ///   - windowID: the host's X window.
    ///   - application: the application (on the host's display); nil uses `Application.current`.
    public init(windowID: X11WindowID, application: Application? = nil) {
        super.init(untitledIn: application)
        rootView.backgroundColor = nil
        attach(windowID.rawValue)
    }

    /// Adds a rectangle of the window (in its coordinates) as a view that can carry tooltips.
    @discardableResult
    public func addRegion(_ rect: Rect) -> View {
        let region = View(frame: rect)
        rootView.addSubview(region)
        return region
    }

    /// Stops watching the window: its tooltips hide, and its event mask goes back to what the
    /// host had selected.
    public func detach() {
        close()
    }

    private func attach(_ xid: UInt) {
        guard let application else { return }
        // One round trip, at attach time: the window's size, place, and the mask its owner chose.
        guard let (native, state) = NativeWindow.watch(xid, on: application.connection, events: events) else {
            if application.connection.isUsable { Log.warning("ForeignWindow: no window 0x\(String(xid, radix: 16))") }
            return
        }
        self.native = native
        size = state.size
        application.register(self, for: xid)
        screenOrigin = state.origin
        isMapped = state.isViewable
        // Its parent may be any window: only synthetic configures (and the pointer) say where
        // it is on the screen.
        parentIsRootWindow = false
    }

    override var events: WindowEvents {
        [
            .structure, .keyPress, .buttonPress, .buttonRelease, .pointerMotion, .pointerEnter, .pointerLeave,
            .focusChange,
        ]
    }

    override var isTopLevel: Bool { false }
    override var drawsContent: Bool { false }

    /// A foreign window is never created by X11UI.
    override func makeNativeWindow(on connection: DisplayConnection, frame: Rect) -> NativeWindow? { nil }

    override func handle(_ event: Event) -> Bool {
        switch event {
        case .expose: break  // the host paints
        case .destroy:
            release()
            return false
        default: handleEvent(event)
        }
        // The host's window: its owner still gets every event.
        return false
    }

    /// Lets go of the window: its owner's event mask comes back; X11UI never destroys it.
    public override func close() {
        release()
    }

    private func release() {
        guard let application, let native else { return }
        deliverWindowDeactivated(pointerLeft: true)
        native.destroy()
        application.unregister(window: native.id)
        self.native = nil
        isMapped = false
    }
}
