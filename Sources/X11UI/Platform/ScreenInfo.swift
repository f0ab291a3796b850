internal import CX11

/// The monitors of the screen and whether a compositor runs, kept up to date by events so
/// that showing a tooltip never has to ask the server.
///
/// It starts watching (RandR and XFixes, three round trips with the extensions' own) once the
/// first window shows, or when first asked, rather than before the first window maps; their
/// libraries (libXrandr, libXfixes) are opened then too. Without libXrandr the screen is the
/// one monitor.
@MainActor
final class ScreenInfo {
    private let connection: DisplayConnection
    private var cachedMonitors: [Rect]?
    private var composited = false
    private(set) var isWatching = false
    /// Called when compositing starts or stops.
    var onCompositingChange: (() -> Void)?

    init(connection: DisplayConnection) {
        self.connection = connection
    }

    /// Whether a compositing manager owns `_NET_WM_CM_S<screen>`.
    var isComposited: Bool {
        startWatching()
        return composited
    }

    /// Selects the events that keep the compositor's presence and the monitors current, then
    /// reads the compositor's presence.
    ///
    /// In that order: the selection's owner is read after the server has the request for its
    /// changes, so a compositor that starts at the same moment as the program (a session
    /// starting) is either in the answer or in an event. Read first, a compositor that took
    /// the selection between the answer and the request was in neither, and every tooltip of
    /// the program was made for a screen without one.
    func startWatching() {
        guard !isWatching, connection.isUsable else { return }
        isWatching = true
        let display = connection.display
        if connection.extensions.randrEventBase != nil, let randr = ExtensionLibraries.randr?.functions {
            randr.select_input(
                display, connection.root,
                Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
        }
        if connection.extensions.xfixesEventBase != nil, let xfixes = ExtensionLibraries.xfixes?.functions {
            xfixes.select_selection_input(
                display, connection.root, connection.atoms.compositorSelection,
                UInt(
                    XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask
                        | XFixesSelectionClientCloseNotifyMask))
        }
        composited = XGetSelectionOwner(display, connection.atoms.compositorSelection) != 0
    }

    /// The screen's size.
    var screenRect: Rect {
        Rect(
            x: 0, y: 0, width: Double(XDisplayWidth(connection.display, connection.screen)),
            height: Double(XDisplayHeight(connection.display, connection.screen)))
    }

    /// Monitors set by the program instead of RandR's.
    var override: [Rect]? {
        didSet { cachedMonitors = nil }
    }

    /// The monitors (RandR 1.5), or the whole screen when RandR (or libXrandr) reports none.
    var monitors: [Rect] {
        if let override, !override.isEmpty { return override }
        startWatching()
        if let cachedMonitors { return cachedMonitors }
        var result: [Rect] = []
        if connection.extensions.randrMonitors, connection.isUsable, let randr = ExtensionLibraries.randr?.functions {
            var count: Int32 = 0
            if let list = randr.get_monitors(connection.display, connection.root, 1, &count) {
                for i in 0..<Int(count) {
                    let m = list[i]
                    let rect = Rect(x: Double(m.x), y: Double(m.y), width: Double(m.width), height: Double(m.height))
                    if !rect.isEmpty { result.append(rect) }
                }
                randr.free_monitors(list)
            }
        }
        if result.isEmpty { result = [screenRect] }
        cachedMonitors = result
        return result
    }

    /// The room a new top-level window of `frame` (its requested place and size) has: the work
    /// area of the current desktop (`_NET_WORKAREA`, the screen less the panels a window manager
    /// keeps clear) within the monitor it opens on (the one holding its top-left corner, else
    /// the one it overlaps most). Nil when the window fits its monitor, which asks the server
    /// nothing. Until the monitors are known (RandR is asked once the first window is on screen:
    /// asked before, it would delay that window's map by its round trips) the screen stands for
    /// the monitor.
    func room(for frame: Rect) -> Rect? {
        let all = override.flatMap { $0.isEmpty ? nil : $0 } ?? cachedMonitors ?? [screenRect]
        func overlap(_ a: Rect, _ b: Rect) -> Double {
            let common = a.intersection(b)
            return common.isEmpty ? 0 : common.width * common.height
        }
        let monitor =
            all.first { $0.contains(frame.origin) }
            ?? all.max { overlap($0, frame) < overlap($1, frame) } ?? screenRect
        guard frame.width > monitor.width || frame.height > monitor.height else { return nil }
        guard let work = workArea else { return monitor }
        let room = work.intersection(monitor)
        return room.isEmpty ? monitor : room
    }

    /// The window manager's work area of the current desktop (two round trips; nil without one).
    var workArea: Rect? {
        guard connection.isUsable,
            let values = connection.property(connection.root, connection.atoms.netWorkArea)?.items
        else { return nil }
        var desktop = connection.property(connection.root, connection.atoms.netCurrentDesktop)?.items.first ?? 0
        if desktop < 0 || 4 * (desktop + 1) > values.count { desktop = 0 }
        guard values.count >= 4 * (desktop + 1) else { return nil }
        let v = values[(4 * desktop)..<(4 * desktop + 4)].map { Double(Int32(truncatingIfNeeded: $0)) }
        let rect = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        return rect.isEmpty || rect.width < 1 || rect.height < 1 ? nil : rect
    }

    /// Forgets the monitors (RandR said they changed); read again on next use.
    func invalidateMonitors() { cachedMonitors = nil }

    /// The owner of the compositor selection changed.
    func compositorChanged(owner: UInt) {
        let now = owner != 0
        guard isWatching, now != composited else { return }
        composited = now
        onCompositingChange?()
    }
}
