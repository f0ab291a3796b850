import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// A font lets its FreeType face go once its text is laid out and drawn: the glyphs
/// Xft rendered draw and measure that text the same without it, and text that needs more of
/// the face (a new character, a glyph Xft gave back) opens it again from its file first.
@Suite(.serialized)
@MainActor
final class FontFaceReleaseTests {
    let display: InProcessDisplay
    var connection: DisplayConnection { display.app.connection }

    init() throws {
        display = try InProcessDisplay()
    }

    private func fontSet(_ font: X11UI.Font, _ library: FreeTypeLibrary?) -> FontSet {
        FontSet(font: font, scale: 1, connection: connection, library: library)
    }

    /// Korean, which DejaVu Sans lacks: a fallback face draws it (NanumGothic in the tests'
    /// fonts, Noto Sans CJK on a desktop that has it).
    private static let korean: Substring = "툴팁 도움말"

    /// The fallback font that draws the first character of `text` in `set`.
    private func fallback(for text: Substring, in set: FontSet) throws -> FontFace {
        let index = set.faceIndex(for: text.unicodeScalars.first!)
        try #require(index > 0, "a fallback face for \(text)")
        return set.fontFaces[index]
    }

    /// The pixels of `text` drawn in black on white by `set`, its baseline 30 pixels down a
    /// 320×44 pixmap.
    private func pixels(of text: Substring, in set: FontSet) -> [UInt32] {
        let x = connection.display
        let screen = connection.screen
        let pixmap = XCreatePixmap(x, connection.root, 320, 44, UInt32(XDefaultDepth(x, screen)))
        defer { XFreePixmap(x, pixmap) }
        let visual = XDefaultVisual(x, screen)
        let colormap = XDefaultColormap(x, screen)
        guard let draw = XftDrawCreate(x, pixmap, visual, colormap) else { return [] }
        defer { XftDrawDestroy(draw) }
        var white = XftColor()
        var black = XftColor()
        var whiteValue = XRenderColor(red: 0xffff, green: 0xffff, blue: 0xffff, alpha: 0xffff)
        var blackValue = XRenderColor(red: 0, green: 0, blue: 0, alpha: 0xffff)
        XftColorAllocValue(x, visual, colormap, &whiteValue, &white)
        XftColorAllocValue(x, visual, colormap, &blackValue, &black)
        XftDrawRect(draw, &white, 0, 0, 320, 44)
        set.draw(text, on: draw, color: &black, x: 4, y: 30, visible: 0...320)
        guard let image = XGetImage(x, pixmap, 0, 0, 320, 44, UInt(0xffff_ffff), ZPixmap) else { return [] }
        defer { _ = image.pointee.f.destroy_image(image) }
        var result: [UInt32] = []
        for row in 0..<44 {
            for column in 0..<320 {
                result.append(UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, Int32(column), Int32(row))))
            }
        }
        return result
    }

    @Test func aFallbackFaceLetGoDrawsAndMeasuresItsTextAsBefore() throws {
        let library = try #require(FreeTypeLibrary())
        let set = fontSet(.body, library)
        let xfts = fontSet(.body, nil)
        let text = Self.korean
        let width = set.width(of: text)
        let ink = set.inkBounds(of: text)
        let drawn = pixels(of: text, in: set)
        #expect(width == xfts.width(of: text) && ink == xfts.inkBounds(of: text))
        #expect(drawn.filter { $0 & 0xff_ffff != 0xff_ffff }.count > 50, "the text is drawn")
        let fallback = try fallback(for: text, in: set)
        weak let face = fallback.shared
        #expect(face != nil && !fallback.isReleased)

        #expect(set.releaseFaces() == 2, "the primary face and the fallback")
        #expect(fallback.isReleased && fallback.shared == nil)
        #expect(face == nil, "no other font used the face: it closed")
        #expect(set.fontFaces[0].isReleased)
        // The same text, from the glyphs Xft rendered: the same pixels and measures, no face.
        #expect(pixels(of: text, in: set) == drawn)
        #expect(set.width(of: text) == width && set.inkBounds(of: text) == ink)
        #expect(set.displayEdges(of: text) == xfts.displayEdges(of: text))
        #expect(fallback.isReleased && fallback.reopenings == 0)

        // New characters open the face again, and measure and draw as Xft's own font does.
        let more: Substring = "한국어 글꼴"
        #expect(set.width(of: more) == xfts.width(of: more))
        #expect(!fallback.isReleased && fallback.reopenings == 1)
        #expect(pixels(of: more, in: set) == pixels(of: more, in: xfts))
        #expect(set.releaseFaces() == 1)
        #expect(pixels(of: text, in: set) == drawn && pixels(of: more, in: set) == pixels(of: more, in: xfts))
        #expect(fallback.reopenings == 1, "both texts' glyphs were rendered")
    }

    @Test func aGlyphXftGaveBackOpensTheFaceAgain() throws {
        let library = try #require(FreeTypeLibrary())
        let set = fontSet(.body, library)
        let text = Self.korean
        let drawn = pixels(of: text, in: set)
        let fallback = try fallback(for: text, in: set)
        #expect(set.releaseFaces() == 2)
        // Xft gives a glyph's memory back when its fonts hold too much (4 MB per display).
        var glyph = fallback.glyph(for: text.unicodeScalars.first!.value)
        XftFontUnloadGlyphs(connection.display, fallback.font, &glyph, 1)
        #expect(fallback.isReleased, "nothing asked for the face yet")
        #expect(pixels(of: text, in: set) == drawn, "the glyph is rendered again, from the face opened again")
        #expect(!fallback.isReleased && fallback.reopenings == 1)
    }

    @Test func aFaceShapedWithOrInColourIsKept() throws {
        let library = try #require(FreeTypeLibrary())
        let set = fontSet(.body, library)
        try #require(set.shapesJoiningScripts, "HarfBuzz (libharfbuzz0b)")
        let devanagari: Substring = "नमस्ते"
        let emoji: Substring = "❤️"
        _ = pixels(of: devanagari + " " + emoji + " " + Self.korean, in: set)
        let shaped = try fallback(for: devanagari, in: set)
        let colour = set.fontFaces[set.colorFaceIndex(for: emoji.unicodeScalars.first!)]
        let korean = try fallback(for: Self.korean, in: set)
        #expect(FontSet.isColor(colour.font))
        #expect(set.releaseFaces() == 2)
        #expect(korean.isReleased && set.fontFaces[0].isReleased)
        #expect(!shaped.isReleased && shaped.shared != nil, "HarfBuzz shapes every measure and draw with it")
        #expect(!colour.isReleased && colour.shared != nil)
    }

    /// Nimbus Sans (fonts-urw-base35, a `make deps` package), a CFF font: read from a map.
    @Test func aCFFFaceLetGoUnmapsItsFileAndMapsItAgainWhenNeeded() throws {
        let library = try #require(FreeTypeLibrary())
        let set = fontSet(Font(family: "Nimbus Sans", size: 15), library)
        let font = set.fontFaces[0]
        let file = try #require(font.shared?.file)
        let base = try #require(font.shared?.mapping)
        try #require(file.hasSuffix(".otf"), "Nimbus Sans is \(file): fonts-urw-base35 missing?")
        let width = set.width(of: "Glyphs")
        let maps = mapCount(of: file)  // this one, and any Xft opened for other fonts
        #expect(maps >= 1)
        #expect(font.releaseFace())
        #expect(mapCount(of: file) == maps - 1, "the map at \(base) went with the face")
        #expect(set.width(of: "Glyphs") == width)
        #expect(font.isReleased)
        let xfts = fontSet(Font(family: "Nimbus Sans", size: 15), nil)
        #expect(set.width(of: "Quick brown fox") == xfts.width(of: "Quick brown fox"))
        #expect(!font.isReleased && font.shared?.mapping != nil)
    }

    @Test func aFaceLetGoOpensAgainAfterItsFileIsRemoved() throws {
        // A package upgrade replaces font files under a running program: the face opens again
        // from the file it read first, which stays open.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("release-\(getpid()).ttf").path
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let library = try #require(FreeTypeLibrary())
        let font = try #require(openFont(file: copy, library: library))
        let reference = try #require(openFont(file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", library: nil))
        let before = advance(of: "a", in: font)
        #expect(before == advance(of: "a", in: reference) && before > 0)
        #expect(font.releaseFace())
        try FileManager.default.removeItem(atPath: copy)
        #expect(advance(of: "a", in: font) == before)
        #expect(font.isReleased)
        #expect(advance(of: "W", in: font) == advance(of: "W", in: reference))
        #expect(!font.isReleased && font.reopenings == 1)
    }

    @Test func theRunLoopLetsAFallbackFaceGoOnceItsTextIsDrawn() throws {
        let label = Label(String(Self.korean))
        let window = Window(
            title: "Korean", size: Size(width: 240, height: 80),
            content: VStack(alignment: .start, padding: 16) { label }, application: display.app)
        display.show(window)
        let frame = try #require(label.frameOnScreen)
        #expect(display.run(until: { self.display.ink(of: window, around: frame).inside > 20 }))
        let set = display.app.resources.fonts.fontSet(for: label.font)
        let fallback = try fallback(for: Self.korean, in: set)
        #expect(fallback.isReleased, "let go at the end of the turn that drew it")
        // The same characters in another order: laid out and drawn again from the glyphs Xft
        // rendered, without the face.
        let screen = {
            self.display.probe.pixels(
                Int(frame.origin.x), Int(frame.origin.y), Int(frame.size.width), Int(frame.size.height))
        }
        let before = screen()
        label.text = "도움말 툴팁"
        #expect(display.run(until: { screen() != before }))
        #expect(display.ink(of: window, around: frame).inside > 20)
        #expect(fallback.isReleased && fallback.reopenings == 0)
        window.close()
    }

    // MARK: - Helpers

    /// A font opened on `file` at 15 pixels as X11UI opens matched fonts (on `library`), or as
    /// Xft does (nil).
    private func openFont(file: String, library: FreeTypeLibrary?) -> FontFace? {
        var count: Int32 = 0
        guard let pattern = FcFreeTypeQuery(file, 0, nil, &count) else { return nil }
        FcPatternAddDouble(pattern, "pixelsize", 15)
        XftDefaultSubstitute(connection.display, connection.screen, pattern)
        return FontFace.open(match: pattern, connection: connection, library: library)
    }

    private func advance(of character: Unicode.Scalar, in font: FontFace) -> Int16 {
        var glyph = font.glyph(for: character.value)
        var extents = XGlyphInfo()
        withUnsafePointer(to: glyph) { font.activate(for: UnsafeBufferPointer(start: $0, count: 1)) }
        XftGlyphExtents(connection.display, font.font, &glyph, 1, &extents)
        return extents.xOff
    }

    /// How many maps of `file` this process has (`/proc/self/maps`).
    private func mapCount(of file: String) -> Int {
        let maps = procFile("maps") ?? ""
        let path = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        return maps.split(separator: "\n").filter { $0.hasSuffix(path) }.count
    }
}
