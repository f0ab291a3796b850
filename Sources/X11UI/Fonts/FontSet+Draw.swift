internal import CX11

@MainActor
extension FontSet {
    // MARK: - Drawing

    /// Draws `text` with its baseline at `(x, y)` of an Xft drawable, only the runs that
    /// overlap `visible` (a horizontal span in the drawable's pixels).
    ///
    /// Runs left of the span are measured and skipped, drawing stops at its right end, and
    /// X coordinates stay within the protocol's 16-bit range: a line of a megabyte costs
    /// what its visible part costs, plus measuring what lies before it.
    func draw(
        _ text: Substring, on draw: OpaquePointer, color: UnsafePointer<XftColor>, x: Double, y: Double,
        visible: ClosedRange<Double>
    ) {
        var penX = x.rounded()
        let baseline = y.rounded()
        // A glyph reaches at most this far beyond its pen position (italic overhangs, wide
        // marks); runs closer to the span than that are drawn.
        let slack = lineHeight * 2
        guard baseline.isFinite, abs(baseline) < 30_000 else { return }
        forEachRun(in: text) { run, bytes in
            guard penX < visible.upperBound + slack else { return false }
            if run.isShaped {
                let font = activeFont(run.face)
                // The glyphs and their specs on the stack, for a run of ordinary length.
                let width = withShapedGlyphs(bytes, face: run.face, rightToLeft: run.isRightToLeft) { glyphs in
                    var width = 0.0
                    for glyph in glyphs { width += glyph.advance }
                    guard penX + width > visible.lowerBound - slack, !glyphs.isEmpty else { return width }
                    withUnsafeTemporaryAllocation(of: XftGlyphSpec.self, capacity: glyphs.count) { specs in
                        var glyphX = penX
                        for (index, glyph) in glyphs.enumerated() {
                            specs.initializeElement(
                                at: index,
                                to: XftGlyphSpec(
                                    glyph: FT_UInt(glyph.glyph),
                                    x: Int16(clamping: Int((glyphX + glyph.offset.x).rounded())),
                                    y: Int16(clamping: Int((baseline - glyph.offset.y).rounded()))))
                            glyphX += glyph.advance
                        }
                        XftDrawGlyphSpec(draw, color, font, specs.baseAddress, Int32(glyphs.count))
                    }
                    return width
                }
                penX += width
                return true
            }
            withGlyphs(of: bytes, face: run.face) { glyphs in
                let font = activeFont(run.face, for: glyphs)
                var extents = XGlyphInfo()
                XftGlyphExtents(connection.display, font, glyphs.baseAddress, Int32(glyphs.count), &extents)
                defer { penX += Double(extents.xOff) }
                guard penX + Double(extents.xOff) > visible.lowerBound - slack else { return }
                XftDrawGlyphs(
                    draw, color, font, Int32(clamping: Int(penX)), Int32(clamping: Int(baseline)), glyphs.baseAddress,
                    Int32(glyphs.count))
            }
            return true
        }
    }
}
