internal import CX11

@MainActor
extension FontSet {
    // MARK: - Measuring

    func width(of text: Substring) -> Double {
        if let width = asciiWidth(of: text) { return width }
        var total = 0.0
        forEachRun(in: text) { run, bytes in
            total += advance(of: bytes, run: run)
            return true
        }
        return total
    }

    func inkBounds(of text: Substring) -> Rect {
        var penX = 0.0
        var ink: Rect?
        let add = { (box: Rect) in
            guard box.width > 0, box.height > 0 else { return }
            ink = ink.map { $0.union(box) } ?? box
        }
        forEachRun(in: text) { run, bytes in
            var extents = XGlyphInfo()
            if run.isShaped {
                withShapedGlyphs(bytes, face: run.face, rightToLeft: run.isRightToLeft) { glyphs in
                    for glyph in glyphs {
                        var id = FT_UInt(glyph.glyph)
                        XftGlyphExtents(connection.display, activeFont(run.face), &id, 1, &extents)
                        add(Self.box(extents, x: penX + glyph.offset.x, baseline: ascent - glyph.offset.y))
                        penX += glyph.advance
                    }
                }
                return true
            }
            extents = glyphExtents(of: bytes, face: run.face)
            add(Self.box(extents, x: penX, baseline: ascent))
            penX += Double(extents.xOff)
            return true
        }
        return ink ?? Rect(x: 0, y: 0, width: penX, height: lineHeight)
    }

    /// The ink box of glyph extents drawn with the pen at `(x, baseline)`.
    private static func box(_ extents: XGlyphInfo, x: Double, baseline: Double) -> Rect {
        Rect(
            x: x - Double(extents.x), y: baseline - Double(extents.y), width: Double(extents.width),
            height: Double(extents.height))
    }

    /// The width of text that is all ASCII, from cached advances; nil for other text.
    ///
    /// Xft's extents of unshaped text are the sum of its glyphs' advances (it neither kerns nor
    /// shapes), so adding cached advances gives the same width without building runs: wrapping
    /// a long text measures each word, and most words are ASCII.
    func asciiWidth(of text: Substring) -> Double? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Double? in
            var total = 0.0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                total += asciiAdvance(byte)
            }
            return total
        } ?? nil
    }

    /// The advance of an ASCII character as `forEachRun` draws it: a tab as a space, other
    /// controls as nothing.
    private func asciiAdvance(_ byte: UInt8) -> Double {
        let cached = asciiAdvances[Int(byte)]
        if cached >= 0 { return cached }
        var advance = 0.0
        let scalar = Unicode.Scalar(byte == 0x09 ? 0x20 : byte)
        if !Self.drawsNothing(scalar) {
            let face = faceIndex(for: scalar)
            if face >= 0 {
                var glyph = fontFaces[face].glyph(for: scalar.value)
                var extents = XGlyphInfo()
                let font = withUnsafePointer(to: glyph) {
                    activeFont(face, for: UnsafeBufferPointer(start: $0, count: 1))
                }
                XftGlyphExtents(connection.display, font, &glyph, 1, &extents)
                advance = Double(extents.xOff)
            }
        }
        asciiAdvances[Int(byte)] = advance
        return advance
    }

    /// The advance width of one run's bytes.
    private func advance(of bytes: UnsafeBufferPointer<UInt8>, run: Run) -> Double {
        if run.isRightToLeft {
            // Words of a joining script: wrapping measures each word, and the line again.
            let key = JoinedRun(face: run.face, bytes: Array(bytes))
            if let cached = joinedAdvances[key] { return cached }
            let advance = shapedAdvance(of: bytes, run: run)
            if joinedAdvances.count >= Self.joinedAdvancesLimit { joinedAdvances.removeAll(keepingCapacity: true) }
            joinedAdvances[key] = advance
            return advance
        }
        if run.isShaped { return shapedAdvance(of: bytes, run: run) }
        return Double(glyphExtents(of: bytes, face: run.face).xOff)
    }

    /// The extents of a run drawn one glyph per character (`XftTextExtentsUtf8`).
    func glyphExtents(of bytes: UnsafeBufferPointer<UInt8>, face: Int) -> XGlyphInfo {
        var extents = XGlyphInfo()
        withGlyphs(of: bytes, face: face) { glyphs in
            let font = activeFont(face, for: glyphs)
            XftGlyphExtents(connection.display, font, glyphs.baseAddress, Int32(glyphs.count), &extents)
        }
        return extents
    }

    /// The glyphs of a run's characters in face `face`, one per character, as Xft's UTF-8 calls
    /// look them up; a run is at most a few hundred bytes, so they sit on the stack.
    func withGlyphs<Result>(
        of bytes: UnsafeBufferPointer<UInt8>, face: Int, _ body: (UnsafeBufferPointer<FT_UInt>) -> Result
    ) -> Result {
        let fontFace = fontFaces[face]
        return withUnsafeTemporaryAllocation(of: FT_UInt.self, capacity: max(1, bytes.count)) { glyphs in
            var count = 0
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            while case .scalarValue(let scalar) = decoder.decode(&iterator) {
                glyphs.initializeElement(at: count, to: fontFace.glyph(for: scalar.value))
                count += 1
            }
            return body(UnsafeBufferPointer(start: glyphs.baseAddress, count: count))
        }
    }
}
