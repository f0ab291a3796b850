internal import CX11
internal import Glibc

/// Fontconfig's answers to a program's font requests, kept from one run to the next in the
/// user's cache folder, so that a program asking for the fonts it asked for before opens them
/// without loading fontconfig's configuration.
///
/// Loading the configuration is most of what a program does before its first window maps:
/// Debian's 60 or so XML files, 30 million instructions, parsed again by every program that
/// matches a font. Once the answers are known, opening a font needs only the match: its file,
/// face index, size and rendering options, and the character set Xft and X11UI look characters
/// up in. So the store keeps, for each request, the match fontconfig gave, value for value
/// (doubles by their bits, character sets page by page), and gives it back as a new pattern
/// that `FcPatternEqual` finds equal to the one fontconfig made; a match that does not come
/// back equal is not kept.
///
/// An answer holds while everything it came from is as it was:
/// - the request, with the values `XftDefaultSubstitute` adds to it (the display's dpi,
///   subpixel order and `Xft.*` resources), and fontconfig's own defaults (language, program
///   name), which are the key;
/// - the environment fontconfig reads (`FONTCONFIG_FILE`, `FONTCONFIG_PATH`,
///   `FONTCONFIG_SYSROOT`, the locale's variables, `HOME`, the XDG folders) and fontconfig's
///   version: these name the file, and the file repeats them;
/// - the configuration's files and the folders they are in, its font folders and every folder
///   under them, and the user's configuration files, there or not: the store records each
///   one's device, inode, size and change times, and a start that finds any of them changed
///   (a font installed or removed, a configuration file edited, added or removed) drops every
///   answer and asks fontconfig again. This is the test fontconfig applies to its own caches
///   (a folder's times), made stricter (its configuration files too).
///
/// A stored match whose font can no longer be opened also drops the store, and so does a file
/// whose bytes are not those written: its last line is a checksum of the rest (a changed byte
/// in a stored size would otherwise draw every later run's text at another size). Nothing here
/// is needed for correctness: without a cache folder, or with one that cannot be written, fonts
/// are matched as before.
///
/// The file is input like any other: the checksum is public, so anyone who can write the
/// folder can forge a store. It is read only from a folder that is the user's own and not
/// writable by others (``CacheFolder``), only when it is a regular file (not a FIFO, a device
/// or a symbolic link: opened without blocking), of at most ``largestFileSize`` bytes (a
/// larger one is not read at all, and is replaced at the next save), with at most
/// ``largestAnswerCount`` answers and ``largestPathCount`` watched paths and no empty line;
/// a font file a stored answer names is opened the same way (`FontFile`), so a FIFO named
/// there is a font that cannot be opened: the store is dropped.
@MainActor
final class FontMatchStore {
    /// The process's store, in the user's cache folder; nil without one, or when
    /// `X11UI_FONT_MATCHES` is `0` (every font is matched by fontconfig, as on a first start).
    static let shared: FontMatchStore? = Environment.value("X11UI_FONT_MATCHES") == "0" ? nil : FontMatchStore()

    /// The store's file: `font-matches-<hash of the environment>` in `folder`.
    let path: String
    let folder: String
    private var cacheFolder: CacheFolder { CacheFolder(path: folder) }
    private var fileName: String { String(path.dropFirst(folder.utf8.count + 1)) }
    /// The environment the answers hold in (see the type's comment), as written in the file.
    let environment: String
    /// The answers: request key → match, both as `FontPatternText.serialize(_:)` writes them.
    private var answers: [String: ArraySlice<UInt8>] = [:]
    /// The paths whose state the answers depend on, with that state (`-` when missing).
    private var watched: [(path: String, state: String)] = []
    /// Whether answers were added since the file was read or written.
    private(set) var isDirty = false
    /// How many requests were answered from the store, and how many were not (for tests).
    private(set) var hits = 0
    private(set) var misses = 0
    /// Whether the file was read and found to hold (for tests).
    private(set) var loadedValid = false
    /// The store files kept in the folder at most; older ones go when a new one is written.
    static let filesKept = 16
    /// The answers a file keeps at most: past that, a save keeps only those this run used (a
    /// program that zooms through many sizes does not make every later start read them all).
    static let answersKept = 128
    /// Fontconfig's matches remembered since the last save (copies, owned).
    private var pending: [(key: String, match: OpaquePointer)] = []
    /// The keys asked for or answered in this run.
    private var usedKeys: Set<String> = []
    static let formatLine = "X11UI font matches 2"
    /// The largest file read: 64 KiB for each of ``largestAnswerCount`` answers (a match with
    /// the character set of a CJK font is about 20 KiB), and its watched paths; a larger file
    /// is not read.
    static let largestFileSize = 8 << 20
    /// The most answers a file read may hold (a save keeps ``answersKept``, and those a run
    /// used beyond them).
    static let largestAnswerCount = 4 * answersKept
    /// The most watched paths a file read may hold (Debian's configuration watches about 100).
    static let largestPathCount = 4096

    /// The variables fontconfig reads to find its configuration and to pick a language.
    static let environmentVariables = [
        "FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "FC_LANG", "LC_ALL", "LC_CTYPE", "LANG",
        "LANGUAGE", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS",
    ]

    /// The store for this process's environment in `folder` (else `$XDG_CACHE_HOME/x11ui`,
    /// else `~/.cache/x11ui`), read now; nil when there is no such folder to use.
    init?(folder: String? = nil) {
        guard let folder = folder ?? Self.defaultFolder() else { return nil }
        if let refusal = CacheFolder.refusal(of: folder) {
            Log.warning(CacheFolder.warning(folder, refusal))
            return nil
        }
        var environment = "\(Self.formatLine)\nfontconfig \(FcGetVersion())\n"
        for name in Self.environmentVariables {
            if let value = getenv(name) {
                environment += "\(name)=\(FontPatternText.escape(String(cString: value)))\n"
            } else {
                environment += "\(name) unset\n"
            }
        }
        self.folder = folder
        self.environment = environment
        path = folder + "/font-matches-" + Self.hexHash(environment)
        load()
    }

    /// `$XDG_CACHE_HOME/x11ui` when that is an absolute path, else `$HOME/.cache/x11ui`.
    static func defaultFolder() -> String? {
        if let cache = getenv("XDG_CACHE_HOME"), cache.pointee == 0x2F {
            return String(cString: cache) + "/x11ui"
        }
        guard let home = getenv("HOME"), home.pointee == 0x2F else { return nil }
        return String(cString: home) + "/.cache/x11ui"
    }

    // MARK: - Answers

    /// The key of a request: the request with what `XftDefaultSubstitute` adds to it for this
    /// display (on a copy); nil when the request cannot be written out.
    static func key(for pattern: OpaquePointer, connection: DisplayConnection) -> String? {
        guard connection.isUsable, let copy = FcPatternDuplicate(pattern) else { return nil }
        defer { FcPatternDestroy(copy) }
        XftDefaultSubstitute(connection.display, connection.screen, copy)
        return FontPatternText.serialize(copy)
    }

    /// The stored match for a request key, as a new pattern the caller owns; nil when there is
    /// none.
    func match(forKey key: String) -> OpaquePointer? {
        if let waiting = pending.last(where: { $0.key == key }), let copy = FcPatternDuplicate(waiting.match) {
            hits += 1
            return copy
        }
        guard let text = answers[key], let match = FontPatternText.deserialize(text) else {
            misses += 1
            return nil
        }
        hits += 1
        usedKeys.insert(key)
        return match
    }

    /// Keeps fontconfig's match for a request key, written out at the next save (after the
    /// turn's painting) when it reads back equal; takes the pattern.
    func remember(_ match: OpaquePointer, forKey key: String) {
        pending.append((key, match))
        usedKeys.insert(key)
        isDirty = true
    }

    /// Writes out the matches remembered since the last save, each kept if it reads back equal.
    /// The first answers of a store that holds none record the paths the answers depend on
    /// (fontconfig has loaded its configuration to give them).
    private func takePending() {
        let taken = pending
        pending.removeAll()
        for (key, match) in taken {
            defer { FcPatternDestroy(match) }
            guard let text = FontPatternText.serialize(match), let back = FontPatternText.deserialize(text) else {
                continue
            }
            defer { FcPatternDestroy(back) }
            guard FcPatternEqual(match, back) != 0 else { continue }
            if watched.isEmpty {
                watched = Self.configurationPaths().map { ($0, Self.state(of: $0)) }
                guard !watched.isEmpty else { continue }
            }
            answers[key] = Array(text.utf8)[...]
        }
    }

    /// Drops every answer (a stored match named a font that cannot be opened) and the file.
    func discard() {
        answers.removeAll()
        for waiting in pending { FcPatternDestroy(waiting.match) }
        pending.removeAll()
        watched.removeAll()
        isDirty = false
        unlink(path)
    }

    isolated deinit {
        for waiting in pending { FcPatternDestroy(waiting.match) }
    }

    // MARK: - The file

    /// Reads the file; keeps its answers when its environment is this one and every watched
    /// path is as it was.
    private func load() {
        guard let bytes = FileBytes.read(path, atMost: Self.largestFileSize, followsSymlinks: false),
            let end = Self.sealedLength(of: bytes)
        else { return }
        let environmentBytes = Array(environment.utf8)
        guard bytes[..<end].starts(with: environmentBytes) else { return }
        let pathPrefix = Array("path ".utf8)
        let matchPrefix = Array("match ".utf8)
        var watched: [(path: String, state: String)] = []
        var answers: [String: ArraySlice<UInt8>] = [:]
        for line in Self.lines(of: bytes, from: environmentBytes.count, to: end) {
            guard !line.isEmpty, watched.count <= Self.largestPathCount, answers.count <= Self.largestAnswerCount
            else { return }
            let text = bytes[line]
            guard let tab = Self.find(UInt8(ascii: "\t"), in: bytes, line) else { return }
            if text.starts(with: pathPrefix) {
                let state = String(decoding: bytes[(line.lowerBound + pathPrefix.count)..<tab], as: UTF8.self)
                let path = FontPatternText.unescape(bytes[(tab + 1)..<line.upperBound])
                guard Self.state(of: path) == state else { return }
                watched.append((path, state))
            } else if text.starts(with: matchPrefix) {
                let key = String(decoding: bytes[(line.lowerBound + matchPrefix.count)..<tab], as: UTF8.self)
                answers[key] = bytes[(tab + 1)..<line.upperBound]
            } else {
                return
            }
        }
        guard !watched.isEmpty else { return }
        self.watched = watched
        self.answers = answers
        loadedValid = true
    }

    /// The ranges of the lines of `bytes` from `start`, without their line feeds. (`memchr`: a
    /// store is read at every start, and its lines are kilobytes long.)
    private static func lines(of bytes: [UInt8], from start: Int, to limit: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = start
        while start < limit {
            let end = find(UInt8(ascii: "\n"), in: bytes, start..<limit) ?? limit
            ranges.append(start..<end)
            start = end + 1
        }
        return ranges
    }

    /// The index of the first `byte` in `bytes[range]`, if any.
    private static func find(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !range.isEmpty,
                let found = memchr(base + range.lowerBound, Int32(byte), range.count)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// Writes the answers when some were added, replacing the file whole (``CacheFolder``).
    /// Returns whether the file holds the answers now.
    @discardableResult
    func saveIfNeeded() -> Bool {
        guard isDirty else { return true }
        isDirty = false
        takePending()
        if answers.count > Self.answersKept { answers = answers.filter { usedKeys.contains($0.key) } }
        var text = environment
        for entry in watched { text += "path \(entry.state)\t\(FontPatternText.escape(entry.path))\n" }
        for (key, value) in answers.sorted(by: { $0.key < $1.key }) {
            text += "match \(key)\t\(String(decoding: value, as: UTF8.self))\n"
        }
        guard cacheFolder.write(Self.sealed(Array(text.utf8)), as: fileName) else { return false }
        removeOldFiles()
        return true
    }

    /// Keeps the `filesKept` newest store files of the folder (other environments' stores: a
    /// program run with a configuration of its own, a test's).
    private func removeOldFiles() {
        let stores = cacheFolder.files(named: "font-matches-")
        guard stores.count > Self.filesKept else { return }
        for old in stores.sorted(by: { $0.changed > $1.changed }).dropFirst(Self.filesKept) {
            cacheFolder.remove(old.name)
        }
    }
}
