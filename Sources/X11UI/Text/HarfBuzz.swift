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
        withShapedGlyphs(bytes, face: face, rightToLeft: rightToLeft) { Array($0) }
    }

    /// The advance width of a shaped run: its glyphs' advances, summed where they are made.
    func shapedAdvance(of bytes: UnsafeBufferPointer<UInt8>, run: Run) -> Double {
        withShapedGlyphs(bytes, face: run.face, rightToLeft: run.isRightToLeft) { glyphs in
            var total = 0.0
            for glyph in glyphs { total += glyph.advance }
            return total
        }
    }

    /// Shapes a run (see `shape(_:face:rightToLeft:)`) and hands its glyphs to `body`. HarfBuzz's
    /// output and the glyphs live on the stack for runs of ordinary length (a word): measuring
    /// and drawing shape every word, and arrays for each took as long as the shaping.
    func withShapedGlyphs<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, face: Int, rightToLeft: Bool,
        _ body: (UnsafeBufferPointer<ShapedGlyph>) -> Result
    ) -> Result {
        let none = UnsafeBufferPointer<ShapedGlyph>(start: nil, count: 0)
        guard face >= 0, face < faces.count, !bytes.isEmpty, bytes.count < Int(Int32.max) / 2 else {
            return body(none)
        }
        guard let harfBuzz = HarfBuzz.shared else {
            return unshaped(bytes, face: face, rightToLeft: rightToLeft).withUnsafeBufferPointer(body)
        }
        let font = activeFont(face)
        guard let ftFace = XftLockFace(font) else { return body(none) }
        defer { XftUnlockFace(font) }
        var shaping: (font: OpaquePointer, xScale: Int)
        if let cached = shapingFonts[face] {
            shaping = cached
        } else {
            guard let font = cx11_shaping_font(&harfBuzz.functions, ftFace) else {
                return unshaped(bytes, face: face, rightToLeft: rightToLeft).withUnsafeBufferPointer(body)
            }
            shaping = (font, 0)
        }
        defer { shapingFonts[face] = shaping }
        var capacity = bytes.count + 8
        while true {
            // Glyph ids and clusters, then advances and x and y offsets, `capacity` of each.
            let shaped = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * capacity) { ids in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * capacity) { positions -> Result? in
                    let glyphs = ids.baseAddress!
                    let clusters = glyphs + capacity
                    let advances = positions.baseAddress!
                    let xOffsets = advances + capacity
                    let yOffsets = xOffsets + capacity
                    var scalable: Int32 = 1
                    let count = bytes.withMemoryRebound(to: CChar.self) { text in
                        cx11_shape(
                            &harfBuzz.functions, shaping.font, ftFace, &shaping.xScale, text.baseAddress,
                            Int32(text.count), rightToLeft ? 1 : 0, glyphs, clusters, advances, xOffsets, yOffsets,
                            Int32(capacity), &scalable)
                    }
                    guard count >= 0 else { return body(none) }
                    if Int(count) > capacity {
                        capacity = Int(count)
                        return nil
                    }
                    return withUnsafeTemporaryAllocation(of: ShapedGlyph.self, capacity: Int(count)) { out in
                        for index in 0..<Int(count) {
                            if scalable != 0 {
                                out.initializeElement(
                                    at: index,
                                    to: ShapedGlyph(
                                        glyph: glyphs[index], advance: Double(advances[index]) / 64,
                                        offset: Point(
                                            x: Double(xOffsets[index]) / 64, y: Double(yOffsets[index]) / 64),
                                        cluster: Int(clusters[index])))
                            } else {
                                var glyph = FT_UInt(glyphs[index])
                                var extents = XGlyphInfo()
                                XftGlyphExtents(connection.display, font, &glyph, 1, &extents)
                                out.initializeElement(
                                    at: index,
                                    to: ShapedGlyph(
                                        glyph: glyphs[index], advance: Double(extents.xOff), offset: .zero,
                                        cluster: Int(clusters[index])))
                            }
                        }
                        // ShapedGlyph is trivial: nothing to deinitialize.
                        return body(UnsafeBufferPointer(start: out.baseAddress, count: Int(count)))
                    }
                }
            }
            if let shaped { return shaped }
        }
    }

    /// One glyph per character, for when HarfBuzz cannot be loaded.
    private func unshaped(_ bytes: UnsafeBufferPointer<UInt8>, face: Int, rightToLeft: Bool) -> [ShapedGlyph] {
        var offset = 0
        let glyphs = String(decoding: bytes, as: UTF8.self).unicodeScalars.compactMap { scalar -> ShapedGlyph? in
            defer { offset += UTF8.width(scalar) }
            guard !Self.drawsNothing(scalar) else { return nil }
            var glyph = fontFaces[face].glyph(for: scalar.value)
            var extents = XGlyphInfo()
            let font = withUnsafePointer(to: glyph) { activeFont(face, for: UnsafeBufferPointer(start: $0, count: 1)) }
            XftGlyphExtents(connection.display, font, &glyph, 1, &extents)
            return ShapedGlyph(glyph: glyph, advance: Double(extents.xOff), offset: .zero, cluster: offset)
        }
        return rightToLeft ? glyphs.reversed() : glyphs
    }
}
