import CX11
import Foundation

/// A desktop settings manager for tests, as GNOME's, Xfce's or `xsettingsd` is one: on a
/// connection of its own it owns `_XSETTINGS_S<screen>` with a window of its own, keeps its
/// settings in that window's `_XSETTINGS_SETTINGS` property in the real format, and announces
/// itself with the `MANAGER` client message on the root window, so a program already running
/// follows it.
///
/// ```swift
/// let manager = try XSettingsManager(display: server.display, settings: ["Xft/DPI": 192 * 1024])
/// manager.update(["Net/DoubleClickTime": 1000, "Gtk/CursorThemeName": "Adwaita"])  // live
/// manager.writeRaw([0xff, 0, 0])       // a malformed property
/// manager.stop()                        // the manager dies: its window is destroyed
/// let next = try XSettingsManager(display: server.display, settings: ["Xft/DPI": 144 * 1024])
/// ```
///
/// Every change reaches the server before the call returns (an `XSync`); the program then
/// hears of it (PropertyNotify, DestroyNotify or the `MANAGER` message) and a test waits on a
/// condition for it to follow.
public final class XSettingsManager: @unchecked Sendable {
    /// A setting's value: an integer, a string or a colour (`Xft/DPI` is an integer of 1024ths
    /// of a dot per inch).
    public enum Value: Equatable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
        case integer(Int32)
        case string(String)
        case color(red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16)

        public init(integerLiteral value: Int32) { self = .integer(value) }
        public init(stringLiteral value: String) { self = .string(value) }
    }

    /// The order of the bytes in the property.
    public enum ByteOrder: Sendable {
        case leastSignificantFirst
        case mostSignificantFirst
    }

    /// The manager's window, which owns the selection.
    public let window: UInt
    /// The settings last written (not after `writeRaw`).
    public private(set) var settings: [String: Value]
    /// The serial last written; each change increases it.
    public private(set) var serial: UInt32 = 0
    /// The byte order of the writes.
    public var byteOrder: ByteOrder

    private let display: OpaquePointer
    private let selection: UInt
    private let property: UInt
    private var stopped = false

    /// Becomes the manager of `screen` on `display`: writes `settings`, takes the selection and
    /// announces it. Throws when the display cannot be opened.
    public init(
        display name: String, screen: Int = 0, settings: [String: Value] = [:],
        byteOrder: ByteOrder = .leastSignificantFirst
    ) throws {
        XlibThreads.enable()
        guard let display = XOpenDisplay(name) else {
            throw XvfbServer.StartError(description: "the settings manager cannot open \(name)")
        }
        TestDisplays.watch(display)
        self.display = display
        self.settings = settings
        self.byteOrder = byteOrder
        let root = XRootWindow(display, Int32(screen))
        selection = XInternAtom(display, "_XSETTINGS_S\(screen)", 0)
        property = XInternAtom(display, "_XSETTINGS_SETTINGS", 0)
        window = XCreateSimpleWindow(display, root, -1, -1, 1, 1, 0, 0, 0)
        // A timestamp for the selection, as the ICCCM asks of managers: a property change's.
        XSelectInput(display, window, PropertyChangeMask)
        write(Self.encode(settings, serial: serial, byteOrder: byteOrder))
        var event = XEvent()
        XWindowEvent(display, window, PropertyChangeMask, &event)
        let time = event.xproperty.time
        XSetSelectionOwner(display, selection, window, time)
        var announcement = XEvent()
        announcement.xclient.type = ClientMessage
        announcement.xclient.window = root
        announcement.xclient.message_type = XInternAtom(display, "MANAGER", 0)
        announcement.xclient.format = 32
        announcement.xclient.data.l = (Int(time), Int(selection), Int(window), 0, 0)
        XSendEvent(display, root, 0, StructureNotifyMask, &announcement)
        XSync(display, 0)
    }

    deinit { stop() }

    /// Replaces every setting (a new serial).
    public func set(_ settings: [String: Value]) {
        self.settings = settings
        serial &+= 1
        write(Self.encode(settings, serial: serial, byteOrder: byteOrder))
    }

    /// Changes some settings and keeps the others; nil removes one.
    public func update(_ changes: [String: Value?]) {
        var next = settings
        for (name, value) in changes { next[name] = value }
        set(next)
    }

    /// Writes any bytes as the property, with any type and format: for malformed and hostile
    /// properties.
    public func writeRaw(_ bytes: [UInt8], type: String = "_XSETTINGS_SETTINGS", format: Int32 = 8) {
        guard !stopped else { return }
        let typeAtom = XInternAtom(display, type, 0)
        if format == 8 {
            XChangeProperty(display, window, property, typeAtom, 8, PropModeReplace, bytes, Int32(bytes.count))
        } else {
            // Format 16 and 32 data is given to Xlib as C shorts and longs.
            let longs = bytes.map { Int($0) }
            let shorts = bytes.map { Int16($0) }
            if format == 32 {
                longs.withUnsafeBytes {
                    _ = XChangeProperty(
                        display, window, property, typeAtom, 32, PropModeReplace,
                        $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(longs.count))
                }
            } else {
                shorts.withUnsafeBytes {
                    _ = XChangeProperty(
                        display, window, property, typeAtom, 16, PropModeReplace,
                        $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(shorts.count))
                }
            }
        }
        XSync(display, 0)
    }

    /// Removes the property (a manager with no settings).
    public func deleteProperty() {
        guard !stopped else { return }
        XDeleteProperty(display, window, property)
        XSync(display, 0)
    }

    /// The manager dies: its window is destroyed (the selection then has no owner) and its
    /// connection closes. A new manager is a new `XSettingsManager`.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        // A display whose server is gone is left allocated, as `ServerProbe` leaves one.
        var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        let dead =
            poll(&descriptor, 1, 0) > 0
            && (descriptor.revents & Int16(POLLHUP | POLLERR) != 0
                || recv(XConnectionNumber(display), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0)
        if !dead {
            XDestroyWindow(display, window)
            XSync(display, 0)
            XCloseDisplay(display)
        }
        TestDisplays.unwatch(display)
    }

    private func write(_ bytes: [UInt8]) {
        guard !stopped else { return }
        XChangeProperty(display, window, property, property, 8, PropModeReplace, bytes, Int32(bytes.count))
        XSync(display, 0)
    }

    // MARK: - The format

    /// The bytes of a `_XSETTINGS_SETTINGS` property holding `settings` (in the order of their
    /// names), as the XSETTINGS specification lays them out.
    public static func encode(
        _ settings: [String: Value], serial: UInt32 = 0, byteOrder: ByteOrder = .leastSignificantFirst
    ) -> [UInt8] {
        var out: [UInt8] = []
        let big = byteOrder == .mostSignificantFirst
        func card16(_ value: UInt16) {
            out += big ? [UInt8(value >> 8), UInt8(value & 0xff)] : [UInt8(value & 0xff), UInt8(value >> 8)]
        }
        func card32(_ value: UInt32) {
            let bytes = (0..<4).map { UInt8((value >> (8 * UInt32($0))) & 0xff) }
            out += big ? bytes.reversed() : bytes
        }
        func padded(_ bytes: [UInt8]) { out += bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4) }
        out += [big ? 1 : 0, 0, 0, 0]
        card32(serial)
        card32(UInt32(settings.count))
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
            let type: UInt8
            switch value {
            case .integer: type = 0
            case .string: type = 1
            case .color: type = 2
            }
            out += [type, 0]
            card16(UInt16(name.utf8.count))
            padded(Array(name.utf8))
            card32(serial)
            switch value {
            case .integer(let number): card32(UInt32(bitPattern: number))
            case .string(let text):
                card32(UInt32(text.utf8.count))
                padded(Array(text.utf8))
            case .color(let red, let green, let blue, let alpha):
                for channel in [red, green, blue, alpha] { card16(channel) }
            }
        }
        return out
    }
}
