internal import CX11

/// Word boundaries in scripts written without spaces between words, for line breaking and for
/// selecting a word: Thai through libthai's dictionary (as Pango does), loaded the first time
/// a Thai run is looked at. Lao, Khmer and Myanmar have no such library in Debian outside ICU,
/// so their runs break only at spaces (or between clusters when a run is wider than a line).
@MainActor
enum WordDictionary {
    /// The indices of `run` (letters of one South East Asian script) where a word other than
    /// the first starts; empty when no dictionary covers the script.
    static func breaks(in run: Substring) -> [Substring.Index] {
        guard let first = run.unicodeScalars.first, (0x0E00...0x0E7F).contains(first.value),
            let thai = ThaiBreaker.shared
        else { return [] }
        return thai.breaks(in: run)
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
