import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Fontconfig's answers kept between runs: written out and read back equal, value for value;
/// answered from the file by a later store; dropped when what they depend on changes.
@Suite(.serialized)
@MainActor
final class FontMatchStoreTests {
    let display: InProcessDisplay
    var connection: DisplayConnection { display.app.connection }
    let folder: String

    init() throws {
        display = try InProcessDisplay()
        folder = NSTemporaryDirectory() + "x11ui-font-matches-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    private func request(
        _ family: String, _ pixelSize: Double, character: UInt32? = nil, color: Bool = false
    )
        -> OpaquePointer
    {
        let pattern = FcPatternCreate()!
        FcPatternAddString(pattern, "family", family)
        FcPatternAddDouble(pattern, "pixelsize", pixelSize)
        FcPatternAddInteger(pattern, "weight", 80)
        if let character {
            let charset = FcCharSetCreate()!
            FcCharSetAddChar(charset, character)
            FcPatternAddCharSet(pattern, "charset", charset)
            FcCharSetDestroy(charset)
            FcPatternAddBool(pattern, color ? "color" : "scalable", 1)
        }
        return pattern
    }

    private func xftMatch(_ pattern: OpaquePointer) -> OpaquePointer? {
        var result = FcResultNoMatch
        return XftFontMatch(connection.display, connection.screen, pattern, &result)
    }

    /// A store in the test's folder told fontconfig's match for sans-serif at 13 pixels (after
    /// `edit`), and saved; with the request (the caller's to destroy) and its key.
    private func storeWithOneAnswer(
        edit: (OpaquePointer) -> Void = { _ in }
    ) throws -> (store: FontMatchStore, pattern: OpaquePointer, key: String) {
        let store = try #require(FontMatchStore(folder: folder))
        let pattern = request("sans-serif", 13)
        guard let key = FontMatchStore.key(for: pattern, connection: connection), let match = xftMatch(pattern) else {
            FcPatternDestroy(pattern)
            throw XvfbServer.StartError(description: "no match for sans-serif")
        }
        defer { FcPatternDestroy(match) }
        edit(match)
        store.remember(FcPatternDuplicate(match)!, forKey: key)
        #expect(store.saveIfNeeded())
        return (store, pattern, key)
    }

    /// The store's file without its checksum line, as text.
    private func body(of store: FontMatchStore) throws -> String {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.path)))
        let end = try #require(FontMatchStore.sealedLength(of: bytes))
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Writes `body` as the store's file, with its checksum (as a store writes it).
    private func write(_ body: String, to store: FontMatchStore) throws {
        try Data(FontMatchStore.sealed(Array(body.utf8))).write(to: URL(fileURLWithPath: store.path))
    }

    /// Latin, Korean, Hindi, Arabic and colour emoji: each match (a character set of thousands
    /// of characters, languages, a matrix-free face with its file and rendering options) is
    /// written out and read back equal to the one fontconfig made.
    @Test(
        arguments: [
            ("sans-serif", nil, false), ("DejaVu Sans", nil, false), ("monospace", nil, false),
            ("sans-serif", 0xD55C, false), ("sans-serif", 0x0915, false), ("sans-serif", 0x0628, false),
            ("sans-serif", 0x1F600, true),
        ] as [(String, UInt32?, Bool)])
    func matchesAreReadBackEqual(family: String, character: UInt32?, color: Bool) throws {
        let pattern = request(family, 13, character: character, color: color)
        defer { FcPatternDestroy(pattern) }
        let match = try #require(xftMatch(pattern))
        defer { FcPatternDestroy(match) }
        let text = try #require(FontPatternText.serialize(match))
        #expect(!text.contains("\n") && !text.contains("\t"))
        let back = try #require(FontPatternText.deserialize(text))
        defer { FcPatternDestroy(back) }
        #expect(FcPatternEqual(match, back) != 0)
        #expect(FontPatternText.serialize(back) == text)
        // Its character set has every character, not only the one asked for.
        var charset: OpaquePointer?
        #expect(FcPatternGetCharSet(back, "charset", 0, &charset) == FcResultMatch)
        #expect(FcCharSetCount(charset) > 100)
    }

    @Test func textThatIsNotAPatternIsRefused() {
        for text in ["family", "family=xs", "size=sdzz", "charset=sc1.2", "x=s", "weight=si80,", "a=wz1"] {
            let pattern = FontPatternText.deserialize(text)
            #expect(pattern == nil, "\(text)")
            if let pattern { FcPatternDestroy(pattern) }
        }
    }

    @Test(arguments: ["plain", "a b,c;d:e=f%g", "tab\there\nnewline", "한국어 글꼴", "\u{7F}\u{1}"])
    func escapedStringsComeBack(text: String) {
        let escaped = FontPatternText.escape(text)
        #expect(!escaped.contains { ",;:= \t\n".contains($0) })
        #expect(FontPatternText.unescape(escaped[...]) == text)
    }

    /// A second store on the same folder (a later run) answers what the first was told, with
    /// the same pattern, and fontconfig's configuration is not asked for it.
    @Test func aLaterStoreAnswersWhatAnEarlierOneWasTold() throws {
        let first = try #require(FontMatchStore(folder: folder))
        #expect(!first.loadedValid)
        let requests = [
            request("sans-serif", 13), request("sans-serif", 11), request("sans-serif", 13, character: 0xD55C),
        ]
        defer { requests.forEach { FcPatternDestroy($0) } }
        var told: [OpaquePointer] = []
        defer { told.forEach { FcPatternDestroy($0) } }
        for pattern in requests {
            let key = try #require(FontMatchStore.key(for: pattern, connection: connection))
            #expect(first.match(forKey: key) == nil)
            let match = try #require(xftMatch(pattern))
            first.remember(FcPatternDuplicate(match)!, forKey: key)
            told.append(match)
        }
        #expect(first.isDirty)
        #expect(first.saveIfNeeded())
        #expect(!first.isDirty)
        // Readable by the user alone.
        let attributes = try FileManager.default.attributesOfItem(atPath: first.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let later = try #require(FontMatchStore(folder: folder))
        #expect(later.loadedValid)
        for (pattern, match) in zip(requests, told) {
            let key = try #require(FontMatchStore.key(for: pattern, connection: connection))
            let answer = try #require(later.match(forKey: key))
            defer { FcPatternDestroy(answer) }
            #expect(FcPatternEqual(answer, match) != 0)
        }
        #expect(later.hits == 3 && later.misses == 0)
        // Another size is another request: not answered.
        let other = request("sans-serif", 17)
        defer { FcPatternDestroy(other) }
        #expect(later.match(forKey: try #require(FontMatchStore.key(for: other, connection: connection))) == nil)
    }

    /// The answers hold while the configuration is as it was: a configuration file or font
    /// folder that changes, appears or goes drops them all.
    @Test func aChangedWatchedPathDropsTheAnswers() throws {
        let (store, pattern, key) = try storeWithOneAnswer()
        defer { FcPatternDestroy(pattern) }
        let text = try body(of: store)
        // The configuration's files and the font folders are watched.
        #expect(text.contains("\t/etc/fonts/fonts.conf\n"))
        #expect(text.contains("\t/etc/fonts/conf.d\n"))
        #expect(text.contains("\t/usr/share/fonts\n"))
        #expect(try #require(FontMatchStore(folder: folder)).loadedValid)

        // A watched path that changes: the file says it as it was, the path is now otherwise.
        let watchedFile = folder + "/watched.conf"
        #expect(FileManager.default.createFile(atPath: watchedFile, contents: Data("a".utf8)))
        let recorded = "path \(FontMatchStore.state(of: watchedFile))\t\(FontPatternText.escape(watchedFile))\n"
        let withWatched = text.replacingOccurrences(of: "\nmatch ", with: "\n" + recorded + "match ")
        try write(withWatched, to: store)
        #expect(try #require(FontMatchStore(folder: folder)).loadedValid)
        try Data("ab".utf8).write(to: URL(fileURLWithPath: watchedFile))
        let afterEdit = try #require(FontMatchStore(folder: folder))
        #expect(!afterEdit.loadedValid)
        #expect(afterEdit.match(forKey: key) == nil)
        // A path recorded as missing that now exists (a user configuration file created).
        let created = folder + "/created.conf"
        let missing = "path -\t\(FontPatternText.escape(created))\n"
        try write(text.replacingOccurrences(of: "\nmatch ", with: "\n" + missing + "match "), to: store)
        #expect(try #require(FontMatchStore(folder: folder)).loadedValid)
        #expect(FileManager.default.createFile(atPath: created, contents: Data()))
        #expect(!(try #require(FontMatchStore(folder: folder)).loadedValid))
        // Another environment's file is not read (its first lines differ).
        try write(text.replacingOccurrences(of: "\nHOME=", with: "\nHOME=/elsewhere"), to: store)
        #expect(!(try #require(FontMatchStore(folder: folder)).loadedValid))
    }

    /// A file whose bytes are not those written is not read: a stored size changed by one digit
    /// (which would draw every later run's text at that size), one byte anywhere, a file cut
    /// short or grown. The same file as written is read.
    @Test func aFileWithChangedBytesIsNotRead() throws {
        let (store, pattern, key) = try storeWithOneAnswer()
        defer { FcPatternDestroy(pattern) }
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.path)))
        func reads(_ bytes: [UInt8]) throws -> Bool {
            try Data(bytes).write(to: URL(fileURLWithPath: store.path))
            let later = try #require(FontMatchStore(folder: folder))
            let answer = later.match(forKey: key)
            defer { answer.map { FcPatternDestroy($0) } }
            #expect(later.loadedValid == (answer != nil))
            return later.loadedValid
        }
        #expect(try reads(written))
        // The answer's pixel size, 13 (0x402a000000000000), made 18 (0x4032...).
        let text = String(decoding: written, as: UTF8.self)
        let size = "pixelsize=sd402a000000000000"
        let valueStart = try #require(text.range(of: "\t", options: .backwards)).upperBound
        #expect(text[valueStart...].contains(size))
        let resized =
            text[..<valueStart]
            + text[valueStart...].replacingOccurrences(of: size, with: "pixelsize=sd4032000000000000")
        #expect(resized != text)
        #expect(try !reads(Array(resized.utf8)))
        // Any one byte changed, the checksum line's included.
        for offset in stride(from: 0, to: written.count, by: max(1, written.count / 97)) + [written.count - 2] {
            var changed = written
            changed[offset] ^= 0x01
            #expect(try !reads(changed), "byte \(offset) of \(written.count) changed")
        }
        // Cut short (at a line's end, or in its middle), grown, or without its checksum line.
        let lineEnds = written.indices.filter { written[$0] == UInt8(ascii: "\n") }
        #expect(try !reads(Array(written[...lineEnds[lineEnds.count - 2]])))
        #expect(try !reads(Array(written[..<(written.count / 2)])))
        #expect(try !reads(written + Array("match x\ty\n".utf8)))
        #expect(try !reads([]))
        // And the file as written still reads.
        #expect(try reads(written))
    }

    /// A stored answer naming a font file that is gone drops the store; fontconfig is asked and
    /// the font opens, and its answer is kept.
    @Test func aStoredFontThatCannotOpenDropsTheStore() throws {
        let (store, pattern, key) = try storeWithOneAnswer { match in
            FcPatternDel(match, "file")
            FcPatternAddString(match, "file", "/nonexistent/font.ttf")
        }
        defer { FcPatternDestroy(pattern) }
        let face = try #require(
            FontFace.open(pattern: pattern, connection: connection, library: FreeTypeLibrary(), store: store))
        #expect(face.font.pointee.ascent > 0)
        #expect(store.hits == 1)
        #expect(!FileManager.default.fileExists(atPath: store.path) || store.isDirty)
        // fontconfig's own answer replaced it.
        let again = try #require(store.match(forKey: key))
        defer { FcPatternDestroy(again) }
        var file: UnsafeMutablePointer<FcChar8>?
        #expect(FcPatternGetString(again, "file", 0, &file) == FcResultMatch)
        #expect(String(cString: try #require(file)) != "/nonexistent/font.ttf")
    }

    /// A forged store (its checksum is public) whose answer names a FIFO as the font's file:
    /// the font is not opened from it (a blocking open would wait for ever), the store is
    /// dropped and fontconfig's answer opens.
    @Test func aStoredFontThatIsAFIFOIsNotOpenedAndDropsTheStore() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let pipe = folder + "/font.ttf"
        try #require(mkfifo(pipe, 0o600) == 0)
        // FreeType's way (X11UI opens the file), then Xft's own (it opens the file by name).
        for library in [FreeTypeLibrary(), nil] {
            let (_, pattern, _) = try storeWithOneAnswer { match in
                FcPatternDel(match, "file")
                FcPatternAddString(match, "file", pipe)
            }
            defer { FcPatternDestroy(pattern) }
            let later = try #require(FontMatchStore(folder: folder))
            #expect(later.loadedValid)
            let face = try #require(
                FontFace.open(pattern: pattern, connection: connection, library: library, store: later))
            #expect(face.font.pointee.ascent > 0)
            #expect(later.hits == 1, "the stored answer was tried")
            #expect(!FileManager.default.fileExists(atPath: later.path) || later.isDirty, "and the store dropped")
        }
    }

    /// Without a folder it can write (a file where the folder should be), nothing is kept and
    /// fonts still open.
    @Test func anUnwritableFolderKeepsNothing() throws {
        #expect(FileManager.default.createFile(atPath: folder, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try #require(FontMatchStore(folder: folder + "/x11ui"))
        let pattern = request("sans-serif", 13)
        defer { FcPatternDestroy(pattern) }
        #expect(
            FontFace.open(pattern: pattern, connection: connection, library: FreeTypeLibrary(), store: store) != nil)
        #expect(store.isDirty)
        #expect(!store.saveIfNeeded())
    }

    /// Past `answersKept` answers, a save keeps those the run used.
    @Test func aFullStoreKeepsTheAnswersThisRunUsed() throws {
        let store = try #require(FontMatchStore(folder: folder))
        let pattern = request("sans-serif", 13)
        defer { FcPatternDestroy(pattern) }
        let match = try #require(xftMatch(pattern))
        defer { FcPatternDestroy(match) }
        for index in 0..<FontMatchStore.answersKept {
            store.remember(FcPatternDuplicate(match)!, forKey: "old\(index)")
        }
        #expect(store.saveIfNeeded())
        let later = try #require(FontMatchStore(folder: folder))
        let used = try #require(later.match(forKey: "old7"))
        FcPatternDestroy(used)
        later.remember(FcPatternDuplicate(match)!, forKey: "new")
        #expect(later.saveIfNeeded())
        let third = try #require(FontMatchStore(folder: folder))
        for key in ["old7", "new"] {
            let answer = try #require(third.match(forKey: key), "\(key)")
            FcPatternDestroy(answer)
        }
        #expect(third.match(forKey: "old8") == nil)
    }

    /// Old stores of other environments go when there are more than `filesKept`.
    @Test func onlyTheNewestStoresAreKept() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<(FontMatchStore.filesKept + 4) {
            let path = folder + "/font-matches-old\(index)"
            #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
            let date = Date(timeIntervalSinceNow: -Double(1000 - index))
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
        }
        let store = try #require(FontMatchStore(folder: folder))
        let pattern = request("sans-serif", 13)
        defer { FcPatternDestroy(pattern) }
        let match = try #require(xftMatch(pattern))
        defer { FcPatternDestroy(match) }
        let key = try #require(FontMatchStore.key(for: pattern, connection: connection))
        store.remember(FcPatternDuplicate(match)!, forKey: key)
        #expect(store.saveIfNeeded())
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("font-matches-") }
        #expect(names.count == FontMatchStore.filesKept)
        #expect(names.contains((store.path as NSString).lastPathComponent))
        #expect(!names.contains("font-matches-old0"))
    }
}
