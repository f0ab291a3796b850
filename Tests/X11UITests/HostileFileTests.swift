import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Files another user or program placed where X11UI reads: a FIFO opens at once and is
/// refused; a cursor file's sizes are checked before libXcursor sees them; a cache folder
/// others may write in is not used; warnings are written once and quote values short.
@Suite(.serialized)
struct HostileFileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "x11ui-hostile-files-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// A FIFO at `name` in the test's folder (nobody ever writes it).
    func fifo(_ name: String) throws -> String {
        let path = folder + "/" + name
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func aFIFOOrAFolderIsNotReadAndDoesNotBlock() throws {
        let pipe = try fifo("pipe")
        #expect(FileBytes.read(pipe, atMost: 1 << 20) == nil)
        #expect(FileBytes.read(folder, atMost: 1 << 20) == nil)
        #expect(FileBytes.read("/dev/zero", atMost: 1 << 20) == nil)
        #expect(FontFile(path: pipe) == nil && !FontFile.isOpenable(pipe))
        // A symbolic link is followed only where one is expected.
        let target = folder + "/target"
        try Data("x".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: target)
        #expect(FileBytes.read(folder + "/link", atMost: 16) == [UInt8(ascii: "x")])
        #expect(FileBytes.read(folder + "/link", atMost: 16, followsSymlinks: false) == nil)
    }

    @Test @MainActor func aStoreThatIsAFIFOOrTooLargeIsNotReadAndAFolderOthersWriteIsNotUsed() throws {
        let store = try #require(FontMatchStore(folder: folder))
        try? FileManager.default.removeItem(atPath: store.path)
        _ = try fifo((store.path as NSString).lastPathComponent)
        let again = try #require(FontMatchStore(folder: folder))  // returns: the FIFO is not waited on
        #expect(!again.loadedValid)
        // 16 MiB of empty lines with a valid checksum: not read at all.
        try FileManager.default.removeItem(atPath: store.path)
        let empty = Array(again.environment.utf8) + [UInt8](repeating: 0x0A, count: 16 << 20)
        try Data(FontMatchStore.sealed(empty)).write(to: URL(fileURLWithPath: store.path))
        #expect(!(try #require(FontMatchStore(folder: folder))).loadedValid)
        // A folder others may write in: no store.
        chmod(folder, 0o777)
        #expect(FontMatchStore(folder: folder) == nil)
        #expect(CacheFolder.refusal(of: folder)?.contains("0777") == true)
        chmod(folder, 0o700)
        #expect(CacheFolder.refusal(of: folder) == nil)
    }

    @Test func aTemporaryFilePlacedBeforehandIsNeverWritten() throws {
        let victim = folder + "/victim"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        // Links at every name a pid-based writer would use.
        for pid in [getpid(), getpid() + 1] { link(victim, folder + "/file.\(pid).tmp") }
        #expect(CacheFolder(path: folder).write(Array("new".utf8), as: "file"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
        #expect(try String(contentsOfFile: folder + "/file", encoding: .utf8) == "new")
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/file")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// An Xcursor file with one image of `width` × `height` at nominal size `nominal`, its
    /// pixels left to a sparse file's holes.
    func cursorFile(_ name: String, nominal: Int, width: Int, height: Int) throws -> String {
        let path = folder + "/" + name
        let words: [UInt32] = [
            0x7275_6358, 16, 0x1_0000, 1, 0xfffd_0002, UInt32(nominal), 28,
            36, 0xfffd_0002, UInt32(nominal), 1, UInt32(width), UInt32(height), 0, 0, 0,
        ]
        let bytes = words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        truncate(path, off_t(bytes.count + 4 * width * height))
        return path
    }

    @Test func cursorImagesLargerThanFourTimesTheSizeAreNotLoaded() throws {
        let fine = try cursorFile("fine", nominal: 24, width: 24, height: 24)
        let checked = try #require(try CursorFile.checkedImages(at: fine, size: 24)?.get())
        #expect(checked.count == 16 + 12 + 36 + 4 * 24 * 24)
        let large = try cursorFile("large", nominal: 24, width: 4096, height: 4096)
        #expect(throws: CursorFile.Refusal.self) { try CursorFile.checkedImages(at: large, size: 24)?.get() }
        let sparse = try cursorFile("sparse", nominal: 24, width: 0x7fff, height: 0x7fff)
        #expect(throws: CursorFile.Refusal.self) { try CursorFile.checkedImages(at: sparse, size: 24)?.get() }
        let pipe = try fifo("text")
        #expect(throws: CursorFile.Refusal.self) { try CursorFile.checkedImages(at: pipe, size: 24)?.get() }
        #expect(CursorFile.checkedImages(at: folder + "/missing", size: 24) == nil)
    }

    @Test func aCursorThemeWithAFIFOFallsBackToTheThemeItInherits() throws {
        try TestCursorTheme.write(
            "base", in: folder, cursors: ["text": [TestCursorTheme.Image(nominalSize: 24, color: 0xff00_ff00)]])
        try FileManager.default.createDirectory(atPath: folder + "/hostile/cursors", withIntermediateDirectories: true)
        try "[Icon Theme]\nInherits = hostile ; base\n".write(
            toFile: folder + "/hostile/index.theme", atomically: true, encoding: .utf8)
        try #require(mkfifo(folder + "/hostile/cursors/text", 0o600) == 0)
        let search = CursorThemeSearch(path: folder)
        let found = try #require(search.images(of: "text", theme: "hostile", size: 24))
        #expect(found.count == 16 + 12 + 36 + 4 * 24 * 24)
        #expect(search.images(of: "pointer", theme: "hostile", size: 24) == nil)
    }

    @Test func eachWarningIsAdmittedOnceAndTheLedgerIsBounded() {
        var ledger = WarningLedger()
        #expect(ledger.admit("a") == .write)
        #expect(ledger.admit("b") == .write)
        for _ in 0..<1000 {
            #expect(ledger.admit("a") == .heldBack)
            #expect(ledger.admit("b") == .heldBack)
        }
        for index in 2..<(WarningLedger.capacity - 1) { #expect(ledger.admit("w\(index)") == .write) }
        #expect(ledger.admit("last") == .writeThenStop)
        #expect(ledger.admit("one more") == .heldBack)
    }

    @Test func valuesAreQuotedShort() {
        let long = String(repeating: "v", count: 60_064)
        let quoted = Log.quoted(long)
        #expect(quoted.count == Log.quotedLength + 3 && quoted.hasSuffix("…\""))
        #expect(Log.quoted("short") == "\"short\"")
    }
}
