internal import Glibc

/// What a window manager and a desktop read from a top-level window: its title and class, the
/// ICCCM hints and protocols, its icon, the launch it completes, and when the user last used it.
extension Window {
    // MARK: - Properties

    /// Writes the properties of a new top-level window, before its first map.
    func writeTopLevelProperties() {
        guard let native else { return }
        writeTitle()
        writeWindowClass()
        native.setWMProtocols([\.wmDeleteWindow, \.netWMPing])
        native.setLongProperty(\.netWMPid, type: \.cardinal, [Int(getpid())])
        native.setStringProperty(\.wmClientMachine, [DisplayConnection.hostName])
        native.setAtomProperty(\.netWMWindowType, [\.netWMWindowTypeNormal])
        native.setNormalWMHints()
        native.setNormalSizeHints(position: requestedPosition)
        writeDesktopProperties()
    }

    /// Writes the title as `_NET_WM_NAME` (UTF-8) and WM_NAME.
    func writeTitle() {
        native?.setUTF8Property(\.netWMName, title)
        native?.setUTF8Property(\.wmName, title)
    }

    /// Writes the desktop's properties of a new top-level window, before its first map:
    /// `_NET_STARTUP_ID` and `_NET_WM_USER_TIME` when they are known, and `_NET_WM_ICON`.
    ///
    /// The icons of the windows a program opens at start are written once the first window is
    /// painted and on screen (`Application.finishStartupIfReady`): decoding and converting
    /// six PNGs took longer than the rest of the window's set-up, and a window manager shows an
    /// icon that comes a frame late (it watches the property) the same as one set before the map.
    func writeDesktopProperties() {
        guard let application, let native else { return }
        if application.deferredStartupPending, !icon.isEmpty { iconIsPending = true } else { writeIcon() }
        if let startup = application.desktop.startup {
            native.setUTF8Property(\.netStartupID, startup.id)
        }
        if let time = application.initialUserTime {
            native.setLongProperty(\.netWMUserTime, type: \.cardinal, [Int(time)])
        }
    }

    /// Writes `icon` as `_NET_WM_ICON` (deletes the property when there is no icon).
    func writeIcon() {
        guard isTopLevel, let native, native.connection.isUsable else { return }
        iconIsPending = false
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
            native.deleteProperty(\.netWMIcon)
        } else {
            native.setLongProperty(\.netWMIcon, type: \.cardinal, data)
        }
    }

    /// Writes WM_CLASS (instance and class names).
    func writeWindowClass() {
        guard isTopLevel else { return }
        native?.setStringProperty(\.wmClass, [windowClass.instance, windowClass.className])
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
        guard isTopLevel else { return }
        native?.setLongProperty(\.netWMUserTime, type: \.cardinal, [Int(time)])
    }
}
