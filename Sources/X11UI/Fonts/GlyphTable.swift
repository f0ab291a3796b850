internal import CX11
internal import Glibc

/// Xft's table of a font's glyphs, kept to the pages that hold glyphs.
///
/// Xft allocates, with each font it opens, one pointer per glyph of the face and writes them
/// all empty: 512 KB for Noto Sans CJK's 65,535 glyphs, 50 KB for DejaVu Sans's 6,253, per
/// size, of which text uses a few dozen entries. The pages of that table that are still all
/// zero when the font has opened are given back to the kernel (`MADV_DONTNEED` on private
/// anonymous memory: a later read sees zeros, as before, and costs no memory; a page becomes
/// resident again only when Xft stores a glyph in it, one page per 512 glyph numbers).
enum GlyphTable {
    /// Gives back the all-zero pages of the glyph table of `font`, a font just opened on a face
    /// of `glyphs` glyphs (the face's count plus one, as Xft counts).
    ///
    /// Xft (2.1 and later) allocates its font record and the table in one block, the table
    /// right after the record (a few hundred bytes), `glyphs` pointers long. So the bytes from
    /// the record's second page up to `glyphs` pointers past its start are table; only pages
    /// there found all zero are given back, so nothing Xft wrote is lost even if the layout
    /// differed.
    static func releaseEmptyPages(of font: UnsafeMutablePointer<XftFont>, glyphs: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0, glyphs > 0 else { return }
        let start = UInt(bitPattern: font)
        let first = (start + UInt(page) * 2 - 1) / UInt(page) * UInt(page)  // past the record's page
        let end = (start + UInt(glyphs * MemoryLayout<UnsafeRawPointer>.size)) / UInt(page) * UInt(page)
        guard end > first else { return }
        var runStart: UInt?
        var address = first
        while address <= end {
            let zero = address < end && isZero(UnsafeRawPointer(bitPattern: address)!, count: page)
            if zero, runStart == nil { runStart = address }
            if !zero, let from = runStart {
                madvise(UnsafeMutableRawPointer(bitPattern: from), Int(address - from), MADV_DONTNEED)
                runStart = nil
            }
            address += UInt(page)
        }
    }

    /// Whether `count` bytes (a multiple of 8, 8-aligned) are all zero.
    private static func isZero(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        let words = bytes.assumingMemoryBound(to: UInt64.self)
        var any: UInt64 = 0
        for index in 0..<(count / 8) { any |= words[index] }
        return any == 0
    }
}
