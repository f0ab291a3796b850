internal import CX11

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
    /// A 32-bit visual with alpha and its colormap, for translucent popups under a compositor.
    struct ARGBVisual {
        var visual: UnsafeMutablePointer<Visual>
        var colormap: UInt
    }

    var argb: ARGBVisual?

    /// Creates a popup; it appears on `show()`.
    public init(application: Application? = nil) {
        super.init(kind: .popup, application: application)
        backgroundColor = .white
    }

    /// Creates a popup that can be translucent, when `translucent` and the server has a 32-bit
    /// visual with alpha (only useful while a compositor runs).
    init(application: Application, translucent: Bool) {
        super.init(kind: .popup, application: application)
        rootView.backgroundColor = nil
        if translucent { argb = Self.findARGBVisual(application.connection) }
    }

    /// Whether the popup has an alpha channel.
    var isTranslucent: Bool { argb != nil }

    override func visualConfiguration(
        _ connection: DisplayConnection
    ) -> (visual: UnsafeMutablePointer<Visual>, depth: Int32, colormap: UInt) {
        if let argb { return (argb.visual, 32, argb.colormap) }
        return super.visualConfiguration(connection)
    }

    /// Finds a depth-32 TrueColor visual whose Render format has alpha; makes its colormap.
    /// (The visual list came with the connection; the format query is cached by Xrender.)
    private static func findARGBVisual(_ connection: DisplayConnection) -> ARGBVisual? {
        var info = XVisualInfo()
        guard XMatchVisualInfo(connection.display, connection.screen, 32, TrueColor, &info) != 0,
            let visual = info.visual, let format = XRenderFindVisualFormat(connection.display, visual),
            format.pointee.type == PictTypeDirect, format.pointee.direct.alphaMask != 0
        else { return nil }
        let colormap = XCreateColormap(connection.display, connection.root, visual, AllocNone)
        return ARGBVisual(visual: visual, colormap: colormap)
    }

    /// Moves and resizes the popup in one request, and raises it.
    public override func setFrame(_ frame: Rect) {
        let rect = frame.validated.integral
        let newSize = Self.windowSize(rect.size, scale: 1)
        screenOrigin = rect.origin
        requestedPosition = rect.origin
        if newSize != size { setSizeWithoutRequest(newSize) }
        guard let application, windowID != 0, application.connection.isUsable else { return }
        var changes = XWindowChanges()
        changes.x = Int32(rect.minX)
        changes.y = Int32(rect.minY)
        changes.width = Int32(newSize.width)
        changes.height = Int32(newSize.height)
        changes.stack_mode = Above
        XConfigureWindow(
            application.connection.display, windowID, UInt32(CWX | CWY | CWWidth | CWHeight | CWStackMode), &changes)
    }

    isolated deinit {
        if let argb, let application, application.connection.isUsable {
            XFreeColormap(application.connection.display, argb.colormap)
        }
    }
}
