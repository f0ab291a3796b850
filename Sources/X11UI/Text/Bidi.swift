internal import CX11

/// Right-to-left text in the order it is drawn: the Unicode bidirectional algorithm (FriBidi)
/// applied line by line after wrapping, as UAX #9 prescribes, in the direction of each line's
/// paragraph. Hebrew reads from the right,
/// numbers and Latin words inside it keep their own order, brackets mirror, and Arabic letters
/// are left for HarfBuzz to join or, when it cannot be loaded, take their joined forms here
/// (the presentation forms of the font).
///
/// Lines without a right-to-left character, nearly all of them, are left alone after one scan,
/// and FriBidi is opened only for the first text that holds one (it is never linked). Without
/// FriBidi such text is shown in logical order, left to right.
enum Bidi {
    /// libfribidi, opened the first time a text holds a right-to-left character.
    static let library = LoadedLibrary.open(
        "libfribidi.so.0", empty: cx11_fribidi(), load: cx11_fribidi_load,
        missing: "right-to-left text is shown in logical order")

    /// A line in display order.
    struct VisualLine: Equatable {
        /// The characters from left to right.
        var text: String
        /// Whether the line runs right-to-left (its paragraph's direction): it then starts at
        /// the right edge.
        var isRightToLeft: Bool
        /// For each scalar of `text`, the offset of the scalar it shows in the logical line.
        var logicalOffsets: [Int]
        /// For each scalar of the logical line, whether it runs right-to-left (an odd
        /// embedding level).
        var runsRightToLeft: [Bool]
    }

    /// `line` in display order, or nil when it is drawn as it is (a left-to-right line with no
    /// right-to-left character).
    ///
    /// - Parameters:
    ///   - line: one laid-out line, in reading (logical) order.
    ///   - paragraphIsRightToLeft: the direction of the paragraph the line belongs to (see
    ///     `paragraphDirection(of:)`); nil takes it from the line's own first strong character.
    ///     Every line of a right-to-left paragraph runs right-to-left, even one that holds only
    ///     Latin words; a line of a left-to-right paragraph that starts with a Hebrew word stays
    ///     left-to-right.
    ///   - joinsArabic: whether letters of Arabic and the other joining scripts are replaced by
    ///     their joined presentation forms (one for one); false leaves them to a shaping engine.
    static func visualLine(
        _ line: Substring, paragraphIsRightToLeft: Bool? = nil, joinsArabic: Bool = true
    ) -> VisualLine? {
        guard paragraphIsRightToLeft == true || line.unicodeScalars.contains(where: isRightToLeft),
            let fribidi = library?.functions
        else {
            return nil
        }
        let logical = line.unicodeScalars.map(\.value)
        guard logical.count < Int(Int32.max) else { return nil }
        var visual = [UInt32](repeating: 0, count: logical.count)
        var visualToLogical = [Int32](repeating: 0, count: logical.count)
        var levels = [Int8](repeating: 0, count: logical.count)
        var rtl: Int32 = 0
        let base: Int32 = paragraphIsRightToLeft.map { $0 ? 1 : 0 } ?? -1
        let done = logical.withUnsafeBufferPointer { input in
            visual.withUnsafeMutableBufferPointer { output in
                visualToLogical.withUnsafeMutableBufferPointer { map in
                    levels.withUnsafeMutableBufferPointer { levels in
                        withUnsafePointer(to: fribidi) { fribidi in
                            cx11_bidi_line(
                                fribidi, input.baseAddress, Int32(input.count), base, joinsArabic ? 1 : 0,
                                output.baseAddress, map.baseAddress, levels.baseAddress, &rtl)
                        }
                    }
                }
            }
        }
        guard done != 0 else { return nil }
        // FriBidi shapes one for one, so every output is a valid scalar at its position; a
        // replacement character stands in should one not be.
        var scalars = String.UnicodeScalarView()
        for value in visual { scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
        let offsets = visualToLogical.map { min(max(0, Int($0)), logical.count - 1) }
        return VisualLine(
            text: String(scalars), isRightToLeft: rtl != 0, logicalOffsets: offsets,
            runsRightToLeft: levels.map { $0 & 1 == 1 })
    }

    /// The direction of the paragraph that starts `text` (UAX #9 rules P2 and P3): that of its
    /// first strong character (a letter of a left-to-right or right-to-left script), skipping
    /// isolated runs (between U+2066–U+2068 and their U+2069); left-to-right when it has none.
    /// Reads up to the paragraph's end, and at most `limit` scalars. A paragraph with no
    /// right-to-left character outside isolates is left-to-right without asking FriBidi, which
    /// is then never loaded; without FriBidi every paragraph is.
    static func paragraphIsRightToLeft(_ text: Substring, limit: Int = 65_536) -> Bool {
        guard mayStartRightToLeft(text, limit: limit), let fribidi = library?.functions else { return false }
        return firstDecided(in: text, limit: limit) { scalar in
            switch withUnsafePointer(to: fribidi, { cx11_bidi_strong_direction($0, scalar.value) }) {
            case 1: return true
            case 0: return false
            default: return nil
            }
        } ?? false
    }

    /// Whether the paragraph that starts `text` may be right-to-left: false when a Latin letter
    /// (ASCII, left-to-right) comes before any right-to-left character outside isolates, or no
    /// such character comes before the paragraph's end (every strong right-to-left character is
    /// one `isRightToLeft` accepts).
    private static func mayStartRightToLeft(_ text: Substring, limit: Int) -> Bool {
        firstDecided(in: text, limit: limit) { scalar in
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A: return false
            default: return isRightToLeft(scalar) ? true : nil
            }
        } ?? false
    }

    /// The first answer `decide` gives for a scalar of the paragraph that starts `text`, outside
    /// isolated runs (U+2066–U+2068 to their U+2069), reading at most `limit` scalars; nil when
    /// it answers none before the paragraph ends.
    private static func firstDecided(
        in text: Substring, limit: Int, _ decide: (Unicode.Scalar) -> Bool?
    ) -> Bool? {
        var isolates = 0
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == limit || isParagraphSeparator(scalar) { break }
            switch scalar.value {
            case 0x2066...0x2068: isolates += 1
            case 0x2069: isolates = max(0, isolates - 1)
            default:
                if isolates == 0, let answer = decide(scalar) { return answer }
            }
        }
        return nil
    }

    /// Whether a scalar ends a paragraph for the bidirectional algorithm (type B: line feed,
    /// carriage return, U+001C–U+001E, next line, paragraph separator). The line separator
    /// U+2028 breaks a line but not the paragraph.
    static func isParagraphSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x1C...0x1E, 0x85, 0x2029: return true
        default: return false
        }
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
