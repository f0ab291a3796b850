internal import CX11

/// A window another part of the program created with plain Xlib, given tooltips by X11UI.
///
/// X11UI draws nothing in it. It adds the input it needs to the window's event mask (keeping
/// every bit the host selected), watches the pointer, and shows the tooltips of the regions
/// you add:
///
/// ```swift
/// let app = Application(display: hostDisplay)
/// let foreign = ForeignWindow(windowID: hostWindow, application: app)
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
    public init(windowID: UInt, application: Application? = nil) {
        super.init(kind: .foreign(windowID), application: application)
        rootView.backgroundColor = nil
        attach(windowID)
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

    private var hostMask = 0

    private func attach(_ xid: UInt) {
        guard let application, application.connection.isUsable else { return }
        let connection = application.connection
        // One round trip, at attach time: the window's size, place, and the mask its owner chose.
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(connection.display, xid, &attributes) != 0 else {
            Log.warning("ForeignWindow: no window 0x\(String(xid, radix: 16))")
            return
        }
        hostMask = attributes.your_event_mask
        XSelectInput(connection.display, xid, hostMask | eventMask)
        adoptForeign(xid, size: Size(width: Double(attributes.width), height: Double(attributes.height)))
        var x: Int32 = 0
        var y: Int32 = 0
        var child: UInt = 0
        XTranslateCoordinates(connection.display, xid, connection.root, 0, 0, &x, &y, &child)
        screenOrigin = Point(x: Double(x), y: Double(y))
        isMapped = attributes.map_state == IsViewable
        // Its parent may be any window: only synthetic configures (and the pointer) say where
        // it is on the screen.
        parentIsRootWindow = false
    }

    override var eventMask: Int {
        StructureNotifyMask | KeyPressMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask
            | EnterWindowMask | LeaveWindowMask | FocusChangeMask
    }

    override func handle(_ event: Event) -> Bool {
        switch event {
        case .expose: break  // the host paints
        case .destroy:
            releaseForeign()
            return false
        default: handleEvent(event)
        }
        // The host's window: its owner still gets every event.
        return false
    }

    override func releaseForeign() {
        if let application, windowID != 0, application.connection.isUsable {
            XSelectInput(application.connection.display, windowID, hostMask)
        }
        super.releaseForeign()
    }
}
