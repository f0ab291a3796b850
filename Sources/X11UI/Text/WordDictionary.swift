internal import CX11

/// Word boundaries in scripts written without spaces between words, for line breaking and for
/// selecting a word: Thai through libthai's dictionary (as Pango does), Lao, Khmer and Myanmar
/// (and Thai when libthai is missing) through ICU's break iterator. Each library is loaded the
/// first time a run of its script is looked at, so Latin, CJK and other text never loads either.
/// Without the library a run breaks only around it (or between clusters when it is wider than a
/// line).
@MainActor
enum WordDictionary {
    /// A script written without spaces that a dictionary covers.
    enum Script: Equatable, Sendable {
        case thai, lao, khmer, myanmar

        /// The script of a South East Asian letter; nil for every other scalar, and for Tai
        /// Tham, New Tai Lue and Tai Viet, which no dictionary here covers.
        init?(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0x0E00...0x0E7F: self = .thai
            case 0x0E80...0x0EFF: self = .lao
            case 0x1000...0x109F, 0xA9E0...0xA9FF, 0xAA60...0xAA7F: self = .myanmar
            case 0x1780...0x17FF, 0x19E0...0x19FF: self = .khmer
            default: return nil
            }
        }

        /// The locale of ICU's break iterator for the script.
        var locale: String {
            switch self {
            case .thai: "th"
            case .lao: "lo"
            case .khmer: "km"
            case .myanmar: "my"
            }
        }
    }

    /// The library that finds the words of a run.
    enum Backend: Equatable, Sendable {
        case libthai
        case icu(locale: String)
    }

    /// The library that would break `run`, by its first letter's script: libthai for Thai
    /// (ICU when `libthaiAvailable` is false), ICU for Lao, Khmer and Myanmar, none otherwise.
    /// Deciding loads nothing.
    nonisolated static func backend(for run: Substring, libthaiAvailable: Bool) -> Backend? {
        guard let first = run.unicodeScalars.first, let script = Script(first) else { return nil }
        if script == .thai, libthaiAvailable { return .libthai }
        return .icu(locale: script.locale)
    }

    /// The indices of `run` (letters of one South East Asian script) where a word other than
    /// the first starts; empty when no dictionary covers the script or its library is missing.
    static func breaks(in run: Substring) -> [Substring.Index] {
        guard let first = run.unicodeScalars.first, let script = Script(first) else { return [] }
        // libthai is tried first for Thai, so only its absence makes Thai load ICU.
        let backend = backend(for: run, libthaiAvailable: script == .thai && ThaiBreaker.shared != nil)
        switch backend {
        case .libthai: return ThaiBreaker.shared?.breaks(in: run) ?? []
        case .icu(let locale): return ICUBreaker.shared?.breaks(in: run, locale: locale) ?? []
        case nil: return []
        }
    }

    /// The word of a dictionary script around `index`: its run of South East Asian letters
    /// split at the dictionary's boundaries; nil when the character there is not in such a run.
    static func word(in text: Substring, around index: Substring.Index) -> Range<Substring.Index>? {
        guard index < text.endIndex, LineBreakFinder.lineBreakClass(of: text[index]) == .sa else { return nil }
        var lower = index
        while lower > text.startIndex {
            let before = text.index(before: lower)
            guard LineBreakFinder.lineBreakClass(of: text[before]) == .sa else { break }
            lower = before
        }
        var upper = index
        while upper < text.endIndex, LineBreakFinder.lineBreakClass(of: text[upper]) == .sa {
            upper = text.index(after: upper)
        }
        var start = lower
        var end = upper
        for boundary in breaks(in: text[lower..<upper]) {
            if boundary <= index {
                start = boundary
            } else {
                end = boundary
                break
            }
        }
        return start..<end
    }
}

/// libthai's word breaker, kept for the process's life once loaded.
@MainActor
final class ThaiBreaker {
    private var thai = cx11_thai()

    private init?() {
        guard cx11_thai_load(&thai) != 0 else {
            Log.warning("libthai (libthai.so.0 and its dictionary) cannot be loaded: Thai breaks only at spaces")
            return nil
        }
    }

    /// The library, loaded on first use; nil when it is missing.
    static let shared = ThaiBreaker()

    /// The indices in `run` where libthai finds a word starting (not the run's start).
    func breaks(in run: Substring) -> [Substring.Index] {
        // Scalars, NUL-terminated, and the index of each scalar that starts a character.
        var scalars: [UInt32] = []
        var starts: [Substring.Index?] = []
        for index in run.indices {
            for (offset, scalar) in run[index].unicodeScalars.enumerated() {
                scalars.append(scalar.value)
                starts.append(offset == 0 ? index : nil)
            }
        }
        guard !scalars.isEmpty, scalars.count < Int(Int32.max) else { return [] }
        scalars.append(0)
        var positions = [Int32](repeating: 0, count: scalars.count)
        let count = Int(cx11_thai_breaks(&thai, scalars, &positions, Int32(positions.count)))
        return positions.prefix(max(0, min(count, positions.count))).compactMap { position in
            let offset = Int(position)
            guard offset > 0, offset < starts.count else { return nil }
            return starts[offset]
        }
    }
}
