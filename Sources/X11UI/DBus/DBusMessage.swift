internal import CDBus

/// A D-Bus value with its type, for building and reading messages without C types.
indirect enum DBusValue: Equatable {
    case bool(Bool)
    case int16(Int16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(DBusValue)
    /// An array of values that all have `element` as their signature (it names the type of an
    /// empty array too).
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    /// One entry of a dictionary: an array whose element signature is `{kv}`.
    case dictionaryEntry(DBusValue, DBusValue)

    /// The value's D-Bus type signature.
    var signature: String {
        switch self {
        case .bool: "b"
        case .int16: "n"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictionaryEntry(let key, let value): "{" + key.signature + value.signature + "}"
        }
    }

    /// A dictionary `a{sv}` from string keys to variants.
    static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictionaryEntry(.string($0.0), .variant($0.1)) })
    }

    var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    var intValue: Int? {
        switch self {
        case .int16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .variant(let inner): inner.intValue
        default: nil
        }
    }
}

/// One D-Bus message, released when the object goes.
@MainActor
final class DBusMessage {
    let pointer: OpaquePointer
    private let library: UnsafeMutablePointer<cdbus>

    /// Takes over a reference the caller owns.
    init(adopting pointer: OpaquePointer, library: UnsafeMutablePointer<cdbus>) {
        self.pointer = pointer
        self.library = library
        isBorrowed = false
    }

    /// Uses a message libdbus lends (a filter's): it is never kept past the filter call.
    init(borrowing pointer: OpaquePointer, library: UnsafeMutablePointer<cdbus>) {
        self.pointer = pointer
        self.library = library
        isBorrowed = true
    }

    private let isBorrowed: Bool

    isolated deinit {
        if !isBorrowed { library.pointee.message_unref(pointer) }
    }

    var raw: OpaquePointer { pointer }

    var type: Int32 { library.pointee.message_get_type(raw) }
    var path: String? { library.pointee.message_get_path(raw).map { String(cString: $0) } }
    var interface: String? { library.pointee.message_get_interface(raw).map { String(cString: $0) } }
    var member: String? { library.pointee.message_get_member(raw).map { String(cString: $0) } }
    var sender: String? { library.pointee.message_get_sender(raw).map { String(cString: $0) } }
    var errorName: String? { library.pointee.message_get_error_name(raw).map { String(cString: $0) } }
    var replySerial: UInt32 { library.pointee.message_get_reply_serial(raw) }
    var expectsReply: Bool { library.pointee.message_get_no_reply(raw) == 0 }
    var isMethodCall: Bool { type == Int32(CDBUS_MESSAGE_TYPE_METHOD_CALL) }
    var isSignal: Bool { type == Int32(CDBUS_MESSAGE_TYPE_SIGNAL) }

    // MARK: - Reading

    /// The message's arguments.
    var arguments: [DBusValue] {
        var iterator = cdbus_iter()
        guard library.pointee.message_iter_init(raw, &iterator) != 0 else { return [] }
        return readAll(&iterator)
    }

    private func readAll(_ iterator: inout cdbus_iter) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = read(&iterator) {
            values.append(value)
            if library.pointee.message_iter_next(&iterator) == 0 { break }
        }
        return values
    }

    private func read(_ iterator: inout cdbus_iter) -> DBusValue? {
        let d = library.pointee
        let type = UInt8(truncatingIfNeeded: d.message_iter_get_arg_type(&iterator))
        func basic<T>(_ zero: T) -> T {
            var value = zero
            withUnsafeMutablePointer(to: &value) { d.message_iter_get_basic(&iterator, $0) }
            return value
        }
        func string() -> String {
            var value: UnsafePointer<CChar>?
            withUnsafeMutablePointer(to: &value) { d.message_iter_get_basic(&iterator, $0) }
            return value.map { String(cString: $0) } ?? ""
        }
        func inner() -> [DBusValue] {
            var sub = cdbus_iter()
            d.message_iter_recurse(&iterator, &sub)
            return readAll(&sub)
        }
        switch type {
        case UInt8(ascii: "b"): return .bool(basic(UInt32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(basic(Int16(0)))
        case UInt8(ascii: "q"): return .int32(Int32(basic(UInt16(0))))
        case UInt8(ascii: "i"): return .int32(basic(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(basic(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(basic(Int64(0)))
        case UInt8(ascii: "t"): return .int64(Int64(truncatingIfNeeded: basic(UInt64(0))))
        case UInt8(ascii: "y"): return .int32(Int32(basic(UInt8(0))))
        case UInt8(ascii: "d"): return .double(basic(Double(0)))
        case UInt8(ascii: "s"): return .string(string())
        case UInt8(ascii: "o"): return .objectPath(string())
        case UInt8(ascii: "g"): return .signature(string())
        case UInt8(ascii: "v"): return inner().first.map { .variant($0) }
        case UInt8(ascii: "r"), UInt8(ascii: "("): return .structure(inner())
        case UInt8(ascii: "e"), UInt8(ascii: "{"):
            let pair = inner()
            return pair.count == 2 ? .dictionaryEntry(pair[0], pair[1]) : nil
        case UInt8(ascii: "a"):
            // The array's own signature ("a(so)") names its element type even when it is empty.
            var element = "v"
            if let signature = d.message_iter_get_signature(&iterator) {
                element = String(String(cString: signature).dropFirst())
                d.free(signature)
            }
            return .array(element: element, inner())
        default: return nil  // end of the arguments, or a type X11UI never reads (unix fds)
        }
    }

    // MARK: - Writing

    /// Appends arguments; returns false when libdbus runs out of memory or an array holds a
    /// value that is not of its element type (libdbus would abort).
    @discardableResult
    func append(_ values: [DBusValue]) -> Bool {
        var iterator = cdbus_iter()
        library.pointee.message_iter_init_append(raw, &iterator)
        return values.allSatisfy { write($0, to: &iterator) }
    }

    private func write(_ value: DBusValue, to iterator: inout cdbus_iter) -> Bool {
        let d = library.pointee
        func basic<T>(_ type: Character, _ value: T) -> Bool {
            var copy = value
            return withUnsafePointer(to: &copy) { d.message_iter_append_basic(&iterator, Int32(type.asciiValue!), $0) }
                != 0
        }
        func string(_ type: Character, _ text: String) -> Bool {
            // D-Bus strings cannot hold NUL and must be valid UTF-8 (String is).
            let clean = text.contains("\0") ? String(text.unicodeScalars.filter { $0 != "\0" }) : text
            return clean.withCString { chars in
                var pointer: UnsafePointer<CChar>? = chars
                return withUnsafePointer(to: &pointer) {
                    d.message_iter_append_basic(&iterator, Int32(type.asciiValue!), $0)
                } != 0
            }
        }
        func container(_ type: Character, _ signature: String?, _ contents: [DBusValue]) -> Bool {
            var sub = cdbus_iter()
            let opened =
                signature.map { sig in
                    sig.withCString { d.message_iter_open_container(&iterator, Int32(type.asciiValue!), $0, &sub) }
                } ?? d.message_iter_open_container(&iterator, Int32(type.asciiValue!), nil, &sub)
            guard opened != 0 else { return false }
            var ok = true
            for item in contents where ok { ok = write(item, to: &sub) }
            return d.message_iter_close_container(&iterator, &sub) != 0 && ok
        }
        switch value {
        case .bool(let v): return basic("b", UInt32(v ? 1 : 0))
        case .int16(let v): return basic("n", v)
        case .int32(let v): return basic("i", v)
        case .uint32(let v): return basic("u", v)
        case .int64(let v): return basic("x", v)
        case .double(let v): return basic("d", v)
        case .string(let v): return string("s", v)
        case .objectPath(let v): return string("o", v)
        case .signature(let v): return string("g", v)
        case .variant(let inner): return container("v", inner.signature, [inner])
        case .array(let element, let items):
            // libdbus aborts the process on an element of another type: refuse it here.
            guard items.allSatisfy({ $0.signature == element }) else { return false }
            return container("a", element, items)
        case .structure(let fields): return container("r", nil, fields)
        case .dictionaryEntry(let key, let value): return container("e", nil, [key, value])
        }
    }
}

extension DBusConnection {
    /// `value` as a value in a D-Bus address (`unix:path=…`): every byte but the letters, the
    /// digits and `-_/.*` as `%xx` (any byte may be written so, as the specification says).
    nonisolated static func escapedAddressValue(_ value: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/.*".utf8)
        var result = ""
        for byte in value.utf8 {
            if plain.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return result
    }
}
