import CX11
import CXTest
import Foundation

/// A second X connection that looks at the server from outside, as a user or a test tool
/// would: it moves the pointer and clicks with XTest, lists mapped windows, reads properties
/// and pixels.
public final class ServerProbe: @unchecked Sendable {
    public let display: OpaquePointer
    public let root: UInt
    private var atomCache: [String: UInt] = [:]
    /// An unmapped window of the probe's own, for selections (made when first needed).
    private lazy var requestor: UInt = XCreateSimpleWindow(display, root, 0, 0, 1, 1, 0, 0, 0)

    /// A window as the server sees it.
    public struct WindowInfo: Sendable, CustomStringConvertible {
        public var id: UInt
        /// Position on the screen and size.
        public var frame: (x: Int, y: Int, width: Int, height: Int)
        public var isOverrideRedirect: Bool
        public var isMapped: Bool
        public var depth: Int
        public var description: String {
            "0x\(String(id, radix: 16)) \(frame) or=\(isOverrideRedirect) mapped=\(isMapped) depth=\(depth)"
        }
    }

    public init(display name: String) throws {
        guard let display = XOpenDisplay(name) else {
            throw XvfbServer.StartError(description: "cannot open \(name)")
        }
        self.display = display
        root = XDefaultRootWindow(display)
        TestDisplays.watch(display)
    }

    deinit {
        // After its server died, a display is left allocated rather than closed: closing it
        // would skip the extensions' close hooks and leave records that a later connection at
        // the same address would inherit (see DisplayConnection.close in X11UI).
        var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        let dead =
            poll(&descriptor, 1, 0) > 0
            && (descriptor.revents & Int16(POLLHUP | POLLERR) != 0
                || recv(XConnectionNumber(display), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0)
        if !dead { XCloseDisplay(display) }
        TestDisplays.unwatch(display)
    }

    public func atom(_ name: String) -> UInt {
        if let atom = atomCache[name] { return atom }
        let atom = XInternAtom(display, name, 0)
        atomCache[name] = atom
        return atom
    }

    // MARK: - Driving the pointer and keyboard

    /// Moves the pointer to a point on the screen.
    public func movePointer(to x: Int, _ y: Int) {
        XTestFakeMotionEvent(display, -1, Int32(x), Int32(y), 0)
        XFlush(display)
    }

    /// Presses or releases a pointer button (1 primary, 3 secondary, 4/5 wheel).
    public func button(_ number: UInt32, down: Bool) {
        XTestFakeButtonEvent(display, number, down ? 1 : 0, 0)
        XFlush(display)
    }

    /// A click: press and release.
    public func click(_ number: UInt32 = 1) {
        button(number, down: true)
        button(number, down: false)
    }

    /// Presses and releases a key by keysym (`0xff1b` Escape, `0xff09` Tab), with Shift or
    /// Control held when asked. The keysym names the physical key (the first key that has it in
    /// any layout group); what it types depends on the active layout.
    public func key(_ keysym: UInt, shift: Bool = false, control: Bool = false) {
        let held = [(shift, UInt(XK_Shift_L)), (control, UInt(XK_Control_L))].filter(\.0).map {
            UInt32(XKeysymToKeycode(display, $0.1))
        }
        for modifier in held { XTestFakeKeyEvent(display, modifier, 1, 0) }
        let code = XKeysymToKeycode(display, keysym)
        XTestFakeKeyEvent(display, UInt32(code), 1, 0)
        XTestFakeKeyEvent(display, UInt32(code), 0, 0)
        for modifier in held.reversed() { XTestFakeKeyEvent(display, modifier, 0, 0) }
        XFlush(display)
    }

    /// Presses and releases the key of keycode `code` with the keys of `held` (keysyms:
    /// `XK_Control_L`, `XK_Alt_L`) held: a physical key, whatever the layout makes it type.
    public func key(code: UInt32, holding held: [UInt] = []) {
        let modifiers = held.map { UInt32(XKeysymToKeycode(display, KeySym($0))) }
        for modifier in modifiers { XTestFakeKeyEvent(display, modifier, 1, 0) }
        XTestFakeKeyEvent(display, code, 1, 0)
        XTestFakeKeyEvent(display, code, 0, 0)
        for modifier in modifiers.reversed() { XTestFakeKeyEvent(display, modifier, 0, 0) }
        XFlush(display)
    }

    /// The keycode of the key that types `keysym` in the first group of the server's current
    /// keyboard mapping (read anew: a layout set since with `setxkbmap` counts); 0 for none.
    public func keycode(typing keysym: UInt) -> UInt32 {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(display, &minimum, &maximum)
        var perCode: Int32 = 0
        guard let map = XGetKeyboardMapping(display, KeyCode(minimum), maximum - minimum + 1, &perCode) else {
            return 0
        }
        defer { XFree(map) }
        for code in minimum...maximum {
            let base = Int(code - minimum) * Int(perCode)
            for level in 0..<min(2, Int(perCode)) where UInt(map[base + level]) == keysym { return UInt32(code) }
        }
        return 0
    }

    /// Gives the key that now types `keysym` the keysyms of another layout, by groups and
    /// levels as in `xmodmap` (`[Cyrillic_es, Cyrillic_ES, c, C]`: a Russian first group and a
    /// US second), as switching keyboard layouts does; clients get a MappingNotify.
    public func remapKey(_ keysym: UInt, to keysyms: [UInt]) {
        let code = XKeysymToKeycode(display, keysym)
        var current: Int32 = 0
        if let old = XGetKeyboardMapping(display, code, 1, &current) { XFree(old) }
        var symbols = keysyms.map { KeySym($0) } + Array(repeating: 0, count: max(0, Int(current) - keysyms.count))
        XChangeKeyboardMapping(display, Int32(code), Int32(symbols.count), &symbols, 1)
        XSync(display, 0)
    }

    /// Where the pointer is.
    public var pointer: (x: Int, y: Int) {
        var rootReturn: UInt = 0
        var child: UInt = 0
        var rx: Int32 = 0
        var ry: Int32 = 0
        var wx: Int32 = 0
        var wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, root, &rootReturn, &child, &rx, &ry, &wx, &wy, &mask)
        return (Int(rx), Int(ry))
    }

    // MARK: - Windows

    /// The root's children, bottom to top, with their attributes.
    public func topLevelWindows() -> [WindowInfo] {
        var rootReturn: UInt = 0
        var parent: UInt = 0
        var children: UnsafeMutablePointer<UInt>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return (0..<Int(count)).compactMap { info(children[$0]) }
    }

    /// Attributes of one window; nil when it is gone.
    public func info(_ window: UInt) -> WindowInfo? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        var x: Int32 = 0
        var y: Int32 = 0
        var child: UInt = 0
        XTranslateCoordinates(display, window, root, 0, 0, &x, &y, &child)
        return WindowInfo(
            id: window, frame: (Int(x), Int(y), Int(attributes.width), Int(attributes.height)),
            isOverrideRedirect: attributes.override_redirect != 0, isMapped: attributes.map_state == IsViewable,
            depth: Int(attributes.depth))
    }

    /// Mapped override-redirect windows (tooltips, menus), bottom to top.
    public func mappedPopups() -> [WindowInfo] {
        topLevelWindows().filter { $0.isOverrideRedirect && $0.isMapped }
    }

    /// A text property (`_NET_WM_NAME`, `WM_NAME`, `WM_CLASS` with NULs kept).
    public func string(_ window: UInt, _ property: String) -> String? {
        guard let (_, format, bytes) = raw(window, property), format == 8 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A format-32 property as numbers (atoms, windows, cardinals).
    public func longs(_ window: UInt, _ property: String) -> [Int]? {
        guard let (_, format, bytes) = raw(window, property), format == 32 else { return nil }
        return bytes.withUnsafeBytes { Array($0.bindMemory(to: Int.self)) }
    }

    /// An atom's name.
    public func atomName(_ atom: UInt) -> String? {
        guard let name = XGetAtomName(display, atom) else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    private func raw(_ window: UInt, _ property: String) -> (UInt, Int32, [UInt8])? {
        var type: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                display, window, atom(property), 0, 1 << 20, 0, 0 /* AnyPropertyType */, &type, &format, &count,
                &after, &data) == Success, let data, type != 0
        else { return nil }
        defer { XFree(data) }
        let itemSize = format == 32 ? MemoryLayout<Int>.size : Int(format) / 8
        return (type, format, Array(UnsafeBufferPointer(start: data, count: Int(count) * itemSize)))
    }

    /// The name of the window's `_NET_WM_WINDOW_TYPE`.
    public func windowType(_ window: UInt) -> String? {
        longs(window, "_NET_WM_WINDOW_TYPE")?.first.flatMap { atomName(UInt($0)) }
    }

    /// The top-level window whose `_NET_WM_NAME` is `name`.
    public func window(named name: String) -> WindowInfo? {
        topLevelWindows().first { string($0.id, "_NET_WM_NAME") == name }
    }

    /// Destroys a window as another client would (a protocol race for its owner).
    public func destroy(_ window: UInt) {
        XDestroyWindow(display, window)
        XSync(display, 0)
    }

    // MARK: - Pixels

    /// The colour of a pixel of the screen, as 0xRRGGBB.
    public func pixel(_ x: Int, _ y: Int) -> UInt32 {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), 1, 1, UInt(0xffffffff), ZPixmap) else {
            return 0
        }
        defer { _ = image.pointee.f.destroy_image(image) }
        return UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, 0, 0)) & 0xffffff
    }

    /// The colours of the screen's pixels in a rectangle (0xRRGGBB), row by row, read in one
    /// request; empty when the rectangle cannot be read.
    public func pixels(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> [UInt32] {
        guard width > 0, height > 0,
            let image = XGetImage(
                display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), UInt(0xffffffff), ZPixmap)
        else { return [] }
        defer { _ = image.pointee.f.destroy_image(image) }
        var result: [UInt32] = []
        result.reserveCapacity(width * height)
        for row in 0..<height {
            for column in 0..<width {
                result.append(
                    UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, Int32(column), Int32(row))) & 0xffffff)
            }
        }
        return result
    }

    /// Writes a screenshot of the screen (or a part of it) as PNG.
    public func screenshot(to path: String, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) throws {
        let screen = XDefaultScreen(display)
        let w = width ?? Int(XDisplayWidth(display, screen))
        let h = height ?? Int(XDisplayHeight(display, screen))
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(w), UInt32(h), UInt(0xffffffff), ZPixmap)
        else { throw XvfbServer.StartError(description: "XGetImage failed") }
        defer { _ = image.pointee.f.destroy_image(image) }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h))!
        defer { cairo_surface_destroy(surface) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        for row in 0..<h {
            let line = data.advanced(by: row * stride).withMemoryRebound(to: UInt32.self, capacity: w) { $0 }
            for column in 0..<w {
                line[column] =
                    UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, Int32(column), Int32(row))) & 0xffffff
            }
        }
        cairo_surface_mark_dirty(surface)
        guard cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS else {
            throw XvfbServer.StartError(description: "cannot write \(path)")
        }
    }

    // MARK: - Resources (X-Resource extension)

    /// Counts of server resources (windows, pixmaps, GCs, pictures, fonts, …) by type name that
    /// belong to the client owning `window`.
    public func resourceCounts(ofClientOwning window: UInt) -> [String: Int] {
        var count: Int32 = 0
        var types: UnsafeMutablePointer<XResType>?
        // The client's resource-id base is the window id with the low bits cleared.
        let base = window & ~UInt(0x1fffff)
        guard XResQueryClientResources(display, base, &count, &types) != 0, let types else { return [:] }
        defer { XFree(types) }
        var result: [String: Int] = [:]
        for i in 0..<Int(count) {
            let name = atomName(types[i].resource_type) ?? "?"
            result[name] = Int(types[i].count)
        }
        return result
    }

    public func sync() { XSync(display, 0) }

    /// A window of the probe's own whose property changes tell the server's time.
    private lazy var clockWindow: UInt = {
        let window = XCreateSimpleWindow(display, root, 0, 0, 1, 1, 0, 0, 0)
        XSelectInput(display, window, PropertyChangeMask)
        return window
    }()

    /// The X server's current time (milliseconds, as in event timestamps): the time of a
    /// property change on a window of the probe's own, the ICCCM way to ask for it.
    public func serverTime() -> UInt {
        let window = clockWindow
        let name = atom("X11UI_PROBE_TIME")
        var byte: UInt8 = 0
        XChangeProperty(display, window, name, XA_STRING, 8, PropModeAppend, &byte, 0)
        XSync(display, 0)
        var event = XEvent()
        var time: UInt = 0
        while XCheckTypedWindowEvent(display, window, PropertyNotify, &event) != 0 {
            time = max(time, event.xproperty.time)
        }
        return time
    }
}

/// Error handling for the displays tests open themselves (probes, host programs' displays):
/// windows come and go under a probe's feet, so their protocol errors must not end the test run
/// (Xlib's default handler exits), nor must their server going away (a test may kill it on
/// purpose). Errors are counted per display. Errors on other connections go to whoever handled
/// them before (X11UI's handler, in-process), so a test display never takes over an
/// application's errors.
public enum TestDisplays {
    nonisolated(unsafe) static var errors: [OpaquePointer: Int] = [:]
    nonisolated(unsafe) static var previous: XErrorHandler?
    nonisolated(unsafe) static var previousIO: XIOErrorHandler?
    nonisolated(unsafe) static var installed = false
    static let lock = NSLock()

    /// Handles (and counts) the protocol and I/O errors of `display`.
    public static func watch(_ display: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        errors[display] = 0
        XSetIOErrorExitHandler(display, { _, _ in }, nil)
        guard !installed else { return }
        installed = true
        previous = XSetErrorHandler { display, event in
            guard let display, TestDisplays.errors[display] != nil else {
                return TestDisplays.previous?(display, event) ?? 0
            }
            TestDisplays.errors[display, default: 0] += 1
            if let event, event.pointee.error_code != 3 /* BadWindow */ {
                let e = event.pointee
                FileHandle.standardError.write(
                    Data("test display: X error \(e.error_code) on request \(e.request_code).\(e.minor_code)\n".utf8))
            }
            return 0
        }
        previousIO = XSetIOErrorHandler { display in
            guard let display, TestDisplays.errors[display] != nil else {
                return TestDisplays.previousIO?(display) ?? 0
            }
            return 0
        }
    }

    /// The protocol errors received on a watched display so far.
    public static func errorCount(on display: OpaquePointer) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return errors[display] ?? 0
    }

    /// Stops handling a display's errors (after it was closed).
    public static func unwatch(_ display: OpaquePointer) {
        lock.lock()
        defer { lock.unlock() }
        errors[display] = nil
    }
}

extension ServerProbe {
    /// The owner of a selection (0 when none).
    public func selectionOwner(_ name: String) -> UInt {
        XGetSelectionOwner(display, atom(name))
    }

    /// Asks the owner of a selection for its text (as UTF8_STRING), as a pasting program
    /// does; `requestedSelectionText()` reads the answer once the owner has sent it.
    public func requestSelectionText(_ name: String) {
        XDeleteProperty(display, requestor, atom("X11UI_PROBE_PASTE"))
        XConvertSelection(display, atom(name), atom("UTF8_STRING"), atom("X11UI_PROBE_PASTE"), requestor, 0)
        XFlush(display)
    }

    /// The text of the last `requestSelectionText` once its owner has answered; `nil` while it
    /// has not, and `""` when it refused.
    public func requestedSelectionText() -> String? {
        var event = XEvent()
        guard XCheckTypedWindowEvent(display, requestor, SelectionNotify, &event) != 0 else { return nil }
        guard event.xselection.property != 0 else { return "" }
        return string(requestor, "X11UI_PROBE_PASTE") ?? ""
    }

    /// Takes a selection for the probe, as another program copying would.
    public func ownSelection(_ name: String) {
        XSetSelectionOwner(display, atom(name), requestor, 0)
        XSync(display, 0)
    }

    /// Gives up a selection the probe owns, as a program that stops does (a compositor
    /// leaving `_NET_WM_CM_S0`).
    public func releaseSelection(_ name: String) {
        XSetSelectionOwner(display, atom(name), 0, 0)
        XSync(display, 0)
    }

    /// Whether the probe owns a selection (since `ownSelection`, until another program takes it).
    public func ownsSelection(_ name: String) -> Bool {
        XGetSelectionOwner(display, atom(name)) == requestor
    }

    /// Deletes a property of the root window (such as a cache another toolkit keeps there).
    public func deleteRootProperty(_ name: String) {
        XDeleteProperty(display, root, atom(name))
        XSync(display, 0)
    }

    /// Sets a format-32 property of the root window, as a window manager sets `_NET_WORKAREA`.
    public func setRootLongs(_ name: String, type: String = "CARDINAL", _ values: [Int]) {
        _ = values.withUnsafeBytes { raw in
            XChangeProperty(
                display, root, atom(name), atom(type), 32, PropModeReplace,
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
        XSync(display, 0)
    }

    /// Sets the X resources (the RESOURCE_MANAGER property, as `xrdb` does) that programs read
    /// when they connect: `"Xft.dpi:\t192\n"`.
    public func setResources(_ text: String) {
        let bytes = Array(text.utf8)
        XChangeProperty(
            display, root, XA_RESOURCE_MANAGER, XA_STRING, 8, PropModeReplace, bytes, Int32(bytes.count))
        XSync(display, 0)
    }

    /// Whether the window's bounding region is shaped (not a plain rectangle).
    public func isShaped(_ window: UInt) -> Bool {
        var bounding: Int32 = 0
        var clip: Int32 = 0
        var xb: Int32 = 0
        var yb: Int32 = 0
        var wb: UInt32 = 0
        var hb: UInt32 = 0
        var xc: Int32 = 0
        var yc: Int32 = 0
        var wc: UInt32 = 0
        var hc: UInt32 = 0
        XShapeQueryExtents(display, window, &bounding, &xb, &yb, &wb, &hb, &clip, &xc, &yc, &wc, &hc)
        return bounding != 0
    }
}
