/// The settings an XSETTINGS manager publishes: the bytes of its `_XSETTINGS_SETTINGS` property
/// read into a table of names and values.
///
/// The format (freedesktop.org's XSETTINGS specification): a byte order byte (0 least
/// significant byte first, 1 most), three unused bytes, the serial and the number of settings
/// (CARD32 each), then per setting its type (CARD8: 0 integer, 1 string, 2 colour), an unused
/// byte, the name's length (CARD16), the name padded to 4 bytes, the serial of its last change
/// (CARD32), and the value: an INT32; a CARD32 length and the UTF-8 bytes padded to 4; or four
/// CARD16s.
///
/// The bytes come from another program and are trusted in nothing: every length and count is
/// checked against the bytes left before it is used, the whole is at most ``maximumSize``
/// bytes, and an unknown type ends the parse (its value's length is unknown). What is wrong
/// makes the whole property malformed, with one reason; a reader then keeps the settings it had.
/// Parsing is linear in the bytes and never allocates more than they hold.
///
/// ```swift
/// switch XSettings.parse(bytes) {
/// case .success(let settings): settings.values["Xft/DPI"]   // .integer(98304): 96 dpi
/// case .failure(let malformed): Log.warning("\(malformed)")
/// }
/// ```
struct XSettings: Equatable, Sendable {
    /// One setting's value.
    enum Value: Equatable, Sendable {
        case integer(Int32)
        case string(String)
        /// Four 16-bit channels, in the order GTK and the settings daemons read and write them.
        case color(red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16)
    }

    /// The manager's serial, which it increases with every change.
    var serial: UInt32
    /// The settings by name (`"Xft/DPI"`, `"Net/DoubleClickTime"`).
    var values: [String: Value]

    /// No settings: what a display without a manager has.
    static let none = XSettings(serial: 0, values: [:])

    /// The largest property read (real ones are a few kilobytes: GNOME's about 3 KiB).
    static let maximumSize = 256 * 1024

    /// Why a property could not be read, for its one warning line.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        var reason: String
        var description: String { "the desktop's XSETTINGS property is malformed (\(reason)): settings kept" }
    }

    /// Reads the property's bytes.
    static func parse(_ bytes: [UInt8]) -> Result<XSettings, Malformed> {
        guard bytes.count <= maximumSize else {
            return .failure(Malformed(reason: "\(bytes.count) bytes, more than \(maximumSize)"))
        }
        var reader = Reader(bytes: bytes)
        do {
            return .success(try reader.settings())
        } catch {
            return .failure(error)
        }
    }

    /// A cursor over the bytes that never reads past their end.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var bigEndian = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        var left: Int { bytes.count - position }

        /// The smallest setting: type, unused byte, name length, serial and a 4-byte value.
        static let smallestSetting = 12

        mutating func settings() throws(Malformed) -> XSettings {
            switch try card8("the byte order") {
            case 0: bigEndian = false
            case 1: bigEndian = true
            case let order: throw Malformed(reason: "byte order \(order), neither 0 nor 1")
            }
            try skip(3, "the header")
            let serial = try card32("the serial")
            let count = try card32("the number of settings")
            // The count is checked against the bytes, not believed: a hostile 4 billion
            // settings is caught here, before any loop or allocation.
            guard Int(count) <= left / Self.smallestSetting else {
                throw Malformed(reason: "\(count) settings announced in \(left) bytes")
            }
            var values: [String: Value] = [:]
            for index in 0..<Int(count) {
                let type = try card8("setting \(index)'s type")
                try skip(1, "setting \(index)")
                let nameLength = Int(try card16("setting \(index)'s name length"))
                let fullName = String(decoding: try padded(nameLength, "setting \(index)'s name"), as: UTF8.self)
                // Names go into warnings: a hostile one of 64 KiB is cut there.
                let name = fullName.count > 64 ? fullName.prefix(64) + "…" : fullName
                _ = try card32("\(name)'s serial")
                let value: Value
                switch type {
                case 0:
                    value = .integer(Int32(bitPattern: try card32("\(name)'s value")))
                case 1:
                    let length = Int(try card32("\(name)'s length"))
                    value = .string(String(decoding: try padded(length, "\(name)'s value"), as: UTF8.self))
                case 2:
                    value = .color(
                        red: try card16("\(name)'s red"), green: try card16("\(name)'s green"),
                        blue: try card16("\(name)'s blue"), alpha: try card16("\(name)'s alpha"))
                default:
                    throw Malformed(reason: "\(name) has type \(type), which has no known length")
                }
                guard values.updateValue(value, forKey: fullName) == nil else {
                    throw Malformed(reason: "\(name) is given twice")
                }
            }
            return XSettings(serial: serial, values: values)
        }

        mutating func skip(_ count: Int, _ what: @autoclosure () -> String) throws(Malformed) {
            try need(count, what())
            position += count
        }

        mutating func need(_ count: Int, _ what: @autoclosure () -> String) throws(Malformed) {
            guard count <= left else {
                throw Malformed(reason: "\(what()) needs \(count) bytes, \(left) left")
            }
        }

        mutating func card8(_ what: @autoclosure () -> String) throws(Malformed) -> UInt8 {
            try need(1, what())
            defer { position += 1 }
            return bytes[position]
        }

        mutating func card16(_ what: @autoclosure () -> String) throws(Malformed) -> UInt16 {
            try need(2, what())
            defer { position += 2 }
            let (a, b) = (UInt16(bytes[position]), UInt16(bytes[position + 1]))
            return bigEndian ? a << 8 | b : b << 8 | a
        }

        mutating func card32(_ what: @autoclosure () -> String) throws(Malformed) -> UInt32 {
            try need(4, what())
            defer { position += 4 }
            var value: UInt32 = 0
            for offset in 0..<4 {
                let byte = UInt32(bytes[position + (bigEndian ? offset : 3 - offset)])
                value = value << 8 | byte
            }
            return value
        }

        /// `length` bytes and the padding to the next multiple of 4 after them. The length is
        /// at most 2³² − 1 and the arithmetic is on 64-bit integers: it cannot overflow.
        mutating func padded(_ length: Int, _ what: @autoclosure () -> String) throws(Malformed) -> ArraySlice<UInt8> {
            let total = (length + 3) & ~3
            try need(total, what())
            defer { position += total }
            return bytes[position..<(position + length)]
        }
    }
}
