import CX11

extension ServerProbe {
    /// Makes a window that says it is the window manager `name`, as one does for
    /// `_NET_SUPPORTING_WM_CHECK` (the root and the window both name the window; the window
    /// bears the name in `_NET_WM_NAME`): a fake manager, for what programs learn of it.
    @discardableResult
    public func pretendWindowManager(named name: String) -> UInt {
        let window = XCreateSimpleWindow(display, root, -10, -10, 1, 1, 0, 0, 0)
        let id = [Int(bitPattern: window)]
        for target in [root, window] {
            _ = id.withUnsafeBytes { raw in
                XChangeProperty(
                    display, target, atom("_NET_SUPPORTING_WM_CHECK"), atom("WINDOW"), 32, PropModeReplace,
                    raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
            }
        }
        let bytes = Array(name.utf8)
        _ = bytes.withUnsafeBufferPointer { buffer in
            XChangeProperty(
                display, window, atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8, PropModeReplace, buffer.baseAddress,
                Int32(bytes.count))
        }
        XSync(display, 0)
        return window
    }
}
