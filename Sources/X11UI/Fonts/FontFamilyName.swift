internal import CX11

extension FontSet {
    /// The family of the face this set draws with first, as fontconfig matched the request
    /// ("DejaVu Sans" for "sans-serif"); nil when the set has no face. Assistive technologies
    /// are told it as the text's `family-name`.
    var primaryFamilyName: String? {
        guard let font = faces.first, let pattern = font.pointee.pattern else { return nil }
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, "family", 0, &value) == FcResultMatch, let value else { return nil }
        let family = String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
        return family.isEmpty ? nil : family
    }
}
