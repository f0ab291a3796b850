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

    /// Parses resource text; lines that are not `key: value` are skipped.
    public init(_ text: String) {
        var pending = ""
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = Substring(rawLine)
            if line.hasSuffix("\\") {  // continuation
                line.removeLast()
                pending += line
                continue
            }
            let full = pending + line
            pending = ""
            if let entry = Self.parse(line: full) { entries.append(entry) }
        }
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
        for entry in entries {
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
