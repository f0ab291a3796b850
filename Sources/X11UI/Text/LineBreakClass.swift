/// The line breaking classes of the Unicode line breaking algorithm (UAX #14), named by the
/// standard's two-letter abbreviations, with its LB1 resolutions applied: ambiguous, surrogate
/// and unknown characters are `.al`, conditional Japanese starters `.id` (the "normal" line
/// breaking of CSS, which lets small kana start a line).
///
/// One tailoring, as Korean is set today: Hangul syllables and jamo are `.al`, so Korean breaks
/// at its spaces rather than between any two syllables (CSS `word-break: keep-all`).
enum LineBreakClass: Equatable, Sendable {
    case bk, cr, lf, nl, sp, zw, zwj, cm, wj, gl
    case ba, bb, b2, hy, cb, cl, cp, ex, `in`, ns, op, qu, `is`, nu, po, pr, sy
    case al, hl, id, eb, em
    /// South East Asian letters (Thai, Lao, Khmer, Myanmar…): breaks inside a run of them come
    /// from a dictionary, and none are taken where no dictionary covers the script.
    case sa

    /// The class of a scalar.
    init(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            self = Self.ascii[Int(value)]
            return
        }
        if let special = Self.special(value) {
            self = special
            return
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark:
            self = .cm
            return
        case .control, .format:
            self = .cm
            return
        case .decimalNumber:
            self = .nu
            return
        case .openPunctuation:
            self = .op
            return
        case .closePunctuation:
            self = .cl
            return
        case .initialPunctuation, .finalPunctuation:
            self = .qu
            return
        case .currencySymbol:
            self = .pr
            return
        case .spaceSeparator:
            self = .ba
            return
        default:
            break
        }
        if properties.isEmojiModifier {
            self = .em
        } else if properties.isEmojiModifierBase {
            self = .eb
        } else if properties.isEmojiPresentation || (0x1F000...0x1FAFF).contains(value) {
            self = .id
        } else {
            self = .al
        }
    }

    // MARK: - Tables

    /// ASCII, where most text lives.
    private static let ascii: [LineBreakClass] = (0..<128).map { value -> LineBreakClass in
        switch UInt8(value) {
        case 0x09: return .ba  // tab (the layout treats it as a space)
        case 0x0A: return .lf
        case 0x0B, 0x0C: return .bk
        case 0x0D: return .cr
        case 0x00..<0x20, 0x7F: return .cm
        case 0x20: return .sp
        case UInt8(ascii: "!"), UInt8(ascii: "?"): return .ex
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .qu
        case UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "\\"): return .pr
        case UInt8(ascii: "%"): return .po
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): return .op
        case UInt8(ascii: ")"), UInt8(ascii: "]"): return .cp
        case UInt8(ascii: "}"): return .cl
        case UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: ";"): return .is
        case UInt8(ascii: "-"): return .hy
        case UInt8(ascii: "/"): return .sy
        case UInt8(ascii: "|"): return .ba
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .nu
        default: return .al
        }
    }

    /// Characters whose class their general category does not give.
    private static func special(_ value: UInt32) -> LineBreakClass? {
        switch value {
        case 0x85: return .nl
        case 0xA0, 0x2007, 0x2011, 0x202F, 0x180E, 0x0F08, 0x0F0C, 0x0F12, 0x034F: return .gl
        case 0x2028, 0x2029: return .bk
        case 0x200B: return .zw
        case 0x200D: return .zwj
        case 0x2060, 0xFEFF: return .wj
        case 0xFFFC: return .cb
        case 0x2014: return .b2
        case 0x00AD, 0x058A, 0x05BE, 0x0F0B, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x2010, 0x2012, 0x2013,
            0x2027, 0x205F, 0x3000, 0x0E5A, 0x0E5B, 0x104A, 0x104B, 0x17D4, 0x17D5, 0x17D8, 0x17DA, 0x2E0E...0x2E15,
            0x2E17, 0x2E19, 0x1361, 0x0964, 0x0965:
            return .ba
        case 0x00B4, 0x02C8, 0x02CC, 0x02DF, 0x0F01...0x0F04, 0x1806: return .bb
        case 0x00A1, 0x00BF, 0x2E18: return .op
        case 0x0F3B, 0x0F3D: return .cl  // Tibetan closing brackets are .cl, as other closing punctuation
        case 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFE50, 0xFE52, 0xFF61, 0xFF64: return .cl
        case 0x05C6, 0x061B, 0x061E, 0x061F, 0x06D4, 0x07F9, 0x0F0D...0x0F11, 0xFF01, 0xFF1F: return .ex
        case 0x037E, 0x0589, 0x060C, 0x060D, 0x07F8, 0x2044, 0xFE10, 0xFE13, 0xFE14: return .is
        case 0x2024...0x2026, 0x22EF, 0xFE19: return .in
        case 0x17D6, 0x203C, 0x203D, 0x2047...0x2049, 0x3005, 0x301C, 0x303B, 0x303C, 0x309B...0x309E, 0x30A0,
            0x30FB, 0x30FD, 0x30FE, 0xA015, 0xFE54, 0xFE55, 0xFF1A, 0xFF1B, 0xFF65, 0xFF9E, 0xFF9F:
            return .ns
        case 0x00A2, 0x00B0, 0x2030...0x2037, 0x2103, 0x2109, 0xFE6A, 0xFF05, 0xFFE0, 0x060B, 0x066A, 0x20A7, 0x20B6,
            0x20BB, 0x20BE:
            return .po
        case 0x00B1, 0x2116, 0x2212, 0x2213, 0xFE69, 0xFF04, 0xFFE1, 0xFFE5, 0xFFE6, 0x17DB, 0x0E3F: return .pr
        case 0x00AB, 0x00BB, 0x2018, 0x2019, 0x201B...0x201D, 0x201F, 0x2039, 0x203A, 0x275B...0x2760, 0x2E00...0x2E0D,
            0x2E1C, 0x2E1D, 0x2E20, 0x2E21:
            return .qu
        case 0x201A, 0x201E: return .op
        case 0x05D0...0x05EA, 0x05EF...0x05F2, 0xFB1D, 0xFB1F...0xFB4F: return .hl
        // Thai, Lao, Myanmar, Khmer, Tai Tham, New Tai Lue, Tai Viet letters (their digits and
        // marks are numbers and combining marks by category, handled below).
        case 0x0E01...0x0E3A, 0x0E40...0x0E4E, 0x0E81...0x0ECF, 0x0EDC...0x0EDF, 0x1000...0x103F, 0x1050...0x108F,
            0x109A...0x109F,
            0x1780...0x17D3, 0x17D7, 0x17DC, 0x17DD, 0x1950...0x19DF, 0x1A20...0x1AAD, 0xA9E0...0xA9FF, 0xAA60...0xAADF:
            return .sa
        // Ideographs, kana, CJK symbols and fullwidth forms: a break is allowed between any two.
        case 0x2E80...0x2FFF, 0x3003, 0x3004, 0x3006, 0x3007, 0x3012, 0x3013, 0x3020...0x303A, 0x303D...0x303F,
            0x3040...0x30FF, 0x3100...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF02...0xFF03, 0xFF06...0xFF07, 0xFF0A...0xFF0B, 0xFF0D, 0xFF0F...0xFF19,
            0xFF1C...0xFF1E,
            0xFF20...0xFF3A, 0xFF3C, 0xFF3E...0xFF5A, 0xFF5C, 0xFF5E, 0xFF66...0xFF9D, 0xFFA0...0xFFDC,
            0x1B000...0x1B16F, 0x20000...0x3FFFD:
            return .id
        case 0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62: return .op
        case 0xFF09, 0xFF3D, 0xFF5D, 0xFF60, 0xFF63: return .cl
        default: return nil
        }
    }
}
