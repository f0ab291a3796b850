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
    }

    /// Calls `body` for each maximal run of `text` drawn with one face, with the run's UTF-8
    /// bytes. Characters that draw nothing (controls, joiners, variation selectors) are left
    /// out, except inside a cluster that is shaped (a joiner is what makes 👨‍👩‍👧 one family); a
    /// tab becomes a space. A cluster that needs shaping is drawn whole with the face of its
    /// first visible character (a colour face when the cluster asks for emoji presentation).
    ///
    /// Runs are at most about `RunBuilder.maxBytes` long (a longer one is handed over in
    /// pieces, between characters), so that no single Xft call gets more than an X request
    /// can carry, and drawing can stop at the clip. `body` returns false to stop early.
    func forEachRun(in text: Substring, _ body: (Run, UnsafeBufferPointer<UInt8>) -> Bool) {
        var runs = RunBuilder(capacity: min(text.utf8.count, 2 * RunBuilder.maxBytes))
        if text.unicodeScalars.contains(where: Self.needsShaping) {
            for character in text {
                if runs.isStopped { return }
                guard character.unicodeScalars.contains(where: Self.needsShaping) else {
                    for scalar in character.unicodeScalars { appendPlain(scalar, to: &runs, body) }
                    continue
                }
                let kept = character.unicodeScalars.filter { !Self.isControl($0) }
                guard let base = kept.first(where: { !Self.drawsNothing($0) }) else { continue }
                let face = kept.contains("\u{FE0F}") ? colorFaceIndex(for: base) : faceIndex(for: base)
                if face < 0 { continue }
                runs.breakIfLong(body)
                for scalar in kept { runs.append(scalar, in: Run(face: face, isShaped: true), body) }
            }
        } else {
            for scalar in text.unicodeScalars {
                if runs.isStopped { return }
                appendPlain(scalar, to: &runs, body)
            }
        }
        runs.finish(body)
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
            XftCharExists(connection.display, faces[current.face], scalar.value) != 0
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
