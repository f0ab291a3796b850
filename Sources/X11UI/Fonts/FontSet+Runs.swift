internal import CX11

@MainActor
extension FontSet {
    // MARK: - Runs

    /// A run of text drawn with one face.
    struct Run: Equatable {
        /// The face's index in `faces`.
        var face: Int
        /// Whether the run is shaped with HarfBuzz (it holds clusters that need it: Indic
        /// syllables, emoji sequences) rather than drawn one glyph per character by Xft.
        var isShaped: Bool
        /// Whether the run holds letters of a joining script (Arabic) given in reading order,
        /// shaped right to left (`isShaped` is then set too).
        var isRightToLeft = false
    }

    /// Calls `body` for each maximal run of `text` drawn with one face, with the run's UTF-8
    /// bytes. `text` is in display order, from the left. Characters that draw nothing
    /// (controls, joiners, variation selectors) are left out, except inside a cluster that is
    /// shaped (a joiner is what makes 👨‍👩‍👧 one family); a tab becomes a space. A cluster that
    /// needs shaping is drawn whole with the face of its first visible character (a colour face
    /// when the cluster asks for emoji presentation). Neighbouring letters of a joining script
    /// (Arabic) are a run of their own, handed over in reading order to be shaped right to
    /// left (see `joiningGroup(in:from:)`).
    ///
    /// Runs are at most about `RunBuilder.maxBytes` long (a longer one is handed over in
    /// pieces, between characters), so that no single Xft call gets more than an X request
    /// can carry, and drawing can stop at the clip. `body` returns false to stop early.
    func forEachRun(in text: Substring, _ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) {
        var runs = RunBuilder(capacity: min(text.utf8.count, 2 * RunBuilder.maxBytes))
        if text.unicodeScalars.contains(where: Self.needsClusters) {
            // Each character is taken out of the text once (finding a character's end is the
            // grapheme cluster algorithm), and its scalars are looked at in loops: closures
            // here would check their isolation on every call.
            var index = text.startIndex
            while index < text.endIndex {
                if runs.isStopped { return }
                let character = text[index]
                if let face = joiningFace(of: character) {
                    let end = joiningGroupEnd(in: text, from: index, first: character, face: face)
                    // Reading order is display order reversed, a character (a letter and its
                    // marks) at a time.
                    let run = Run(face: face, isShaped: true, isRightToLeft: true)
                    for character in text[index..<end].reversed() {
                        for scalar in character.unicodeScalars where !Self.isControl(scalar) {
                            runs.append(scalar, in: run, body)
                        }
                    }
                    runs.handOver(body)
                    index = end
                    continue
                }
                index = text.index(after: index)
                guard character.unicodeScalars.contains(where: Self.needsShaping) else {
                    for scalar in character.unicodeScalars { appendPlain(scalar, to: &runs, body) }
                    continue
                }
                // The cluster without its controls: drawn with the face of its first visible
                // scalar, a colour face when it asks for emoji presentation.
                var base: Unicode.Scalar?
                var isEmoji = false
                for scalar in character.unicodeScalars where !Self.isControl(scalar) {
                    if base == nil, !Self.drawsNothing(scalar) { base = scalar }
                    if scalar == "\u{FE0F}" { isEmoji = true }
                }
                guard let base else { continue }
                let face = isEmoji ? colorFaceIndex(for: base) : faceIndex(for: base)
                if face < 0 { continue }
                runs.breakIfLong(body)
                let run = Run(face: face, isShaped: true)
                for scalar in character.unicodeScalars where !Self.isControl(scalar) {
                    runs.append(scalar, in: run, body)
                }
            }
        } else {
            for scalar in text.unicodeScalars {
                if runs.isStopped { return }
                appendPlain(scalar, to: &runs, body)
            }
        }
        runs.finish(body)
    }

    /// Whether a scalar takes text off the one-glyph-per-character path: it needs shaping, or
    /// is a letter of a joining script.
    private nonisolated static func needsClusters(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x0600 && (needsShaping(scalar) || joinsRightToLeft(scalar))
    }

    /// Whether letters of joining scripts are shaped here (HarfBuzz can be loaded); loads
    /// HarfBuzz the first time it is asked.
    var shapesJoiningScripts: Bool { HarfBuzz.shared != nil }

    /// The characters of a joining script shaped together, right to left, from the one at
    /// `start` in display-order text: up to the first character of another script (a space, a
    /// Latin letter) or of another face, or past `RunBuilder.maxBytes` bytes where no letters
    /// join across the cut (at most `RunBuilder.maxJoiningBytes`); nil when the character
    /// at `start` is not of a joining script or nothing shapes them.
    func joiningGroup(in text: Substring, from start: Substring.Index) -> (end: Substring.Index, face: Int)? {
        let first = text[start]
        guard let face = joiningFace(of: first) else { return nil }
        return (joiningGroupEnd(in: text, from: start, first: first, face: face), face)
    }

    /// The end of the joining group that starts with `first`, the character at `start`, in
    /// `face`.
    private func joiningGroupEnd(
        in text: Substring, from start: Substring.Index, first: Character, face: Int
    ) -> Substring.Index {
        var end = text.index(after: start)
        var bytes = first.utf8.count
        while end < text.endIndex, bytes < RunBuilder.maxJoiningBytes {
            let character = text[end]
            guard joiningFace(of: character) == face else { break }
            // Past the usual length the group ends where no join crosses: before (in display
            // order) a letter that does not join the one after it in reading order.
            if bytes >= RunBuilder.maxBytes, Self.endsJoining(character) { break }
            bytes += character.utf8.count
            end = text.index(after: end)
        }
        return end
    }

    /// Whether a character (a letter and its marks) never joins the letter after it in reading
    /// order (see `endsJoining(_:)`), by its first visible scalar.
    private static func endsJoining(_ character: Character) -> Bool {
        for scalar in character.unicodeScalars where !drawsNothing(scalar) { return endsJoining(scalar) }
        return true
    }

    /// The face of a character of a joining group; nil for characters of other scripts.
    private func joiningFace(of character: Character) -> Int? {
        var base: Unicode.Scalar?
        for scalar in character.unicodeScalars where !Self.drawsNothing(scalar) {
            base = scalar
            break
        }
        guard let base, Self.joinsRightToLeft(base), shapesJoiningScripts else { return nil }
        let face = faceIndex(for: base)
        return face >= 0 ? face : nil
    }

    /// Adds a character drawn one glyph per character to its face's run.
    private func appendPlain(
        _ scalar: Unicode.Scalar, to runs: inout RunBuilder, _ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        let scalar = scalar == "\t" ? " " : scalar
        if Self.drawsNothing(scalar) { return }
        var face = faceIndex(for: scalar)
        if face < 0 { return }
        // A combining mark stays with its base when the base's face has it.
        let current = runs.current
        if face != current.face, current.face >= 0, !current.isShaped,
            scalar.properties.generalCategory == .nonspacingMark,
            fontFaces[current.face].has(scalar.value)
        {
            face = current.face
        } else if !current.isShaped {
            runs.breakIfLong(body)
        }
        runs.append(scalar, in: Run(face: face, isShaped: false), body)
    }

    /// Collects the UTF-8 bytes of the current run and hands each run over when the next starts.
    private struct RunBuilder {
        /// The longest run handed over in one piece. Xft sends a run's glyphs in one Render
        /// request, and an X request is limited in size (a 256 KiB line ended the connection);
        /// 512 bytes are a few hundred glyphs, wider than any window.
        static let maxBytes = 512
        /// The longest joining group (one Arabic word) shaped in one piece. Past `maxBytes` a
        /// group is cut only where no letters join across the cut, so its glyphs are those of
        /// the whole word; a word of more than this many bytes with no such place is cut here.
        /// Its glyphs, one spec each, stay well inside an X request.
        static let maxJoiningBytes = 8 * maxBytes

        var bytes: [UInt8] = []
        var current = Run(face: -1, isShaped: false)
        /// Set when `body` asked to stop.
        private(set) var isStopped = false

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        mutating func append(
            _ scalar: Unicode.Scalar, in run: Run, _ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool
        ) {
            if run != current { hand(body) }
            current = run
            bytes.append(contentsOf: UTF8.encode(scalar)!)
        }

        /// Hands the run over so far, so that what follows starts another even in the same face.
        mutating func handOver(_ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) { hand(body) }

        /// Hands the run over so far when it is long; called only between characters.
        mutating func breakIfLong(_ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) {
            if bytes.count >= Self.maxBytes { hand(body) }
        }

        private mutating func hand(_ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) {
            guard !bytes.isEmpty, !isStopped else { return }
            if !bytes.withUnsafeBufferPointer({ body(current, $0) }) { isStopped = true }
            bytes.removeAll(keepingCapacity: true)
        }

        mutating func finish(_ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) { hand(body) }
    }
}
