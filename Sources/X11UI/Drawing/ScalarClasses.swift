extension FontSet {
    // MARK: - Scalar classes

    /// Scalars Xft would draw as a box or that have no advance in plain text rendering.
    nonisolated static func drawsNothing(_ scalar: Unicode.Scalar) -> Bool {
        if isControl(scalar) { return true }
        switch scalar.value {
        case 0x200b...0x200f, 0x2028...0x202e, 0x2060...0x206f, 0xfe00...0xfe0f, 0xfeff, 0xfff9...0xfffb,
            0xe0000...0xe0fff:
            return true
        default:
            return false
        }
    }

    /// C0 and C1 control characters.
    nonisolated static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7f && scalar.value < 0xa0)
    }

    /// Scalars whose clusters need shaping to look right: the Indic and Southeast Asian scripts
    /// (conjuncts, vowel signs drawn before their consonant), and what builds emoji sequences
    /// (the zero width joiner, the keycap, the emoji presentation selector, regional indicator
    /// pairs for flags, skin tones, tag sequences for subdivision flags). Everything else is
    /// drawn one glyph per character.
    nonisolated static func needsShaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala
        case 0x0900...0x0DFF,
            0x0E00...0x0FFF,  // Thai, Lao, Tibetan
            0x1000...0x109F,  // Myanmar
            0x1780...0x17FF,  // Khmer
            0xA8E0...0xA8FF,  // Devanagari Extended
            0x200D, 0x20E3, 0xFE0F,  // zero width joiner, combining enclosing keycap, emoji presentation
            0x1F1E6...0x1F1FF,  // regional indicators
            0x1F3FB...0x1F3FF,  // skin tone modifiers
            0xE0020...0xE007F:  // tags
            return true
        default:
            return false
        }
    }

    /// Letters (and the marks, digits and signs) of the right-to-left scripts whose letters
    /// join or whose vowel marks the font places: Arabic, Syriac, Thaana, N'Ko, Mandaic, Hanifi
    /// Rohingya, Adlam. With HarfBuzz they are shaped a word at a time, right to left (joined
    /// forms, lam-alef and other ligatures, marks placed by the font); without it FriBidi joins
    /// them into presentation forms. The presentation forms themselves are left to Xft.
    nonisolated static func joinsRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0600...0x07BF,  // Arabic, Syriac, Arabic Supplement, Thaana
            0x07C0...0x07FF,  // N'Ko
            0x0840...0x08FF,  // Mandaic, Syriac Supplement, Arabic Extended-B and -A
            0x10D00...0x10D3F,  // Hanifi Rohingya
            0x1E900...0x1E95F:  // Adlam
            return true
        default:
            return false
        }
    }
}
