internal import CX11

/// HarfBuzz, opened the first time a text needs shaping and kept for the process's life (it
/// is a library, not a per-display resource). Most programs never load it.
@MainActor
final class HarfBuzz {
    var functions = cx11_harfbuzz()

    private init?() {
        guard cx11_harfbuzz_load(&functions) != 0 else {
            Log.warning(
                "HarfBuzz (libharfbuzz.so.0) cannot be loaded: complex scripts and emoji sequences are drawn unshaped")
            return nil
        }
    }

    /// The library, loaded on first use; nil when it is missing.
    static let shared = HarfBuzz()
}

@MainActor
extension FontSet {
    // MARK: - Shaping

    /// One glyph of a shaped run, in pixels.
    struct ShapedGlyph: Equatable {
        var glyph: UInt32
        var advance: Double
        var offset: Point
        /// The byte offset in the shaped run of the text the glyph shows (a ligature's first
        /// character, a letter with its marks).
        var cluster = 0
    }

    /// Shapes a run as `forEachRun` hands it over: right-to-left when it holds letters of a
    /// joining script.
    func shape(_ bytes: UnsafeBufferPointer<UInt8>, run: Run) -> [ShapedGlyph] {
        shape(bytes, face: run.face, rightToLeft: run.isRightToLeft)
    }

    /// Shapes a run with its face (HarfBuzz). A bitmap face (colour emoji) takes its advances
    /// from the scaled Xft font, as its own are those of its fixed-size strike. Without
    /// HarfBuzz the run's characters are laid out one glyph each, as Xft would.
    ///
    /// A right-to-left run (`rightToLeft`) is given in reading order and its glyphs come back
    /// in display order, from the left.
    func shape(_ bytes: UnsafeBufferPointer<UInt8>, face: Int, rightToLeft: Bool = false) -> [ShapedGlyph] {
        guard face >= 0, face < faces.count, !bytes.isEmpty, bytes.count < Int(Int32.max) / 2 else { return [] }
        guard let harfBuzz = HarfBuzz.shared else { return unshaped(bytes, face: face, rightToLeft: rightToLeft) }
        let font = faces[face]
        guard let ftFace = XftLockFace(font) else { return [] }
        defer { XftUnlockFace(font) }
        var shaping: (font: OpaquePointer, xScale: Int)
        if let cached = shapingFonts[face] {
            shaping = cached
        } else {
            guard let font = cx11_shaping_font(&harfBuzz.functions, ftFace) else {
                return unshaped(bytes, face: face, rightToLeft: rightToLeft)
            }
            shaping = (font, 0)
        }
        defer { shapingFonts[face] = shaping }
        var capacity = bytes.count + 8
        while true {
            var glyphs = [UInt32](repeating: 0, count: capacity)
            var clusters = [UInt32](repeating: 0, count: capacity)
            var advances = [Int32](repeating: 0, count: capacity)
            var xOffsets = [Int32](repeating: 0, count: capacity)
            var yOffsets = [Int32](repeating: 0, count: capacity)
            var scalable: Int32 = 1
            let count = bytes.withMemoryRebound(to: CChar.self) { text in
                cx11_shape(
                    &harfBuzz.functions, shaping.font, ftFace, &shaping.xScale, text.baseAddress, Int32(text.count),
                    rightToLeft ? 1 : 0, &glyphs, &clusters, &advances, &xOffsets, &yOffsets, Int32(capacity), &scalable
                )
            }
            guard count >= 0 else { return [] }
            if Int(count) > capacity {
                capacity = Int(count)
                continue
            }
            return (0..<Int(count)).map { index in
                guard scalable == 0 else {
                    return ShapedGlyph(
                        glyph: glyphs[index], advance: Double(advances[index]) / 64,
                        offset: Point(x: Double(xOffsets[index]) / 64, y: Double(yOffsets[index]) / 64),
                        cluster: Int(clusters[index]))
                }
                var glyph = FT_UInt(glyphs[index])
                var extents = XGlyphInfo()
                XftGlyphExtents(connection.display, font, &glyph, 1, &extents)
                return ShapedGlyph(
                    glyph: glyphs[index], advance: Double(extents.xOff), offset: .zero, cluster: Int(clusters[index]))
            }
        }
    }

    /// One glyph per character, for when HarfBuzz cannot be loaded.
    private func unshaped(_ bytes: UnsafeBufferPointer<UInt8>, face: Int, rightToLeft: Bool) -> [ShapedGlyph] {
        var offset = 0
        let glyphs = String(decoding: bytes, as: UTF8.self).unicodeScalars.compactMap { scalar -> ShapedGlyph? in
            defer { offset += UTF8.width(scalar) }
            guard !Self.drawsNothing(scalar) else { return nil }
            var glyph = XftCharIndex(connection.display, faces[face], scalar.value)
            var extents = XGlyphInfo()
            XftGlyphExtents(connection.display, faces[face], &glyph, 1, &extents)
            return ShapedGlyph(glyph: glyph, advance: Double(extents.xOff), offset: .zero, cluster: offset)
        }
        return rightToLeft ? glyphs.reversed() : glyphs
    }
}
