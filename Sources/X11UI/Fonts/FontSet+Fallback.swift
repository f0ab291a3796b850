internal import CX11

@MainActor
extension FontSet {
    // MARK: - Choosing a face per character

    /// The face that draws `scalar`, opening a fallback when needed. When nothing has it: -1
    /// for an ASCII scalar (it is left out), 0 for others (the primary face draws its missing
    /// glyph box); -1 also when the set has no faces. Misses are cached like hits, so a scalar
    /// nothing has costs one search of the faces and fontconfig, not one per measurement.
    func faceIndex(for scalar: Unicode.Scalar) -> Int {
        guard !faces.isEmpty else { return -1 }
        let value = scalar.value
        if value < 128 {
            // -1 (a miss) is cached too: only -2 means not looked up yet.
            let cached = asciiFaces[Int(value)]
            if cached != -2 { return Int(cached) }
            let index = lookUpFace(for: value)
            if index <= Int(Int8.max) { asciiFaces[Int(value)] = Int8(index) }
            return index
        }
        if let cached = faceCache[value] { return cached < 0 ? 0 : Int(cached) }
        let index = lookUpFace(for: value)
        faceCache[value] = Int32(index)
        return max(0, index)
    }

    /// Searches the open faces for a scalar, then fontconfig; every call is counted in
    /// `faceLookups`, as callers cache the answer, a miss included.
    private func lookUpFace(for value: UInt32) -> Int {
        faceLookups += 1
        if let index = fontFaces.firstIndex(where: { $0.has(value) }) {
            return index
        }
        guard connection.isUsable, let face = openFallback(for: value) else { return -1 }
        return adopt(face)
    }

    /// Adds an opened fallback face to the set; returns its index.
    private func adopt(_ face: FontFace) -> Int {
        fontFaces.append(face)
        faces.append(face.font)
        return faces.count - 1
    }

    private func openFallback(for value: UInt32, color: Bool = false) -> FontFace? {
        guard let charset = FcCharSetCreate(), let pattern = FcPatternDuplicate(request) else { return nil }
        defer {
            FcCharSetDestroy(charset)
            FcPatternDestroy(pattern)
        }
        FcCharSetAddChar(charset, value)
        FcPatternAddCharSet(pattern, "charset", charset)
        if color {
            FcPatternAddBool(pattern, "color", 1)
        } else {
            FcPatternAddBool(pattern, "scalable", 1)
        }
        guard let face = FontFace.open(pattern: pattern, connection: connection, library: library, store: store) else {
            return nil
        }
        guard face.has(value), !color || Self.isColor(face.font) else {
            return nil
        }
        return face
    }

    /// The face that draws `scalar` in emoji presentation (followed by U+FE0F, as in ❤️): a
    /// colour font that has it, opened when needed; the plain face when no colour font has it.
    func colorFaceIndex(for scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if let cached = colorFaceCache[value] { return cached < 0 ? faceIndex(for: scalar) : Int(cached) }
        faceLookups += 1
        var index = fontFaces.firstIndex { Self.isColor($0.font) && $0.has(value) } ?? -1
        if index < 0, connection.isUsable, let face = openFallback(for: value, color: true) { index = adopt(face) }
        colorFaceCache[value] = Int32(index)
        return index < 0 ? faceIndex(for: scalar) : index
    }

    /// Whether a face is a colour font (colour emoji).
    static func isColor(_ font: UnsafeMutablePointer<XftFont>) -> Bool {
        var color: FcBool = 0
        return FcPatternGetBool(font.pointee.pattern, "color", 0, &color) == FcResultMatch && color != 0
    }
}
