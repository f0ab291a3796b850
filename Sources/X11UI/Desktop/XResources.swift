internal import Glibc

/// A parsed X resource database (the RESOURCE_MANAGER text that `xrdb` loads).
///
/// Lookups follow `xrdb` semantics: a query names a full path of names and classes
/// (`tooltip-demo.toolTip.background`, `X11UI.ToolTip.Background`); entries may bind loosely
/// with `*` or skip one level with `?`; the most specific entry wins (names before classes,
/// tight before loose bindings, earlier levels weigh most). Bad lines are skipped.
public struct XResources: Sendable {
    struct Entry: Sendable {
        /// Components with the binding that precedes each: true for loose (`*`).
        var components: [(loose: Bool, name: Substring)]
        var value: String
    }

    private(set) var entries: [Entry] = []
    /// Entry indices by their last component: a query's last level must match an entry's last
    /// component (by name, class or `?`), so a lookup reads only those entries.
    private var byLastComponent: [Substring: [Int]] = [:]

    /// The most text parsed: the first 256 KiB (a desktop's resources are a few kilobytes, a
    /// large hand-written `.Xresources` some tens); the rest is ignored, with a warning.
    public static let maximumSize = 256 << 10

    /// The most entries kept: the first 1024 that can match (the attributes a program asks
    /// for are a few dozen); the rest are ignored, with a warning, and cost no parsing.
    public static let maximumEntries = 1024

    /// The warning past ``maximumEntries``.
    private static var tooManyEntries: String {
        "X resources beyond the first \(maximumEntries) entries X11UI reads are ignored"
    }

    /// Parses resource text; lines that are not `key: value` are skipped.
    ///
    /// - Complexity: O(n) in the text's length (at most `maximumSize` bytes are read).
    public init(_ text: String) {
        self.init(text, attributes: nil)
    }

    /// Parses resource text, keeping only entries whose last component is one of `attributes`
    /// (or `?`), when given: a program that asks for a few attributes pays for those alone.
    init(_ text: String, attributes: Set<String>?) {
        if text.utf8.count > Self.maximumSize {
            Log.warning("X resources beyond the first \(Self.maximumSize / 1024) KiB are ignored")
        }
        var full = false
        Self.forEachLine(in: Self.capped(text)) { line in
            guard !full else { return }
            if let attributes, !Self.lastComponent(of: line, isIn: attributes) { return }
            if let entry = Self.parse(line: String(line)) {
                guard entries.count < Self.maximumEntries else {
                    Log.warning(Self.tooManyEntries)
                    full = true
                    return
                }
                byLastComponent[entry.components[entry.components.count - 1].name, default: []].append(entries.count)
                entries.append(entry)
            }
        }
    }

    /// The lines of resource text (continuations joined, within `maximumSize`, the first
    /// `maximumEntries` of them) that a query whose first level is one of `programs` can match: those whose first component is one
    /// of them or `?`, and those that start with a loose binding (`*`).
    ///
    /// - Complexity: O(n) in the text's length.
    static func lines(in text: String, forPrograms programs: Set<String>) -> String {
        var kept = ""
        var count = 0
        forEachLine(in: capped(text)) { full in
            guard count <= maximumEntries else { return }
            let key = full.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            let first = key.prefix { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "*") && $0 != UInt8(ascii: ":") }
            if key.first == UInt8(ascii: "*") || first.elementsEqual("?".utf8)
                || programs.contains(String(decoding: first, as: UTF8.self))
            {
                count += 1
                guard count <= maximumEntries else {
                    Log.warning(tooManyEntries)
                    return
                }
                kept += full
                kept += "\n"
            }
        }
        return kept
    }

    /// The text up to the last line break within `maximumSize` bytes.
    private static func capped(_ text: String) -> Substring {
        guard text.utf8.count > maximumSize else { return text[...] }
        let cut = text.utf8.index(text.utf8.startIndex, offsetBy: maximumSize)
        return text[..<(text.utf8[..<cut].lastIndex(of: UInt8(ascii: "\n")) ?? text.startIndex)]
    }

    /// Calls `body` with each line of `text` (continuations joined, within `maximumSize`),
    /// finding line ends with memchr in the UTF-8 bytes (a newline is never part of a longer
    /// character).
    private static func forEachLine(in text: Substring, _ body: (Substring) -> Void) {
        let utf8 = text.utf8
        var pending = ""
        func handle(_ line: Substring) {
            var line = line
            if line.utf8.last == UInt8(ascii: "\\") {  // continuation
                line.removeLast()
                if pending.utf8.count + line.utf8.count <= 70_000 { pending += line }
                return
            }
            body(pending.isEmpty ? line : Substring(pending + line))
            pending = ""
        }
        let handled: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start <= bytes.count {
                var end = bytes.count
                if start < bytes.count, let hit = memchr(base + start, 0x0A, bytes.count - start) {
                    end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                }
                let from = utf8.index(utf8.startIndex, offsetBy: start)
                let to = utf8.index(from, offsetBy: end - start)
                handle(Substring(utf8[from..<to]))
                start = end + 1
            }
        }
        if handled == nil {
            for bytes in utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                handle(Substring(bytes))
            }
        }
    }

    /// Whether a line's key ends with one of `attributes` or `?` (a cheap test before parsing).
    private static func lastComponent(of line: Substring, isIn attributes: Set<String>) -> Bool {
        let utf8 = line.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        var end = colon
        while end > utf8.startIndex {
            let before = utf8.index(before: end)
            guard utf8[before] == UInt8(ascii: " ") || utf8[before] == UInt8(ascii: "\t") else { break }
            end = before
        }
        var start = end
        while start > utf8.startIndex {
            let before = utf8.index(before: start)
            if utf8[before] == UInt8(ascii: ".") || utf8[before] == UInt8(ascii: "*") { break }
            start = before
        }
        let name = String(line[start..<end])
        return name == "?" || attributes.contains(name)
    }

    private static func parse(line: String) -> Entry? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.first, first != "!", first != "#" else { return nil }
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let key = trimmed[..<colon].filter { $0 != " " && $0 != "\t" }
        var value = trimmed[trimmed.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        while let last = value.last, last == " " || last == "\t" { value.removeLast() }
        guard !key.isEmpty, key.utf8.count <= 1024, value.utf8.count <= 65536 else { return nil }
        var components: [(loose: Bool, name: Substring)] = []
        var loose = false
        var current = Substring()
        var start = key.startIndex
        var index = key.startIndex
        func flush(_ end: String.Index) {
            current = key[start..<end]
            if !current.isEmpty { components.append((loose, current)) }
        }
        while index < key.endIndex {
            let c = key[index]
            if c == "." || c == "*" {
                let wasEmpty = key[start..<index].isEmpty
                flush(index)
                loose = wasEmpty ? (loose || c == "*") : (c == "*")
                start = key.index(after: index)
            }
            index = key.index(after: index)
        }
        flush(key.endIndex)
        guard !components.isEmpty else { return nil }
        return Entry(components: components, value: String(value))
    }

    /// Whether the database has no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value for a dotted key given as names only (`Xft.dpi`).
    public func string(_ key: String) -> String? {
        let names = key.split(separator: ".").map(String.init)
        return string(names: names, classes: names)
    }

    /// The value of the most specific entry matching the names and classes of a full path.
    public func string(names: [String], classes: [String]) -> String? {
        precondition(names.count == classes.count, "a name and a class for every level")
        var best: (score: [Int], value: String)?
        guard let name = names.last, let cls = classes.last else { return nil }
        var candidates = byLastComponent[name[...], default: []] + byLastComponent["?", default: []]
        if cls != name { candidates += byLastComponent[cls[...], default: []] }
        // In file order, so that a later entry of equal specificity wins.
        for entry in candidates.sorted().map({ entries[$0] }) {
            guard let score = Self.match(entry.components[...], names[...], classes[...]) else { continue }
            // On equal specificity the later entry wins, as when xrdb loads a file.
            if best == nil || !best!.score.lexicographicallyPrecedes(score, by: >) { best = (score, entry.value) }
        }
        return best?.value
    }

    /// The value as a number, when it is one.
    public func double(_ key: String) -> Double? {
        string(key).flatMap { Double($0) }
    }

    /// Matches entry components against a query path; returns a per-level score (higher is
    /// more specific: 3 name, 2 class, 1 `?`, 0 skipped by `*`), or nil.
    private static func match(
        _ components: ArraySlice<(loose: Bool, name: Substring)>, _ names: ArraySlice<String>,
        _ classes: ArraySlice<String>
    ) -> [Int]? {
        guard let component = components.first else { return names.isEmpty ? [] : nil }
        guard let name = names.first, let cls = classes.first else { return nil }
        var results: [[Int]] = []
        let score: Int? =
            component.name == name ? 3 : component.name == cls ? 2 : component.name == "?" ? 1 : nil
        if let score, let rest = match(components.dropFirst(), names.dropFirst(), classes.dropFirst()) {
            // A tight binding counts a little more than a loose one at the same level.
            results.append([score * 2 + (component.loose ? 0 : 1)] + rest)
        }
        if component.loose, let rest = match(components, names.dropFirst(), classes.dropFirst()) {
            results.append([0] + rest)
        }
        return results.max { $0.lexicographicallyPrecedes($1) }
    }
}
