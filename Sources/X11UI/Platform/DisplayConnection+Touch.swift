internal import CX11

/// XInput 2.2 touch events on X11UI's windows.
///
/// A window that selects touch events gets a touch as touch events (begin, update, end)
/// instead of the pointer events the server would otherwise emulate from it: the server hands
/// a touch to the deepest window on its way that selected touch events, and emulates pointer
/// events only for windows where no client did. X11UI's windows therefore turn the touch back
/// into pointer events themselves (Window+Touch.swift), so that a tap still presses and
/// releases a button, and tooltips hear the touch as one.
///
/// Touch events are asked for with the other extensions (after the first window shows): a
/// window made before then selects them at that moment, one made after at its creation. On a
/// server without XI 2.2, without libXi, or on a host program's display (whose XInput use is
/// its own: its version, its event cookies), nothing is selected and a touchscreen reaches
/// X11UI as the pointer the server emulates.
extension DisplayConnection {
    /// Selects touch events on `window` now if the server has them, or once the extensions are
    /// known.
    func selectTouch(on window: UInt) {
        guard isUsable else { return }
        guard let extensions = queriedExtensions else {
            touchWindowsWaiting.insert(window)
            return
        }
        guard extensions.touchOpcode != nil, var xi = ExtensionLibraries.xi?.functions else { return }
        cx11_xi_select_touch(&xi, display, window)
    }

    /// The extensions were just asked for: the windows that waited select touch events now.
    func selectTouchOnWaitingWindows() {
        let waiting = touchWindowsWaiting
        touchWindowsWaiting = []
        for window in waiting.sorted() { selectTouch(on: window) }
    }

    /// Whether X11UI's windows get touch events (XI 2.2 is there and was asked for).
    var selectsTouch: Bool { queriedExtensions?.touchOpcode != nil }
}
