internal import CX11

/// ICU's dictionary break iterator (libicuuc, the release's libicuNN: 72 on Debian 12, 76 on
/// Debian 13), for Lao, Khmer and Myanmar, and for Thai when libthai is missing: loaded the
/// first time a run of one of those scripts is broken, never linked and never loaded for other
/// text, and kept for the process's life.
@MainActor
final class ICUBreaker {
    private var icu = cx11_icu()
    /// One line break iterator per locale, opened at its first run (its dictionary with it).
    private var iterators: [String: UnsafeMutableRawPointer?] = [:]

    /// Opens the newest libicuuc of `versions` (its soname, `libicuuc.so.72`, gives the suffix
    /// of its symbols); nil, with a one-line warning, when none is there.
    init?(versions: ClosedRange<Int> = 60...80) {
        guard cx11_icu_load(&icu, Int32(versions.upperBound), Int32(versions.lowerBound)) != 0 else {
            Log.warning("ICU (libicuuc.so) cannot be loaded: Lao, Khmer and Myanmar break only at spaces")
            return nil
        }
    }

    isolated deinit {
        for iterator in iterators.values { cx11_icu_close(&icu, iterator) }
        cx11_icu_unload(&icu)
    }

    /// The library, loaded on first use; nil when it is missing.
    static let shared = ICUBreaker()

    /// The major version of the library loaded (72 on Debian 12).
    var version: Int { Int(icu.version) }

    /// The indices of `run` where ICU's line breaking for `locale` ("lo", "km", "my", "th")
    /// finds a word starting: inside a run of South East Asian letters, its line break
    /// opportunities are the dictionary's word boundaries. Neither the run's start nor its end,
    /// and never inside a grapheme cluster.
    func breaks(in run: Substring, locale: String) -> [Substring.Index] {
        let iterator: UnsafeMutableRawPointer?
        if let cached = iterators[locale] {
            iterator = cached
        } else {
            iterator = cx11_icu_open(&icu, Int32(CX11_ICU_LINE), locale)
            iterators[locale] = iterator
        }
        guard let iterator else { return [] }
        // The run in UTF-16, and the index of the character that starts at each offset.
        var units: [UInt16] = []
        var starts: [Substring.Index?] = []
        for index in run.indices {
            let character = run[index].utf16
            units.append(contentsOf: character)
            starts.append(index)
            starts.append(contentsOf: repeatElement(nil, count: character.count - 1))
        }
        guard units.count > 1, units.count < Int(Int32.max) else { return [] }
        var positions = [Int32](repeating: 0, count: units.count)
        let count = Int(
            cx11_icu_breaks(&icu, iterator, units, Int32(units.count), &positions, Int32(positions.count)))
        return positions.prefix(max(0, min(count, positions.count))).compactMap { position in
            let offset = Int(position)
            guard offset > 0, offset < starts.count else { return nil }
            return starts[offset]
        }
    }
}
