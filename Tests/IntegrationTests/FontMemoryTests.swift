import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// What an open font keeps in memory: Xft's glyph table only where glyphs are, and a CFF font
/// read from a map of its file (TrueType through a stream), with the same glyphs either way.
@Suite(.serialized)
@MainActor
final class FontMemoryTests {
    let display: InProcessDisplay
    var connection: DisplayConnection { display.app.connection }

    init() throws {
        display = try InProcessDisplay()
    }

    private func fontSet(_ font: X11UI.Font, _ library: FreeTypeLibrary?) -> FontSet {
        FontSet(font: font, scale: 1, connection: connection, library: library)
    }

    /// How many of the pages from `start` (rounded up to a page) to `end` (rounded down) are
    /// resident, by `mincore`.
    private func residentPages(from start: UInt, to end: UInt) -> Int {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let first = (start + page - 1) / page * page
        let last = end / page * page
        guard last > first else { return 0 }
        var vector = [UInt8](repeating: 0, count: Int((last - first) / page))
        let result = mincore(UnsafeMutableRawPointer(bitPattern: first), Int(last - first), &vector)
        #expect(result == 0)
        return vector.filter { $0 & 1 != 0 }.count
    }

    @Test func xftsGlyphTableHoldsNoPageBeforeAGlyphIsLoaded() throws {
        let library = try #require(FreeTypeLibrary())
        let body = fontSet(.body, library)
        let face = try #require(body.fontFaces.first?.shared)
        let glyphs = Int(face.face.pointee.num_glyphs) + 1
        let font = UInt(bitPattern: body.faces[0])
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        // Past the font record's page, to the table's end: several pages for DejaVu Sans.
        let start = font + page
        let end = font + UInt(glyphs * MemoryLayout<UnsafeRawPointer>.size)
        #expect((end - start) / page >= 8, "a table of \(glyphs) glyphs")
        #expect(residentPages(from: start, to: end) == 0)

        // Glyphs load and measure as from a font Xft opened itself (whose table is whole).
        let xfts = fontSet(.body, nil)
        #expect(xfts.fontFaces.first?.shared == nil)
        for text in ["The quick brown fox jumps over the lazy dog.", "Ünïcödé ÆØÅ ß ñ", "Ωμέγα Кириллица"] {
            #expect(body.width(of: text[...]) == xfts.width(of: text[...]), "\(text)")
            #expect(body.inkBounds(of: text[...]) == xfts.inkBounds(of: text[...]), "\(text)")
        }
        #expect(residentPages(from: start, to: end) < (end - start) / page, "only where glyphs were stored")
    }

    /// A CFF font installed for these tests (fonts-urw-base35, a `make deps` package).
    private static let cffFamily = "Nimbus Sans"

    @Test func aCFFFontIsReadFromAMapOfItsFileAndTrueTypeThroughAStream() throws {
        let library = try #require(FreeTypeLibrary())
        let cff = fontSet(Font(family: Self.cffFamily, size: 15), library)
        let face = try #require(cff.fontFaces.first?.shared)
        try #require(face.file.hasSuffix(".otf"), "\(Self.cffFamily) is \(face.file): fonts-urw-base35 missing?")
        let base = try #require(face.mapping)
        #expect(isMapped(face.file, at: base))
        // What FreeType read to open the face is let go; glyphs bring in what they read.
        #expect(residentKB(at: base) == 0)
        #expect(cff.width(of: "Glyphs") > 0)
        #expect((residentKB(at: base) ?? 0) > 0)
        let trueType = fontSet(.body, library)
        let dejaVu = try #require(trueType.fontFaces.first?.shared)
        #expect(dejaVu.mapping == nil)

        // The same glyphs as Xft's own opening of the font (FreeType maps it by path).
        let xfts = fontSet(Font(family: Self.cffFamily, size: 15), nil)
        #expect(xfts.fontFaces.first?.shared == nil)
        for text in ["The quick brown fox jumps over the lazy dog.", "Ünïcödé ÆØÅ ß ñ", "fi fl ffi 0123456789"] {
            #expect(cff.width(of: text[...]) == xfts.width(of: text[...]), "\(text)")
            #expect(cff.inkBounds(of: text[...]) == xfts.inkBounds(of: text[...]), "\(text)")
        }
    }

    @Test func aMappedFileIsUnmappedWithItsLastFont() throws {
        let library = try #require(FreeTypeLibrary())
        var regular: FontSet? = fontSet(Font(family: Self.cffFamily, size: 13), library)
        var large: FontSet? = fontSet(Font(family: Self.cffFamily, size: 30), library)
        let file = try #require(regular?.fontFaces.first?.shared?.file)
        let base = try #require(regular?.fontFaces.first?.shared?.mapping)
        #expect(isMapped(file, at: base))
        #expect(large?.fontFaces.first?.shared === regular?.fontFaces.first?.shared)
        #expect((large?.width(of: "Wide") ?? 0) > (regular?.width(of: "Wide") ?? 0))
        regular = nil
        #expect(isMapped(file, at: base), "the large size still uses it")
        #expect((large?.width(of: "Still drawn") ?? 0) > 0)
        large = nil
        #expect(!isMapped(file, at: base))
    }

    /// The resident size of the map starting at `base` (`/proc/self/smaps`), nil if none does.
    private func residentKB(at base: UnsafeMutableRawPointer) -> Int? {
        let smaps = procFile("smaps") ?? ""
        let start = String(UInt(bitPattern: base), radix: 16) + "-"
        var inMap = false
        for line in smaps.split(separator: "\n") {
            if line.first?.isHexDigit == true, line.contains("-"), !line.hasSuffix(":") {
                if inMap { return nil }
                inMap = line.hasPrefix(start)
            } else if inMap, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        return nil
    }

    /// Whether `/proc/self/maps` has a map of `file` starting at `base`. (Other suites' fonts
    /// opened by Xft map their files too, FreeType's way: the address tells X11UI's own.)
    private func isMapped(_ file: String, at base: UnsafeMutableRawPointer) -> Bool {
        let maps = procFile("maps") ?? ""
        let start = String(UInt(bitPattern: base), radix: 16) + "-"
        let path = URL(fileURLWithPath: file).resolvingSymlinksInPath().path  // as the kernel names it
        return maps.split(separator: "\n").contains { $0.hasPrefix(start) && $0.hasSuffix(path) }
    }
}
