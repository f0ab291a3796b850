internal import CX11

/// What a desktop reads from a top-level window beyond its title: its icon, the launch it
/// completes, when the user last used it, and the window manager's protocols.
extension Window {
    // MARK: - Properties

    /// Writes the desktop's properties of a new top-level window, before its first map:
    /// `_NET_WM_ICON`, and `_NET_STARTUP_ID` and `_NET_WM_USER_TIME` when they are known.
    func writeDesktopProperties(_ connection: DisplayConnection) {
        guard let application else { return }
        writeIcon()
        let atoms = connection.atoms
        if let startup = application.desktop.startup {
            connection.setUTF8Property(windowID, atoms.netStartupID, startup.id)
        }
        if let time = application.initialUserTime {
            connection.setLongProperty(windowID, atoms.netWMUserTime, type: atoms.cardinal, [Int(time)])
        }
    }

    /// Writes `icon` as `_NET_WM_ICON` (deletes the property when there is no icon).
    func writeIcon() {
        guard case .topLevel = kind, let connection = application?.connection, connection.isUsable, windowID != 0
        else { return }
        var data: [Int] = []
        var sizes: [Size] = []
        for image in icon where !sizes.contains(image.size) {
            guard let entry = image.windowIconData else {
                Log.warning(
                    "window icon of \(Int(image.size.width))×\(Int(image.size.height)) pixels skipped: "
                        + "larger than \(Image.largestWindowIconSide)")
                continue
            }
            sizes.append(image.size)
            data += entry
        }
        if data.isEmpty {
            XDeleteProperty(connection.display, windowID, connection.atoms.netWMIcon)
        } else {
            connection.setLongProperty(windowID, connection.atoms.netWMIcon, type: connection.atoms.cardinal, data)
        }
    }

    /// Writes WM_CLASS (instance and class names).
    func writeWindowClass() {
        guard case .topLevel = kind, let connection = application?.connection, windowID != 0 else { return }
        connection.setStringProperty(windowID, connection.atoms.wmClass, [windowClass.instance, windowClass.className])
    }

    /// The WM_CLASS instance name X11UI gives windows: `RESOURCE_NAME` when set (as ICCCM
    /// asks), else the name the program was started as.
    static var defaultInstanceName: String {
        if let name = Environment.value("RESOURCE_NAME"), !name.isEmpty { return name }
        return programName
    }

    // MARK: - Window manager protocols

    /// Handles a `WM_PROTOCOLS` message: `WM_DELETE_WINDOW` closes the window,
    /// `_NET_WM_PING` is answered at once (the window manager takes a window that does not
    /// answer for a hung program and offers to end it).
    func handleWindowManagerProtocol(_ data: [Int]) {
        guard let connection = application?.connection, let first = data.first else { return }
        let name = UInt(bitPattern: first)
        if name == connection.atoms.wmDeleteWindow {
            close()
        } else if name == connection.atoms.netWMPing {
            // The reply is the message itself, sent to the root window (EWMH).
            connection.sendToRoot(type: connection.atoms.wmProtocols, window: connection.root, data: data)
        }
    }

    // MARK: - User time

    /// Records a key or button press in the window as its `_NET_WM_USER_TIME`, so that window
    /// managers can tell a window the user just used from one that pops up by itself.
    func noteUserInput(at time: UInt) {
        guard let application, time != 0 else { return }
        application.noteUserInput(at: time)
        guard case .topLevel = kind, windowID != 0 else { return }
        let atoms = application.connection.atoms
        application.connection.setLongProperty(windowID, atoms.netWMUserTime, type: atoms.cardinal, [Int(time)])
    }
}
