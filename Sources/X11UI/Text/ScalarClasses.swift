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

    /// Whether a letter of a joining script never joins the letter after it in reading order:
    /// it joins only the one before (alef, dal, ra, waw and their kin in Arabic; alaph, dalath,
    /// he, waw and their kin in Syriac) or none (hamza, digits, signs, spaces). Text may be cut
    /// before such a letter without changing a glyph; a letter that joins both ways (beh, lam),
    /// the tatweel and the joiners may not. Scripts whose every letter joins both ways (N'Ko,
    /// Adlam, Mandaic) answer false for their letters.
    nonisolated static func endsJoining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0621...0x0625, 0x0627, 0x0629, 0x062F...0x0632, 0x0648,  // alef with madda … waw
            0x0671...0x0673, 0x0675...0x0677, 0x0688...0x0699, 0x06C0, 0x06C3...0x06CB, 0x06CD, 0x06CF,
            0x06D2, 0x06D3, 0x06D5, 0x06EE, 0x06EF, 0x0759...0x075B, 0x076B, 0x076C, 0x0771, 0x0773, 0x0774,
            0x0778, 0x0779, 0x08AA...0x08AC, 0x08AE, 0x08B1, 0x08B2, 0x08B9,
            0x0710, 0x0715...0x0719, 0x071E, 0x0728, 0x072A, 0x072C, 0x072F, 0x074D:  // Syriac
            return true
        case 0x0640, 0x200C, 0x200D:  // tatweel and the joiners join both ways
            return false
        default:
            // Letters of the joining scripts join both ways unless listed above; anything else
            // (hamza, digits, punctuation) joins nothing.
            let category = scalar.properties.generalCategory
            return category != .otherLetter && category != .nonspacingMark
        }
    }
}
