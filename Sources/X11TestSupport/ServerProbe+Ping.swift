import CX11
import Foundation

/// A client's progress, read the way a window manager reads it: `_NET_WM_PING`.
extension ServerProbe {
    /// Sends `_NET_WM_PING` to `window` as a window manager does and waits up to `timeout`
    /// seconds for the client's answer on the root window: once it comes, the client has
    /// handled every event the server sent it before the ping. Nil when the window does not
    /// take the ping (its `WM_PROTOCOLS` do not list it); false when no answer came.
    public func ping(_ window: UInt, timeout: TimeInterval = 5) -> Bool? {
        let ping = atom("_NET_WM_PING")
        let protocols = atom("WM_PROTOCOLS")
        guard longs(window, "WM_PROTOCOLS")?.contains(Int(ping)) == true else { return nil }
        // The answer goes to the clients that select substructure events on the root window.
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, root, &attributes)
        XSelectInput(display, root, attributes.your_event_mask | SubstructureNotifyMask)
        defer {
            XSelectInput(display, root, attributes.your_event_mask)
            XSync(display, 0)
            if attributes.your_event_mask & SubstructureNotifyMask == 0 {
                var event = XEvent()
                while XCheckWindowEvent(display, root, SubstructureNotifyMask, &event) != 0 {}
            }
        }
        let token = Int(serverTime())
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = protocols
        event.xclient.format = 32
        event.xclient.data.l = (Int(ping), token, Int(window), 0, 0)
        XSendEvent(display, window, 0, NoEventMask, &event)
        XFlush(display)
        return wait(timeout: timeout) {
            var answer = XEvent()
            while XCheckTypedWindowEvent(display, root, ClientMessage, &answer) != 0 {
                let message = answer.xclient
                if message.message_type == protocols, UInt(bitPattern: message.data.l.0) == ping,
                    message.data.l.1 == token, UInt(bitPattern: message.data.l.2) == window
                {
                    return true
                }
            }
            return false
        }
    }
}
