/// Right-to-left letters that join (Arabic), shaped by HarfBuzz: what wrapping measures before
/// the bidirectional algorithm reorders a line, and where each character of a shaped line lies
/// for selection and the caret.
@MainActor
extension FontSet {
    // MARK: - Joining scripts

    /// The width of text in reading order. A word of a joining script is measured as it will
    /// be drawn: `width(of:)` takes its text in display order and shapes a joining group in
    /// reverse, so the characters are handed over reversed (Latin letters, digits and spaces
    /// measure the same either way).
    func readingWidth(of text: Substring) -> Double {
        if let width = asciiWidth(of: text) { return width }
        guard text.unicodeScalars.contains(where: Self.joinsRightToLeft), shapesJoiningScripts else {
            return width(of: text)
        }
        return width(of: String(text.reversed())[...])
    }

    /// Each scalar measured on its own, except that a shaped cluster (an emoji sequence, an
    /// Indic syllable) is measured whole, as is each character of a joining group shaped with
    /// its neighbours: the cluster's first scalar covers its glyphs, the others none.
    func displayEdges(of text: Substring) -> [Double] {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x0600 && Self.needsClusterEdges($0) }) else {
            return scalarEdges(of: text)
        }
        var x = 0.0
        var edges = [0.0]
        edges.reserveCapacity(text.unicodeScalars.count + 1)
        var index = text.startIndex
        while index < text.endIndex {
            if let group = joiningGroup(in: text, from: index) {
                let characters = Array(text[index..<group.end])
                for (character, width) in zip(characters, joinedWidths(of: characters, face: group.face)) {
                    // A letter's marks follow it in display order and take no room of their own.
                    x += width
                    for _ in character.unicodeScalars { edges.append(x) }
                }
                index = group.end
                continue
            }
            let next = text.index(after: index)
            if text[index].unicodeScalars.contains(where: Self.needsShaping) {
                x += width(of: text[index..<next])
                for _ in text[index].unicodeScalars { edges.append(x) }
            } else {
                for scalar in text[index].unicodeScalars {
                    x += width(of: String(scalar)[...])
                    edges.append(x)
                }
            }
            index = next
        }
        return edges
    }

    /// The advance of each character of a joining group (given in display order, as
    /// `forEachRun` shapes it), from the glyphs of their clusters; the characters of a ligature
    /// (lam-alef) share its advance.
    func joinedWidths(of characters: [Character], face: Int) -> [Double] {
        // Reading order: the group reversed, as `forEachRun` hands it over.
        var bytes: [UInt8] = []
        var owner: [Int] = []  // for each byte, the character (in reading order) it belongs to
        for (index, character) in characters.reversed().enumerated() {
            for scalar in character.unicodeScalars where !Self.isControl(scalar) {
                for byte in UTF8.encode(scalar)! {
                    bytes.append(byte)
                    owner.append(index)
                }
            }
        }
        let count = characters.count
        var widths = [Double](repeating: 0, count: count)
        var hasGlyph = [Bool](repeating: false, count: count)
        let glyphs = bytes.withUnsafeBufferPointer { shape($0, face: face, rightToLeft: true) }
        for glyph in glyphs where glyph.cluster >= 0 && glyph.cluster < owner.count {
            widths[owner[glyph.cluster]] += glyph.advance
            hasGlyph[owner[glyph.cluster]] = true
        }
        // A character with no glyph of its own was merged into the cluster before it.
        var start = 0
        while start < count {
            var end = start + 1
            while end < count, !hasGlyph[end] { end += 1 }
            let share = widths[start..<end].reduce(0, +) / Double(end - start)
            for index in start..<end { widths[index] = share }
            start = end
        }
        return widths.reversed()
    }

    private nonisolated static func needsClusterEdges(_ scalar: Unicode.Scalar) -> Bool {
        needsShaping(scalar) || joinsRightToLeft(scalar)
    }
}
