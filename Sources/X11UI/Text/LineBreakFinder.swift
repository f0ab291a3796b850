/// Finds where lines may break, by the Unicode line breaking algorithm (UAX #14), one
/// opportunity at a time so that a megabyte of text costs only the lines laid out.
///
/// The unit is the extended grapheme cluster (a Swift `Character`): a line never breaks inside
/// one, which covers the standard's rules for combining marks, joiners, flags and emoji
/// modifiers (LB8a, LB9, LB10, LB30a, LB30b) and keeps a Hindi conjunct or a family emoji whole.
/// Runs of Thai (and other South East Asian scripts a dictionary covers) break between their
/// words as the dictionary finds them; a run no dictionary covers breaks only around it.
@MainActor
struct LineBreakFinder {
    /// Word boundaries inside a run of South East Asian letters: the indices of the run where
    /// a new word starts (neither its start nor its end); empty when nothing covers the script.
    typealias Dictionary = @MainActor (Substring) -> [Substring.Index]

    private let text: Substring
    private let dictionary: Dictionary
    /// The dictionary's breaks in the last South East Asian run looked at: lines go through a
    /// run in order, so each run is segmented once.
    private var run: (range: Range<Substring.Index>, breaks: Set<Substring.Index>)?

    /// The most characters scanned for one opportunity: past it a line may break anyway, so a
    /// 100,000-character word costs a line's worth of work per line.
    static var maxSegmentLength: Int { 256 }

    init(text: Substring, dictionary: @escaping Dictionary = WordDictionary.breaks(in:)) {
        self.text = text
        self.dictionary = dictionary
    }

    /// The first break opportunity after `start`, which is the text's start or a break
    /// opportunity: the index of the first character of the next segment. Spaces stay with the
    /// segment before them; a mandatory break (a newline) is returned as the opportunity
    /// before it. The end of the text when there is none.
    mutating func nextBreak(after start: Substring.Index) -> Substring.Index {
        nextSegment(after: start).end
    }

    /// The next segment's end as in `nextBreak(after:)`, and whether that end is a break
    /// opportunity: it is not when the segment was cut after `maxSegmentLength` characters.
    mutating func nextSegment(after start: Substring.Index) -> (end: Substring.Index, isCut: Bool) {
        guard start < text.endIndex else { return (text.endIndex, false) }
        // A line that ended inside the last segment (a word wider than the line) goes on to
        // that segment's end: no opportunity lies between.
        if let last, last.start < start, start < last.end.end { return last.end }
        let end = scan(from: start)
        last = (start, end)
        return end
    }

    /// The last segment found, from where the scan started to its end.
    private var last: (start: Substring.Index, end: (end: Substring.Index, isCut: Bool))?

    private mutating func scan(from start: Substring.Index) -> (end: Substring.Index, isCut: Bool) {
        var previous = Self.lineBreakClass(of: text[start])
        var index = text.index(after: start)
        if Self.isMandatory(previous) { return (index, false) }
        var beforePrevious: LineBreakClass?
        var spaces = false
        var count = 1
        while index < text.endIndex, count < Self.maxSegmentLength {
            let character = text[index]
            let current = Self.lineBreakClass(of: character)
            if Self.isMandatory(current) { return (index, false) }
            count += 1
            // A tab is a cluster of its own; its byte says so without comparing Characters.
            if current == .sp || character.utf8.first == 0x09 {
                spaces = true
                index = text.index(after: index)
                continue
            }
            let allowed: Bool
            if previous == .sa, current == .sa, !spaces {
                allowed = dictionaryBreak(at: index)
            } else {
                allowed = Self.breakAllowed(
                    between: previous.resolved, and: current.resolved, afterSpaces: spaces,
                    beforePrevious: beforePrevious?.resolved)
            }
            if allowed { return (index, false) }
            beforePrevious = spaces ? nil : previous
            previous = current
            spaces = false
            index = text.index(after: index)
        }
        return (index, index < text.endIndex)
    }

    /// The class of a grapheme cluster: that of its first scalar, and a cluster that starts
    /// with a combining mark or a joiner (nothing to attach to) is an alphabetic (LB10).
    static func lineBreakClass(of character: Character) -> LineBreakClass {
        guard let first = character.unicodeScalars.first else { return .al }
        switch LineBreakClass(first) {
        case .cm, .zwj: return .al
        case let other: return other
        }
    }

    private static func isMandatory(_ value: LineBreakClass) -> Bool {
        value == .bk || value == .cr || value == .lf || value == .nl
    }

    // MARK: - Dictionary runs

    private mutating func dictionaryBreak(at index: Substring.Index) -> Bool {
        if let run, run.range.lowerBound < index, index < run.range.upperBound {
            return run.breaks.contains(index)
        }
        // The run around `index`, bounded both ways like a segment.
        var lower = index
        var steps = 0
        while lower > text.startIndex, steps < Self.maxSegmentLength {
            let before = text.index(before: lower)
            guard Self.lineBreakClass(of: text[before]) == .sa else { break }
            lower = before
            steps += 1
        }
        var upper = index
        steps = 0
        while upper < text.endIndex, steps < Self.maxSegmentLength, Self.lineBreakClass(of: text[upper]) == .sa {
            upper = text.index(after: upper)
            steps += 1
        }
        let range = lower..<upper
        // Breaks the dictionary reports inside a grapheme cluster are not taken.
        let breaks = Set(dictionary(text[range]).filter { range.contains($0) && $0 > lower })
        run = (range, breaks)
        return breaks.contains(index)
    }

    // MARK: - The pair rules

    /// Whether a line may break between a character of class `before` and the next of class
    /// `after`, with spaces between them or not (UAX #14, LB7 to LB31, after LB1's resolutions;
    /// `beforePrevious` is the class before `before`, for LB21a).
    nonisolated static func breakAllowed(
        between before: LineBreakClass, and after: LineBreakClass, afterSpaces: Bool,
        beforePrevious: LineBreakClass? = nil
    ) -> Bool {
        if before == .zw { return true }  // LB8
        if after == .zw || after == .wj { return false }  // LB7, LB11
        if !afterSpaces {
            if before == .wj || before == .gl { return false }  // LB11, LB12
            if after == .gl, before != .ba, before != .hy { return false }  // LB12a
        }
        switch after {
        case .cl, .cp, .ex, .is, .sy: return false  // LB13
        default: break
        }
        if before == .op { return false }  // LB14: OP SP* ×
        if before == .qu, after == .op { return false }  // LB15: QU SP* × OP
        if before == .cl || before == .cp, after == .ns { return false }  // LB16: (CL | CP) SP* × NS
        if before == .b2, after == .b2 { return false }  // LB17
        if afterSpaces { return true }  // LB18
        if before == .qu || after == .qu { return false }  // LB19
        if before == .cb || after == .cb { return true }  // LB20
        if after == .ba || after == .hy || after == .ns || before == .bb { return false }  // LB21
        if beforePrevious == .hl, before == .hy || before == .ba { return false }  // LB21a
        if before == .sy, after == .hl { return false }  // LB21b
        if after == .in { return false }  // LB22
        let letter: (LineBreakClass) -> Bool = { $0 == .al || $0 == .hl }
        switch (before, after) {
        case (.al, .nu), (.hl, .nu), (.nu, .al), (.nu, .hl): return false  // LB23
        case (.pr, .id), (.pr, .eb), (.pr, .em), (.id, .po), (.eb, .po), (.em, .po): return false  // LB23a
        case (.pr, .al), (.pr, .hl), (.po, .al), (.po, .hl), (.al, .pr), (.hl, .pr), (.al, .po), (.hl, .po):
            return false  // LB24
        // LB25, as pairs: numbers with their prefixes, suffixes, separators and brackets.
        case (.cl, .po), (.cp, .po), (.cl, .pr), (.cp, .pr), (.nu, .po), (.nu, .pr), (.po, .op), (.po, .nu),
            (.pr, .op), (.pr, .nu), (.hy, .nu), (.is, .nu), (.nu, .nu), (.sy, .nu):
            return false
        default: break
        }
        if letter(before), letter(after) { return false }  // LB28
        if before == .is, letter(after) { return false }  // LB29
        if letter(before) || before == .nu, after == .op { return false }  // LB30
        if before == .cp, letter(after) || after == .nu { return false }  // LB30
        if before == .eb, after == .em { return false }  // LB30b
        return true  // LB31
    }
}

extension LineBreakClass {
    /// South East Asian letters outside a run of them break as alphabetics (LB1).
    fileprivate var resolved: LineBreakClass { self == .sa ? .al : self }
}
