internal import CX11
internal import Glibc

/// The kinds of event a window asks the server for; each stands for one X event mask bit.
struct WindowEvents: OptionSet, Sendable {
    let rawValue: Int

    static let exposure = WindowEvents(rawValue: 1 << 0)
    /// Map, unmap, configure, reparent and destroy.
    static let structure = WindowEvents(rawValue: 1 << 1)
    static let keyPress = WindowEvents(rawValue: 1 << 2)
    static let keyRelease = WindowEvents(rawValue: 1 << 3)
    static let buttonPress = WindowEvents(rawValue: 1 << 4)
    static let buttonRelease = WindowEvents(rawValue: 1 << 5)
    static let pointerMotion = WindowEvents(rawValue: 1 << 6)
    static let pointerEnter = WindowEvents(rawValue: 1 << 7)
    static let pointerLeave = WindowEvents(rawValue: 1 << 8)
    static let focusChange = WindowEvents(rawValue: 1 << 9)
    static let propertyChange = WindowEvents(rawValue: 1 << 10)
    /// XInput 2.2 touch events, when the server has them (no core event mask bit: see
    /// DisplayConnection+Touch.swift).
    static let touch = WindowEvents(rawValue: 1 << 11)

    /// The X event mask for these kinds.
    var xMask: Int {
        let bits: [(WindowEvents, Int)] = [
            (.exposure, ExposureMask), (.structure, StructureNotifyMask), (.keyPress, KeyPressMask),
            (.keyRelease, KeyReleaseMask), (.buttonPress, ButtonPressMask), (.buttonRelease, ButtonReleaseMask),
            (.pointerMotion, PointerMotionMask), (.pointerEnter, EnterWindowMask), (.pointerLeave, LeaveWindowMask),
            (.focusChange, FocusChangeMask), (.propertyChange, PropertyChangeMask),
        ]
        return bits.reduce(0) { mask, bit in contains(bit.0) ? mask | bit.1 : mask }
    }
}

/// One X window: the only place above the connection where windows are created, mapped,
/// configured, given properties and destroyed.
///
/// A window X11UI created is destroyed by its `NativeWindow`, once. A foreign window (another
/// part of the program created it) is only watched: `destroy()` gives it back the event mask
/// its owner had selected and leaves it alone.
@MainActor
final class NativeWindow {
    /// How a window X11UI creates looks to the server and the window manager.
    struct Options {
        /// The window manager leaves it alone (tooltips, menus).
        var overrideRedirect = false
        /// The server may keep what it covers (popups that come and go).
        var saveUnder = false
        /// A 32-bit visual with alpha when the server has one (for a compositor).
        var translucent = false
        /// A background pixel the server fills the window with (when mapped, uncovered or
        /// grown) before X11UI paints; nil for none (a popup's back buffer becomes its
        /// background instead).
        var backgroundPixel: UInt?
    }

    /// The window's X id.
    let id: UInt
    let connection: DisplayConnection
    /// Whether X11UI created the window (and so destroys it).
    let isOwned: Bool
    /// Whether the window has an alpha channel.
    let isTranslucent: Bool
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let colormap: UInt
    /// The mask a foreign window's owner had selected, restored when X11UI lets go.
    private let ownerEvents: Int
    private(set) var isDestroyed = false

    private init(
        id: UInt, connection: DisplayConnection, isOwned: Bool, visual: UnsafeMutablePointer<Visual>, depth: Int32,
        colormap: UInt, isTranslucent: Bool, ownerEvents: Int
    ) {
        self.id = id
        self.connection = connection
        self.isOwned = isOwned
        self.visual = visual
        self.depth = depth
        self.colormap = colormap
        self.isTranslucent = isTranslucent
        self.ownerEvents = ownerEvents
        connection.adopt(id)
    }

    /// Creates a window, unmapped; nil when the connection is gone.
    ///
    /// - Parameters:
    ///   - parent: the parent window; nil is the root window.
    ///   - frame: the position in the parent and the size (at least 1 pixel a side).
    static func create(
        on connection: DisplayConnection, parent: UInt? = nil, frame: Rect, events: WindowEvents,
        options: Options = Options()
    ) -> NativeWindow? {
        guard connection.isUsable else { return nil }
        let argb = options.translucent ? findARGBVisual(connection) : nil
        var attributes = XSetWindowAttributes()
        // A top-level window's colour, or none until the back buffer is made and becomes the
        // background (`setBackground`).
        attributes.background_pixmap = 0
        attributes.background_pixel = options.backgroundPixel ?? 0
        // A window of another depth than its parent's needs its own border pixel and colormap.
        attributes.border_pixel = 0
        attributes.colormap = argb?.colormap ?? connection.colormap
        attributes.bit_gravity = NorthWestGravity
        attributes.event_mask = events.xMask
        var mask = UInt(CWBorderPixel | CWColormap | CWBitGravity | CWEventMask)
        mask |= UInt(options.backgroundPixel == nil ? CWBackPixmap : CWBackPixel)
        if options.overrideRedirect {
            attributes.override_redirect = 1
            mask |= UInt(CWOverrideRedirect)
        }
        if options.saveUnder {
            attributes.save_under = 1
            mask |= UInt(CWSaveUnder)
        }
        let visual = argb?.visual ?? connection.visual
        let depth = argb == nil ? connection.depth : 32
        let id = XCreateWindow(
            connection.display, parent ?? connection.root, Int32(frame.minX), Int32(frame.minY),
            UInt32(max(1, frame.width)), UInt32(max(1, frame.height)), 0, depth, UInt32(InputOutput), visual, mask,
            &attributes)
        if events.contains(.touch) { connection.selectTouch(on: id) }
        return NativeWindow(
            id: id, connection: connection, isOwned: true, visual: visual, depth: depth,
            colormap: argb?.colormap ?? connection.colormap, isTranslucent: argb != nil, ownerEvents: 0)
    }

    /// What X11UI learns of a foreign window when it starts watching it.
    struct ForeignState {
        var size: Size
        var isViewable: Bool
        var origin: Point?
    }

    /// Starts watching a window X11UI did not create: adds `events` to the mask its owner
    /// selected (keeping every bit of the owner's). One round trip for its attributes; nil
    /// when there is no such window.
    static func watch(
        _ id: UInt, on connection: DisplayConnection, events: WindowEvents
    ) -> (window: NativeWindow, state: ForeignState)? {
        guard connection.isUsable else { return nil }
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(connection.display, id, &attributes) != 0 else { return nil }
        let ownerEvents = attributes.your_event_mask
        XSelectInput(connection.display, id, ownerEvents | events.xMask)
        let window = NativeWindow(
            id: id, connection: connection, isOwned: false, visual: connection.visual, depth: connection.depth,
            colormap: connection.colormap, isTranslucent: false, ownerEvents: ownerEvents)
        let state = ForeignState(
            size: Size(width: Double(attributes.width), height: Double(attributes.height)),
            isViewable: attributes.map_state == IsViewable, origin: window.originOnRoot())
        return (window, state)
    }

    /// Destroys the window X11UI created (once), or gives a foreign window back to its owner.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        if connection.isUsable {
            if isOwned {
                XDestroyWindow(connection.display, id)
                if isTranslucent { XFreeColormap(connection.display, colormap) }
            } else {
                XSelectInput(connection.display, id, ownerEvents)
            }
        }
        connection.release(id)
        connection.touchWindowsWaiting.remove(id)
    }

    private var isLive: Bool { !isDestroyed && connection.isUsable }

    // MARK: - Mapping and configuring

    func map() {
        guard isLive else { return }
        XMapWindow(connection.display, id)
    }

    /// Maps the window on top of its siblings.
    func mapRaised() {
        guard isLive else { return }
        XMapRaised(connection.display, id)
    }

    func unmap() {
        guard isLive else { return }
        XUnmapWindow(connection.display, id)
    }

    func move(to origin: Point) {
        guard isLive else { return }
        XMoveWindow(connection.display, id, Int32(origin.x), Int32(origin.y))
    }

    func resize(to size: Size) {
        guard isLive else { return }
        XResizeWindow(connection.display, id, UInt32(max(1, size.width)), UInt32(max(1, size.height)))
    }

    /// Moves and resizes in one request; `raise` also puts the window on top of its siblings.
    func setFrame(_ frame: Rect, raise: Bool = false) {
        guard isLive else { return }
        let width = UInt32(max(1, frame.width))
        let height = UInt32(max(1, frame.height))
        guard raise else {
            XMoveResizeWindow(connection.display, id, Int32(frame.minX), Int32(frame.minY), width, height)
            return
        }
        var changes = XWindowChanges()
        changes.x = Int32(frame.minX)
        changes.y = Int32(frame.minY)
        changes.width = Int32(width)
        changes.height = Int32(height)
        changes.stack_mode = Above
        XConfigureWindow(connection.display, id, UInt32(CWX | CWY | CWWidth | CWHeight | CWStackMode), &changes)
    }

    /// Shows `cursor` over the window (an X cursor the application made); 0 shows its
    /// parent's.
    func defineCursor(_ cursor: UInt) {
        guard isLive else { return }
        XDefineCursor(connection.display, id, cursor)
    }

    /// Where the window's top-left corner is on the screen (a round trip).
    func originOnRoot() -> Point? {
        guard isLive else { return nil }
        var x: Int32 = 0
        var y: Int32 = 0
        var child: UInt = 0
        // False only for windows on different screens, which X11UI never has; x and y stay 0.
        _ = XTranslateCoordinates(connection.display, id, connection.root, 0, 0, &x, &y, &child)
        return Point(x: Double(x), y: Double(y))
    }

    // MARK: - Properties (ICCCM and EWMH)

    /// Sets a UTF-8 text property (`_NET_WM_NAME`), truncated at a character boundary.
    func setUTF8Property(_ property: KeyPath<Atoms, UInt>, _ value: String) {
        guard isLive else { return }
        connection.setUTF8Property(id, connection.atoms[keyPath: property], value)
    }

    /// Sets a Latin-1 STRING property from NUL-separated pieces (WM_CLASS).
    func setStringProperty(_ property: KeyPath<Atoms, UInt>, _ pieces: [String]) {
        guard isLive else { return }
        connection.setStringProperty(id, connection.atoms[keyPath: property], pieces)
    }

    /// Sets a format-32 property of `type` (CARDINAL, ATOM, WINDOW) to `values`.
    func setLongProperty(_ property: KeyPath<Atoms, UInt>, type: KeyPath<Atoms, UInt>, _ values: [Int]) {
        guard isLive else { return }
        let atoms = connection.atoms
        connection.setLongProperty(id, atoms[keyPath: property], type: atoms[keyPath: type], values)
    }

    /// Sets an ATOM property to the atoms named (`_NET_WM_WINDOW_TYPE`).
    func setAtomProperty(_ property: KeyPath<Atoms, UInt>, _ values: [KeyPath<Atoms, UInt>]) {
        let atoms = connection.atoms
        setLongProperty(property, type: \.atom, values.map { Int(atoms[keyPath: $0]) })
    }

    func deleteProperty(_ property: KeyPath<Atoms, UInt>) {
        guard isLive else { return }
        XDeleteProperty(connection.display, id, connection.atoms[keyPath: property])
    }

    /// Sets WM_PROTOCOLS to the protocols named. (Not `XSetWMProtocols`: it interns
    /// WM_PROTOCOLS itself, a round trip when Xlib's atom cache does not hold it, and the atoms
    /// are interned through XCB, which does not fill that cache.)
    func setWMProtocols(_ protocols: [KeyPath<Atoms, UInt>]) {
        setAtomProperty(\.wmProtocols, protocols)
    }

    /// Sets WM_HINTS: the window takes input and starts in the normal (not iconic) state.
    func setNormalWMHints() {
        guard isLive else { return }
        var hints = XWMHints()
        hints.flags = InputHint | StateHint
        hints.input = 1
        hints.initial_state = NormalState
        XSetWMHints(connection.display, id, &hints)
    }

    /// Sets WM_NORMAL_HINTS, with the position the program asked for when there is one.
    func setNormalSizeHints(position: Point?) {
        guard isLive else { return }
        var sizeHints = XSizeHints()
        if let position {
            sizeHints.flags = USPosition | PPosition
            sizeHints.x = Int32(position.x)
            sizeHints.y = Int32(position.y)
        }
        XSetWMNormalHints(connection.display, id, &sizeHints)
    }

    // MARK: - Painting

    /// A back buffer of the window's visual and depth.
    func makeBackBuffer(resources: DrawingResources, width: Int32, height: Int32) -> BackBuffer {
        BackBuffer(
            resources: resources, window: id, visual: visual, depth: depth, colormap: colormap, width: width,
            height: height)
    }

    /// Makes `pixel` the window's background (one request; a foreign window's is left alone).
    /// The server fills areas with it before X11UI paints them.
    func setBackground(pixel: UInt) {
        guard isOwned, isLive else { return }
        XSetWindowBackground(connection.display, id, pixel)
    }

    /// Makes `pixmap` (of the window's depth: a back buffer from `makeBackBuffer`) the window's
    /// background, or none for 0: the server then paints the window from it by itself when the
    /// window is mapped or uncovered, with no request from X11UI. One request. A foreign
    /// window's background is its owner's and is left alone: returns whether it was set.
    ///
    /// The server keeps its own reference to a background pixmap, so freeing the pixmap later
    /// leaves the window's background intact (X11UI still sets a new one first, or the window is
    /// destroyed first: the window never names a freed pixmap).
    @discardableResult
    func setBackground(pixmap: UInt) -> Bool {
        guard isOwned, isLive else { return false }
        XSetWindowBackgroundPixmap(connection.display, id, pixmap)
        return true
    }

    // MARK: - Visuals

    /// Finds a depth-32 TrueColor visual whose Render format has alpha, and makes a colormap for
    /// it (the visual list came with the connection; the format query is cached by Xrender).
    private static func findARGBVisual(
        _ connection: DisplayConnection
    ) -> (visual: UnsafeMutablePointer<Visual>, colormap: UInt)? {
        var info = XVisualInfo()
        guard XMatchVisualInfo(connection.display, connection.screen, 32, TrueColor, &info) != 0,
            let visual = info.visual, let format = XRenderFindVisualFormat(connection.display, visual),
            format.pointee.type == PictTypeDirect, format.pointee.direct.alphaMask != 0
        else { return nil }
        return (visual, XCreateColormap(connection.display, connection.root, visual, AllocNone))
    }
}
