internal import CX11

/// Client messages to the root window: replies to the window manager and broadcasts to the
/// desktop, sent without round trips.
extension DisplayConnection {
    /// Sends a format-32 client message to the root window, as the window manager expects its
    /// protocol replies (`_NET_WM_PING`): to the clients that select substructure events there.
    ///
    /// - Parameters:
    ///   - type: the message type (`WM_PROTOCOLS`).
    ///   - window: the window the message is about.
    ///   - data: up to five longs.
    func sendToRoot(type: UInt, window: UInt, data: [Int]) {
        guard isUsable else { return }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = type
        event.xclient.format = 32
        let l = data + [Int](repeating: 0, count: max(0, 5 - data.count))
        event.xclient.data.l = (l[0], l[1], l[2], l[3], l[4])
        XSendEvent(display, root, 0, SubstructureNotifyMask | SubstructureRedirectMask, &event)
    }

    /// Broadcasts a startup-notification message (`remove: ID=…`) to the root window, as the
    /// specification asks: in pieces of 20 bytes, the first as `_NET_STARTUP_INFO_BEGIN` and
    /// the rest as `_NET_STARTUP_INFO`, all from one window made for the message (listeners
    /// put the pieces together by window) and destroyed after it.
    func broadcastStartupMessage(_ message: String) {
        guard isUsable else { return }
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        let sender = XCreateWindow(
            display, root, -100, -100, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
        adopt(sender)
        for (index, piece) in StartupNotification.pieces(of: message).enumerated() {
            var event = XEvent()
            event.xclient.type = ClientMessage
            event.xclient.window = sender
            event.xclient.message_type = index == 0 ? atoms.netStartupInfoBegin : atoms.netStartupInfo
            event.xclient.format = 8
            withUnsafeMutableBytes(of: &event.xclient.data) { raw in
                for (offset, byte) in piece.enumerated() { raw[offset] = byte }
            }
            XSendEvent(display, root, 0, PropertyChangeMask, &event)
        }
        XDestroyWindow(display, sender)
        release(sender)
    }
}
