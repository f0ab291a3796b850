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
        var objects: [(name: [UInt8], values: [UInt8])] = []
        var iterator = FcPatternIter()
        FcPatternIterStart(pattern, &iterator)
        guard FcPatternIterIsValid(pattern, &iterator) != 0 else { return "" }
        repeat {
            guard let object = FcPatternIterGetObject(pattern, &iterator) else { return nil }
            var name: [UInt8] = []
            appendEscaped(UnsafeRawPointer(object).assumingMemoryBound(to: UInt8.self), to: &name)
            var values: [UInt8] = []
            for index in 0..<FcPatternIterValueCount(pattern, &iterator) {
                var value = FcValue()
                var binding = FcValueBindingWeak
                guard FcPatternIterGetValue(pattern, &iterator, index, &value, &binding) == FcResultMatch else {
                    return nil
                }
                if index > 0 { values.append(UInt8(ascii: ",")) }
                switch binding {
                case FcValueBindingWeak: values.append(UInt8(ascii: "w"))
                case FcValueBindingStrong: values.append(UInt8(ascii: "s"))
                default: values.append(UInt8(ascii: "="))
                }
                guard append(value, to: &values) else { return nil }
            }
            objects.append((name, values))
        } while FcPatternIterNext(pattern, &iterator) != 0
        var text: [UInt8] = []
        for (position, object) in objects.sorted(by: { $0.name.lexicographicallyPrecedes($1.name) }).enumerated() {
            if position > 0 { text.append(UInt8(ascii: ";")) }
            text += object.name
            text.append(UInt8(ascii: "="))
            text += object.values
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends a value's type and content; false for a type that is not written.
    private static func append(_ value: FcValue, to text: inout [UInt8]) -> Bool {
        switch value.type {
        case FcTypeInteger:
            text.append(UInt8(ascii: "i"))
            text += Array(String(value.u.i).utf8)
        case FcTypeDouble:
            text.append(UInt8(ascii: "d"))
            appendHex(value.u.d.bitPattern, to: &text)
        case FcTypeString:
            guard let string = value.u.s else { return false }
            text.append(UInt8(ascii: "s"))
            appendEscaped(string, to: &text)
        case FcTypeBool:
            text.append(UInt8(ascii: "b"))
            text += Array(String(value.u.b).utf8)
        case FcTypeMatrix:
            guard let matrix = value.u.m?.pointee else { return false }
            text.append(UInt8(ascii: "m"))
            for (index, element) in [matrix.xx, matrix.xy, matrix.yx, matrix.yy].enumerated() {
                if index > 0 { text.append(UInt8(ascii: ":")) }
                appendHex(element.bitPattern, to: &text)
            }
        case FcTypeCharSet:
            guard let charset = value.u.c else { return false }
            text.append(UInt8(ascii: "c"))
            var map = [FcChar32](repeating: 0, count: 8)
            var next: FcChar32 = 0
            var base = FcCharSetFirstPage(charset, &map, &next)
            var first = true
            while base != 0xFFFF_FFFF {
                if !first { text.append(UInt8(ascii: ":")) }
                first = false
                appendHex(UInt64(base), to: &text)
                for word in map {
                    text.append(UInt8(ascii: "."))
                    appendHex(UInt64(word), to: &text)
                }
                base = FcCharSetNextPage(charset, &map, &next)
            }
        case FcTypeLangSet:
            guard let langs = value.u.l.flatMap({ FcLangSetGetLangs($0) }) else { return false }
            defer { FcStrSetDestroy(langs) }
            guard let list = FcStrListCreate(langs) else { return false }
            defer { FcStrListDone(list) }
            var names: [[UInt8]] = []
            while let next = FcStrListNext(list) {
                var name: [UInt8] = []
                appendEscaped(next, to: &name)
                names.append(name)
            }
            text.append(UInt8(ascii: "l"))
            for (index, name) in names.sorted(by: { $0.lexicographicallyPrecedes($1) }).enumerated() {
                if index > 0 { text.append(UInt8(ascii: ":")) }
                text += name
            }
        case FcTypeRange:
            var begin = 0.0
            var end = 0.0
            guard let range = value.u.r, FcRangeGetDouble(range, &begin, &end) != 0 else { return false }
            text.append(UInt8(ascii: "r"))
            appendHex(begin.bitPattern, to: &text)
            text.append(UInt8(ascii: ":"))
            appendHex(end.bitPattern, to: &text)
        default: return false
        }
        return true
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends a number in lowercase hexadecimal, without leading zeros.
    private static func appendHex(_ value: UInt64, to text: inout [UInt8]) {
        var shift = max(0, (63 - value.leadingZeroBitCount) / 4 * 4)
        while shift >= 0 {
            text.append(hexDigits[Int((value >> UInt64(shift)) & 15)])
            shift -= 4
        }
    }

    /// Appends a C string escaped (see `escape(_:)`).
    private static func appendEscaped(_ string: UnsafePointer<UInt8>, to text: inout [UInt8]) {
        var pointer = string
        while pointer.pointee != 0 {
            appendEscaped(pointer.pointee, to: &text)
            pointer += 1
        }
    }

    private static func appendEscaped(_ byte: UInt8, to text: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "%"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "="),
            UInt8(ascii: " "), 0..<0x20, 0x7F:
            text += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
        default: text.append(byte)
        }
    }

    /// The pattern `serialize(_:)` wrote, as a new pattern the caller owns; nil when the text
    /// is not one it writes.
    static func deserialize(_ text: String) -> OpaquePointer? { deserialize(Array(text.utf8)[...]) }

    /// The same from the text's bytes. (Bytes, not characters: a start reads a store of tens of
    /// kilobytes, and `String`'s character by character splitting took 150 M instructions.)
    static func deserialize(_ text: ArraySlice<UInt8>) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        guard !text.isEmpty else { return pattern }
        for objectRange in fields(of: text, separatedBy: UInt8(ascii: ";")) {
            let object = text[objectRange]
            guard let equals = object.firstIndex(of: UInt8(ascii: "=")) else { return failed(pattern) }
            let name = unescape(object[..<equals])
            let values = object[(equals + 1)...]
            for valueRange in fields(of: values, separatedBy: UInt8(ascii: ",")) {
                let value = text[valueRange]
                guard value.count >= 2,
                    add(
                        type: value[value.startIndex + 1], content: value.dropFirst(2),
                        binding: value[value.startIndex], to: pattern, object: name)
                else { return failed(pattern) }
            }
        }
        return pattern
    }

    /// The ranges (indices of `bytes`) of the fields between separators, empty ones included;
    /// found with `memchr` (the character set's field is kilobytes long).
    static func fields(of bytes: ArraySlice<UInt8>, separatedBy separator: UInt8) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { buffer in
            var ranges: [Range<Int>] = []
            guard let base = buffer.baseAddress else { return [bytes.startIndex..<bytes.startIndex] }
            var start = 0
            while true {
                guard let found = memchr(base + start, Int32(separator), buffer.count - start) else {
                    ranges.append((bytes.startIndex + start)..<bytes.endIndex)
                    return ranges
                }
                let end = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                ranges.append((bytes.startIndex + start)..<(bytes.startIndex + end))
                start = end + 1
            }
        }
    }

    private static func failed(_ pattern: OpaquePointer) -> OpaquePointer? {
        FcPatternDestroy(pattern)
        return nil
    }

    /// Adds one value (FcPatternAdd copies it, so what is made here is freed here).
    private static func add(
        type: UInt8, content: ArraySlice<UInt8>, binding: UInt8, to pattern: OpaquePointer, object: String
    ) -> Bool {
        var value = FcValue()
        var made: (() -> Void)?
        defer { made?() }
        switch type {
        case UInt8(ascii: "i"):
            guard let integer = Int32(String(decoding: content, as: UTF8.self)) else { return false }
            value.type = FcTypeInteger
            value.u.i = integer
        case UInt8(ascii: "d"):
            guard let bits = hexNumber(content) else { return false }
            value.type = FcTypeDouble
            value.u.d = Double(bitPattern: bits)
        case UInt8(ascii: "s"):
            value.type = FcTypeString
            let copy = strdup(unescape(content))
            made = { free(copy) }
            value.u.s = UnsafePointer(copy.map { UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self) })
        case UInt8(ascii: "b"):
            guard let boolean = Int32(String(decoding: content, as: UTF8.self)) else { return false }
            value.type = FcTypeBool
            value.u.b = boolean
        case UInt8(ascii: "m"):
            let parts = content.split(separator: UInt8(ascii: ":")).compactMap { hexNumber($0) }
            guard parts.count == 4 else { return false }
            var matrix = FcMatrix(
                xx: Double(bitPattern: parts[0]), xy: Double(bitPattern: parts[1]), yx: Double(bitPattern: parts[2]),
                yy: Double(bitPattern: parts[3]))
            value.type = FcTypeMatrix
            return withUnsafePointer(to: &matrix) { pointer in
                value.u.m = pointer
                return addValue(value, binding: binding, to: pattern, object: object)
            }
        case UInt8(ascii: "c"):
            guard let charset = FcCharSetCreate() else { return false }
            made = { FcCharSetDestroy(charset) }
            guard addPages(content, to: charset) else { return false }
            value.type = FcTypeCharSet
            value.u.c = charset
        case UInt8(ascii: "l"):
            guard let langs = FcLangSetCreate() else { return false }
            made = { FcLangSetDestroy(langs) }
            for lang in content.split(separator: UInt8(ascii: ":")) {
                guard FcLangSetAdd(langs, unescape(lang)) != 0 else { return false }
            }
            value.type = FcTypeLangSet
            value.u.l = langs
        case UInt8(ascii: "r"):
            let ends = content.split(separator: UInt8(ascii: ":")).compactMap { hexNumber($0) }
            guard ends.count == 2,
                let range = FcRangeCreateDouble(Double(bitPattern: ends[0]), Double(bitPattern: ends[1]))
            else { return false }
            made = { FcRangeDestroy(range) }
            value.type = FcTypeRange
            value.u.r = range
        default: return false
        }
        return addValue(value, binding: binding, to: pattern, object: object)
    }

    /// Adds the characters of a character set's pages (`base.word.word…:base…`, eight words of
    /// 32 bits to a page, in hexadecimal), read byte by byte: a font's set is hundreds of pages.
    private static func addPages(_ content: ArraySlice<UInt8>, to charset: OpaquePointer) -> Bool {
        var fields: [UInt64] = []
        fields.reserveCapacity(9)
        var number: UInt64 = 0
        var digits = 0
        func page() -> Bool {
            guard fields.count == 9, fields[0] <= 0x10_FFFF else { return false }
            let base = UInt32(fields[0])
            for index in 1..<9 {
                var word = fields[index]
                guard word <= 0xFFFF_FFFF else { return false }
                while word != 0 {
                    FcCharSetAddChar(charset, base + UInt32(index - 1) * 32 + UInt32(word.trailingZeroBitCount))
                    word &= word - 1
                }
            }
            fields.removeAll(keepingCapacity: true)
            return true
        }
        for byte in content {
            if let digit = hexDigit(byte) {
                guard digits < 16 else { return false }
                number = number << 4 | UInt64(digit)
                digits += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: ":"):
                guard digits > 0, fields.count < 9 else { return false }
                fields.append(number)
                number = 0
                digits = 0
                if byte == UInt8(ascii: ":") { guard page() else { return false } }
            default: return false
            }
        }
        guard !content.isEmpty else { return true }
        guard digits > 0, fields.count < 9 else { return false }
        fields.append(number)
        return page()
    }

    private static func addValue(_ value: FcValue, binding: UInt8, to pattern: OpaquePointer, object: String) -> Bool {
        switch binding {
        case UInt8(ascii: "s"): return FcPatternAdd(pattern, object, value, 1) != 0
        case UInt8(ascii: "w"): return FcPatternAddWeak(pattern, object, value, 1) != 0
        default: return false  // "same" has no public way in; such a match is not kept
        }
    }

    /// A lowercase hexadecimal number of 1 to 16 digits.
    static func hexNumber(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// The value of a lowercase hexadecimal digit.
    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Percent-escapes what would end a field: `%`, separators, spaces and control bytes.
    static func escape(_ string: String) -> String {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(string.utf8.count)
        for byte in string.utf8 { appendEscaped(byte, to: &escaped) }
        return String(decoding: escaped, as: UTF8.self)
    }

    static func unescape(_ text: Substring) -> String { unescape(Array(text.utf8)[...]) }

    static func unescape(_ text: ArraySlice<UInt8>) -> String {
        guard text.contains(UInt8(ascii: "%")) else { return String(decoding: text, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "%"), index + 3 <= text.endIndex,
                let value = hexNumber(text[(index + 1)..<(index + 3)])
            {
                bytes.append(UInt8(value))
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
