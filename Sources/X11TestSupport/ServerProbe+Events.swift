import CX11
import Foundation

/// Watching a window's properties and mapping through events rather than by polling: the
/// server queues every change for the probe, so a test sees each step of a quick sequence (a
/// fade's opacity) however late it looks, on a loaded machine or under a sanitizer.
extension ServerProbe {
    /// One change seen on a watched window, in the server's order.
    public enum WindowChange: Equatable, Sendable {
        /// A property was set (`time`: the server's, in milliseconds).
        case propertySet(atom: UInt, time: UInt)
        /// A property was deleted.
        case propertyDeleted(atom: UInt, time: UInt)
        case mapped
        case unmapped
    }

    /// Asks the server for the property changes and the mapping of `window` from now on.
    public func watchChanges(of window: UInt) {
        XSelectInput(display, window, PropertyChangeMask | StructureNotifyMask)
        XSync(display, 0)
    }

    /// The changes of `window` the server sent since the last call (it must be watched).
    public func changes(of window: UInt) -> [WindowChange] {
        XSync(display, 0)
        var result: [WindowChange] = []
        var event = XEvent()
        while XCheckWindowEvent(display, window, PropertyChangeMask | StructureNotifyMask, &event) != 0 {
            switch event.type {
            case PropertyNotify:
                let property = event.xproperty
                result.append(
                    property.state == PropertyDelete
                        ? .propertyDeleted(atom: property.atom, time: property.time)
                        : .propertySet(atom: property.atom, time: property.time))
            case MapNotify: result.append(.mapped)
            case UnmapNotify: result.append(.unmapped)
            default: break
            }
        }
        return result
    }
}
