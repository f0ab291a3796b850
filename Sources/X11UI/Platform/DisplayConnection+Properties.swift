internal import CX11
internal import Glibc

/// Window properties (ICCCM and EWMH), written without round trips.
extension DisplayConnection {
    /// Sets a UTF-8 text property (`_NET_WM_NAME`), truncated to `limit` bytes at a character
    /// boundary so a megabyte of tooltip text does not become a megabyte of property.
    func setUTF8Property(_ window: UInt, _ property: UInt, _ value: String, limit: Int = 4096) {
        guard isUsable else { return }
        var bytes = Array(value.utf8.prefix(limit))
        if bytes.count == limit {
            // Drop a partial UTF-8 sequence at the end.
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        }
        XChangeProperty(display, window, property, atoms.utf8String, 8, PropModeReplace, bytes, Int32(bytes.count))
    }

    /// Sets a Latin-1 STRING property from pieces separated by NULs (WM_CLASS).
    func setStringProperty(_ window: UInt, _ property: UInt, _ pieces: [String]) {
        guard isUsable else { return }
        var bytes: [UInt8] = []
        for piece in pieces {
            bytes += piece.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") }
            bytes.append(0)
        }
        XChangeProperty(display, window, property, atoms.string, 8, PropModeReplace, bytes, Int32(bytes.count))
    }

    /// Sets a format-32 property; format-32 data is C `long` on the client side.
    func setLongProperty(_ window: UInt, _ property: UInt, type: UInt, _ values: [Int]) {
        guard isUsable else { return }
        _ = values.withUnsafeBytes { raw in
            XChangeProperty(
                display, window, property, type, 32, PropModeReplace,
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
    }

    /// Reads a property (a round trip: for tests and start-up, never on a hot path). Format-32
    /// items come back as C `long`s, 8 bytes each on 64-bit systems; this returns them as
    /// `Int`s, and 8- and 16-bit data as bytes widened to `Int`. At most `maxItems` items.
    func property(_ window: UInt, _ property: UInt, maxItems: Int = 65536) -> (type: UInt, format: Int32, items: [Int])?
    {
        guard isUsable else { return nil }
        var actualType: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, window, property, 0, maxItems, 0, UInt(AnyPropertyType), &actualType, &format, &count, &after,
            &data)
        defer { if let data { XFree(data) } }
        guard status == Success, let data, actualType != 0 else { return nil }
        let n = Int(count)
        var items: [Int] = []
        items.reserveCapacity(n)
        switch format {
        case 8: items = (0..<n).map { Int(data[$0]) }
        case 16: data.withMemoryRebound(to: UInt16.self, capacity: n) { p in items = (0..<n).map { Int(p[$0]) } }
        case 32: data.withMemoryRebound(to: Int.self, capacity: n) { p in items = (0..<n).map { p[$0] } }
        default: return nil
        }
        return (actualType, format, items)
    }

    /// A text property read back as a string (UTF-8 or Latin-1 bytes).
    func stringProperty(_ window: UInt, _ property: UInt) -> String? {
        guard let value = self.property(window, property), value.format == 8 else { return nil }
        return String(decoding: value.items.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
    }

    /// This machine's host name, for WM_CLIENT_MACHINE.
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
