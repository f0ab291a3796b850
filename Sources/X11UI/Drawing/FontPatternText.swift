internal import CX11
internal import Glibc

/// Fontconfig patterns written as text and read back value for value, for `FontMatchStore`.
enum FontPatternText {
    /// A pattern as one line: its objects in name order, `name=` and its values separated by
    /// `,`, objects by `;`. Each value is its binding (`w`, `s` or `=`), its type and its
    /// content: `i` an integer, `d` a double's bits, `s` an escaped string, `b` a boolean,
    /// `m` a matrix's four doubles, `c` a character set's pages (base and eight words, each in
    /// hexadecimal), `l` a language set's languages, `r` a range's ends. Nil for a pattern
    /// with a value of another type (a FreeType face).
    static func serialize(_ pattern: OpaquePointer) -> String? {
        var objects: [(name: String, values: String)] = []
        var iterator = FcPatternIter()
        FcPatternIterStart(pattern, &iterator)
        guard FcPatternIterIsValid(pattern, &iterator) != 0 else { return "" }
        repeat {
            guard let object = FcPatternIterGetObject(pattern, &iterator) else { return nil }
            let name = String(cString: object)
            var values = ""
            for index in 0..<FcPatternIterValueCount(pattern, &iterator) {
                var value = FcValue()
                var binding = FcValueBindingWeak
                guard FcPatternIterGetValue(pattern, &iterator, index, &value, &binding) == FcResultMatch,
                    let text = serialize(value)
                else { return nil }
                if index > 0 { values += "," }
                switch binding {
                case FcValueBindingWeak: values += "w"
                case FcValueBindingStrong: values += "s"
                default: values += "="
                }
                values += text
            }
            objects.append((escape(name), values))
        } while FcPatternIterNext(pattern, &iterator) != 0
        return objects.sorted { $0.name < $1.name }.map { "\($0.name)=\($0.values)" }.joined(separator: ";")
    }

    private static func serialize(_ value: FcValue) -> String? {
        switch value.type {
        case FcTypeInteger: return "i\(value.u.i)"
        case FcTypeDouble: return "d" + hex(value.u.d.bitPattern)
        case FcTypeString:
            guard let string = value.u.s else { return nil }
            return "s" + escape(string.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) })
        case FcTypeBool: return "b\(value.u.b)"
        case FcTypeMatrix:
            guard let matrix = value.u.m?.pointee else { return nil }
            return "m" + [matrix.xx, matrix.xy, matrix.yx, matrix.yy].map { hex($0.bitPattern) }.joined(separator: ":")
        case FcTypeCharSet:
            guard let charset = value.u.c else { return nil }
            var text = "c"
            var map = [FcChar32](repeating: 0, count: 8)
            var next: FcChar32 = 0
            var base = FcCharSetFirstPage(charset, &map, &next)
            while base != 0xFFFF_FFFF {
                if text.count > 1 { text += ":" }
                text += hex(UInt64(base)) + map.map { "." + hex(UInt64($0)) }.joined()
                base = FcCharSetNextPage(charset, &map, &next)
            }
            return text
        case FcTypeLangSet:
            guard let langs = value.u.l.flatMap({ FcLangSetGetLangs($0) }) else { return nil }
            defer { FcStrSetDestroy(langs) }
            guard let list = FcStrListCreate(langs) else { return nil }
            defer { FcStrListDone(list) }
            var names: [String] = []
            while let next = FcStrListNext(list) {
                names.append(escape(next.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }))
            }
            return "l" + names.sorted().joined(separator: ":")
        case FcTypeRange:
            var begin = 0.0
            var end = 0.0
            guard let range = value.u.r, FcRangeGetDouble(range, &begin, &end) != 0 else { return nil }
            return "r" + hex(begin.bitPattern) + ":" + hex(end.bitPattern)
        default: return nil
        }
    }

    /// The pattern `serialize(_:)` wrote, as a new pattern the caller owns; nil when the text
    /// is not one it writes.
    static func deserialize(_ text: String) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        guard !text.isEmpty else { return pattern }
        for object in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard let equals = object.firstIndex(of: "=") else { return failed(pattern) }
            let name = unescape(object[..<equals])
            for value in object[object.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
            {
                var characters = value.utf8.makeIterator()
                guard let binding = characters.next(), let type = characters.next() else { return failed(pattern) }
                let content = value.dropFirst(2)
                guard add(type: type, content: content, binding: binding, to: pattern, object: name) else {
                    return failed(pattern)
                }
            }
        }
        return pattern
    }

    private static func failed(_ pattern: OpaquePointer) -> OpaquePointer? {
        FcPatternDestroy(pattern)
        return nil
    }

    /// Adds one value (FcPatternAdd copies it, so what is made here is freed here).
    private static func add(
        type: UInt8, content: Substring, binding: UInt8, to pattern: OpaquePointer, object: String
    ) -> Bool {
        var value = FcValue()
        var made: (() -> Void)?
        defer { made?() }
        switch type {
        case UInt8(ascii: "i"):
            guard let integer = Int32(content) else { return false }
            value.type = FcTypeInteger
            value.u.i = integer
        case UInt8(ascii: "d"):
            guard let bits = UInt64(content, radix: 16) else { return false }
            value.type = FcTypeDouble
            value.u.d = Double(bitPattern: bits)
        case UInt8(ascii: "s"):
            let string = unescape(content)
            value.type = FcTypeString
            let copy = strdup(string)
            made = { free(copy) }
            value.u.s = UnsafePointer(copy.map { UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self) })
        case UInt8(ascii: "b"):
            guard let boolean = Int32(content) else { return false }
            value.type = FcTypeBool
            value.u.b = boolean
        case UInt8(ascii: "m"):
            let parts = content.split(separator: ":").compactMap { UInt64($0, radix: 16).map(Double.init(bitPattern:)) }
            guard parts.count == 4 else { return false }
            var matrix = FcMatrix(xx: parts[0], xy: parts[1], yx: parts[2], yy: parts[3])
            value.type = FcTypeMatrix
            return withUnsafePointer(to: &matrix) { pointer in
                value.u.m = pointer
                return addValue(value, binding: binding, to: pattern, object: object)
            }
        case UInt8(ascii: "c"):
            guard let charset = FcCharSetCreate() else { return false }
            made = { FcCharSetDestroy(charset) }
            for page in content.split(separator: ":") {
                let words = page.split(separator: ".").map { UInt32($0, radix: 16) }
                guard words.count == 9, let base = words[0] else { return false }
                for (index, word) in words.dropFirst().enumerated() {
                    guard var word else { return false }
                    while word != 0 {
                        let bit = UInt32(word.trailingZeroBitCount)
                        FcCharSetAddChar(charset, base + UInt32(index) * 32 + bit)
                        word &= word - 1
                    }
                }
            }
            value.type = FcTypeCharSet
            value.u.c = charset
        case UInt8(ascii: "l"):
            guard let langs = FcLangSetCreate() else { return false }
            made = { FcLangSetDestroy(langs) }
            for lang in content.split(separator: ":") {
                guard FcLangSetAdd(langs, unescape(lang)) != 0 else { return false }
            }
            value.type = FcTypeLangSet
            value.u.l = langs
        case UInt8(ascii: "r"):
            let ends = content.split(separator: ":").compactMap { UInt64($0, radix: 16).map(Double.init(bitPattern:)) }
            guard ends.count == 2, let range = FcRangeCreateDouble(ends[0], ends[1]) else { return false }
            made = { FcRangeDestroy(range) }
            value.type = FcTypeRange
            value.u.r = range
        default: return false
        }
        return addValue(value, binding: binding, to: pattern, object: object)
    }

    private static func addValue(_ value: FcValue, binding: UInt8, to pattern: OpaquePointer, object: String) -> Bool {
        switch binding {
        case UInt8(ascii: "s"): return FcPatternAdd(pattern, object, value, 1) != 0
        case UInt8(ascii: "w"): return FcPatternAddWeak(pattern, object, value, 1) != 0
        default: return false  // "same" has no public way in; such a match is not kept
        }
    }

    /// Percent-escapes what would end a field: `%`, separators, spaces and control bytes.
    static func escape(_ string: String) -> String {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(string.utf8.count)
        let digits = Array("0123456789abcdef".utf8)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "="),
                UInt8(ascii: " "), 0..<0x20, 0x7F:
                escaped += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    static func unescape(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ value: UInt64) -> String { String(value, radix: 16) }
}
