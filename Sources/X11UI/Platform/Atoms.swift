internal import CX11
internal import CX11Internal
internal import Glibc

/// The atoms X11UI uses, interned when the display opens: their requests are queued without
/// waiting, and the replies come back in the round trip of the RENDER check (`Pending`).
struct Atoms {
    let wmProtocols: UInt
    let wmDeleteWindow: UInt
    let wmTakeFocus: UInt
    let wmName: UInt
    let wmClass: UInt
    let wmTransientFor: UInt
    let netWMName: UInt
    let netWMPid: UInt
    let netWMWindowType: UInt
    let netWMWindowTypeNormal: UInt
    let netWMWindowTypeTooltip: UInt
    let netWMState: UInt
    let utf8String: UInt
    let string: UInt
    let clipboard: UInt
    let primary: UInt
    let targets: UInt
    let text: UInt
    let incr: UInt
    let atom: UInt
    let selectionProperty: UInt
    /// `_NET_WM_CM_S<screen>`: owned by the running compositor, if any.
    let compositorSelection: UInt
    // Desktop integration (Window+Desktop.swift, StartupNotification.swift).
    let netWMPing: UInt
    let netWMIcon: UInt
    let netWMUserTime: UInt
    let netStartupID: UInt
    let netStartupInfoBegin: UInt
    let netStartupInfo: UInt
    let cardinal: UInt
    let window: UInt
    let wmClientMachine: UInt
    // The desktop's settings and work area (XSettings.swift, ScreenInfo.swift).
    /// `_XSETTINGS_S<screen>`: owned by the running settings manager, if any.
    let xsettingsSelection: UInt
    let xsettingsSettings: UInt
    let manager: UInt
    let netWorkArea: UInt
    let netCurrentDesktop: UInt
    /// `_NET_WM_WINDOW_OPACITY`: a fading tooltip's opacity (ToolTipPresenter+Fade.swift).
    let netWMWindowOpacity: UInt
    /// The window manager's frame around a window (Window+Frame.swift).
    let netRequestFrameExtents: UInt
    let netFrameExtents: UInt
    /// The window manager's own window, which bears its name (Application+Compositor.swift).
    let netSupportingWMCheck: UInt

    /// The names interned, in the order of the `next()` calls in `init(_:)`.
    static func names(screen: Int32) -> [String] {
        [
            "WM_PROTOCOLS", "WM_DELETE_WINDOW", "WM_TAKE_FOCUS", "_NET_WM_NAME", "_NET_WM_PID",
            "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NORMAL", "_NET_WM_WINDOW_TYPE_TOOLTIP",
            "_NET_WM_STATE", "UTF8_STRING", "CLIPBOARD", "TARGETS", "TEXT", "INCR",
            "X11UI_SELECTION", "_NET_WM_CM_S\(screen)",
            "_NET_WM_PING", "_NET_WM_ICON", "_NET_WM_USER_TIME", "_NET_STARTUP_ID", "_NET_STARTUP_INFO_BEGIN",
            "_NET_STARTUP_INFO", "_XSETTINGS_S\(screen)", "_XSETTINGS_SETTINGS", "MANAGER", "_NET_WORKAREA",
            "_NET_CURRENT_DESKTOP", "_NET_WM_WINDOW_OPACITY", "_NET_REQUEST_FRAME_EXTENTS", "_NET_FRAME_EXTENTS",
            "_NET_SUPPORTING_WM_CHECK",
        ]
    }

    /// The atoms' InternAtom requests, queued in Xlib's output buffer without waiting for the
    /// replies (`cx11_atoms_send`): a request made through Xlib next (the RENDER check at
    /// connect) goes out with them and waits behind them, and its one round trip brings all
    /// the replies, which an asynchronous reply handler reads meanwhile.
    struct Pending {
        fileprivate let names: [String]
        fileprivate let state: OpaquePointer?

        /// Queues the requests (the next request that waits, or a flush, sends them).
        init(display: OpaquePointer, screen: Int32) {
            names = Atoms.names(screen: screen)
            var cStrings = names.map { UnsafePointer(strdup($0)) }
            defer { cStrings.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
            state = cStrings.withUnsafeMutableBufferPointer {
                cx11_atoms_send(display, $0.baseAddress, Int32($0.count))
            }
        }

        /// Reads the replies (waiting for any still missing); an atom whose request failed is
        /// None (0), with a warning (the error itself went to the error handler).
        func collect() -> [UInt] {
            var values = [UInt](repeating: 0, count: names.count)
            guard let state else {
                Log.warning("could not intern X11UI's atoms (out of memory)")
                return values
            }
            _ = cx11_atoms_collect(state, &values)
            for (name, value) in zip(names, values) where value == 0 {
                Log.warning("could not intern the atom \(name)")
            }
            return values
        }

        /// Reads and drops the replies (a display about to be closed).
        func discard() {
            if let state {
                var values = [UInt](repeating: 0, count: names.count)
                _ = cx11_atoms_collect(state, &values)
            }
        }
    }

    /// Interns the atoms in one round trip.
    init(display: OpaquePointer, screen: Int32) {
        self.init(Pending(display: display, screen: screen))
    }

    /// The atoms whose requests were sent earlier, from their replies.
    init(_ pending: Pending) {
        let values = pending.collect()
        var index = 0
        func next() -> UInt {
            defer { index += 1 }
            return values[index]
        }
        wmProtocols = next()
        wmDeleteWindow = next()
        wmTakeFocus = next()
        netWMName = next()
        netWMPid = next()
        netWMWindowType = next()
        netWMWindowTypeNormal = next()
        netWMWindowTypeTooltip = next()
        netWMState = next()
        utf8String = next()
        clipboard = next()
        targets = next()
        text = next()
        incr = next()
        selectionProperty = next()
        compositorSelection = next()
        netWMPing = next()
        netWMIcon = next()
        netWMUserTime = next()
        netStartupID = next()
        netStartupInfoBegin = next()
        netStartupInfo = next()
        xsettingsSelection = next()
        xsettingsSettings = next()
        manager = next()
        netWorkArea = next()
        netCurrentDesktop = next()
        netWMWindowOpacity = next()
        netRequestFrameExtents = next()
        netFrameExtents = next()
        netSupportingWMCheck = next()
        // Predefined atoms (X11/Xatom.h) need no round trip.
        wmName = XA_WM_NAME
        wmClass = XA_WM_CLASS
        wmTransientFor = XA_WM_TRANSIENT_FOR
        string = XA_STRING
        primary = XA_PRIMARY
        atom = XA_ATOM
        cardinal = XA_CARDINAL
        window = XA_WINDOW
        wmClientMachine = XA_WM_CLIENT_MACHINE
    }
}

/// The X extensions X11UI uses and their event numbers.
///
/// Asking for them takes round trips (five, and XInput's on a display X11UI opened), so
/// `DisplayConnection` asks on first use: after the first window shows, or when a tooltip
/// needs its monitor or outline before that.
struct Extensions {
    /// Shape: exact tooltip outlines when no compositor runs.
    let hasShape: Bool
    /// RandR ≥ 1.5 monitors; nil when absent (or libXrandr is).
    let randrEventBase: Int32?
    let randrMonitors: Bool
    /// XFixes selection-owner events (compositor start and stop); nil when absent (or
    /// libXfixes is).
    let xfixesEventBase: Int32?
    /// XInput 2.2's major opcode, when the server has XI 2.2 and libXi is there: touch events
    /// are then selected on X11UI's windows (DisplayConnection+Touch.swift). Nil on a host's
    /// display, whose XInput use is the host's.
    let touchOpcode: Int32?

    /// None of them: for a connection that is gone.
    static let none = Extensions()

    private init() {
        hasShape = false
        randrEventBase = nil
        randrMonitors = false
        xfixesEventBase = nil
        touchOpcode = nil
    }

    init(display: OpaquePointer, touch: Bool) {
        var event: Int32 = 0
        var error: Int32 = 0
        hasShape = XShapeQueryExtension(display, &event, &error) != 0
        // libXrandr and libXfixes are opened here, on first use (a missing one leaves its
        // extension absent, with a warning).
        if let randr = ExtensionLibraries.randr?.functions, randr.query_extension(display, &event, &error) != 0 {
            randrEventBase = event
            var major: Int32 = 0
            var minor: Int32 = 0
            _ = randr.query_version(display, &major, &minor)
            randrMonitors = major > 1 || (major == 1 && minor >= 5)
        } else {
            randrEventBase = nil
            randrMonitors = false
        }
        if let xfixes = ExtensionLibraries.xfixes?.functions, xfixes.query_extension(display, &event, &error) != 0 {
            var major: Int32 = 5
            var minor: Int32 = 0
            _ = xfixes.query_version(display, &major, &minor)
            xfixesEventBase = event
        } else {
            xfixesEventBase = nil
        }
        var opcode: Int32 = 0
        if touch, var xi = ExtensionLibraries.xi?.functions, cx11_xi_query(&xi, display, &opcode) != 0 {
            touchOpcode = opcode
        } else {
            touchOpcode = nil
        }
    }
}
