/// A top-level window and the window manager's frame: fitting a large window to the work area
/// counts the frame, which the manager says it adds (`_NET_FRAME_EXTENTS`).
///
/// The extents are asked for before the map (`_NET_REQUEST_FRAME_EXTENTS`, which a manager
/// answers by setting the property on the still unmapped window) and never waited for: the
/// window is fitted with the extents of the last window the manager framed (none for the
/// first), then fitted again when the property arrives or changes (a PropertyNotify). A
/// manager that never answers leaves the window as it was fitted.
extension Window {
    /// The size a new top-level window of `frame` takes: fitted to the room on its monitor
    /// with the frame the manager is expected to add; `frame` itself when it fits.
    func sizeFittingRoom(_ frame: Rect, in application: Application) -> Size {
        let extents = application.lastFrameExtents
        guard let room = application.screen.room(for: extents.around(frame)) else { return frame.size }
        return extents.fitting(frame.size, in: room)
    }

    /// Asks the window manager to set the frame's extents on the window before it maps it.
    func requestFrameExtents() {
        guard isTopLevel, !(self is PopupWindow), let application, let native, native.isOwned else { return }
        let atoms = application.connection.atoms
        application.connection.sendToRoot(type: atoms.netRequestFrameExtents, window: native.id, data: [])
    }

    /// The manager set or changed the frame's extents: a window whose frame now reaches beyond
    /// the room on its monitor is made smaller (as a user would resize it), and the extents
    /// are kept for the next window's first fit.
    func frameExtentsDidChange() {
        guard isTopLevel, let application, let native, native.isOwned, let size else { return }
        let connection = application.connection
        guard let values = connection.property(native.id, connection.atoms.netFrameExtents, maxItems: 4)?.items
        else { return }
        guard let extents = FrameExtents(values: values) else {
            Log.warning("the window manager's frame extents \(values.prefix(4)) are not believable; ignored")
            return
        }
        application.lastFrameExtents = extents
        let frame = Rect(origin: screenOrigin ?? requestedPosition ?? .zero, size: size)
        guard let room = application.screen.room(for: extents.around(frame)) else { return }
        let fitted = extents.fitting(size, in: room)
        guard fitted != size else { return }
        native.resize(to: fitted)
        setSizeWithoutRequest(fitted)
        application.connection.flush()
    }
}
