internal import CX11

/// Right-to-left text in the order it is drawn: the Unicode bidirectional algorithm (FriBidi)
/// applied line by line after wrapping, as UAX #9 prescribes. Hebrew reads from the right,
/// numbers and Latin words inside it keep their own order, brackets mirror, and Arabic letters
/// take their joined forms (the presentation forms of the font).
///
/// Lines without a right-to-left character, nearly all of them, are left alone after one scan.
enum Bidi {
    /// A line in display order.
    struct VisualLine: Equatable {
        /// The characters from left to right.
        var text: String
        /// Whether the line's direction (from its first strong character) is right-to-left:
        /// it then starts at the right edge.
        var isRightToLeft: Bool
    }

    /// `line` in display order, or nil when it holds no right-to-left character (it is then
    /// drawn as it is).
    static func visualLine(_ line: Substring) -> VisualLine? {
        guard line.unicodeScalars.contains(where: isRightToLeft) else { return nil }
        let logical = line.unicodeScalars.map(\.value)
        guard logical.count < Int(Int32.max) else { return nil }
        var visual = [UInt32](repeating: 0, count: logical.count)
        var rtl: Int32 = 0
        let done = logical.withUnsafeBufferPointer { input in
            visual.withUnsafeMutableBufferPointer { output in
                cx11_bidi_line(input.baseAddress, Int32(input.count), output.baseAddress, &rtl)
            }
        }
        guard done != 0 else { return nil }
        var scalars = String.UnicodeScalarView()
        for value in visual {
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
        return VisualLine(text: String(scalars), isRightToLeft: rtl != 0)
    }

    /// Whether a scalar is (or opens) right-to-left text: Hebrew, Arabic, Syriac, Thaana, NKo,
    /// Samaritan, Mandaic and their presentation forms, the historic right-to-left scripts, and
    /// the explicit right-to-left marks and embeddings.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
            0x200F, 0x202B, 0x202E, 0x2067:
            return true
        default:
            return false
        }
    }
}
