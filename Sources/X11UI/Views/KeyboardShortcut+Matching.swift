/// Whether a key press is a shortcut: GTK's rules (`gdk_key_event_matches`), on the key the
/// layout typed.
extension KeyboardShortcut {
    /// How a key press matches a shortcut.
    enum Match: Equatable {
        /// The key the layout typed, with the shortcut's modifiers.
        case exact
        /// The same key in the keyboard's Latin group (Ctrl+S from the key that types "ы" on a
        /// Russian layout): used only when no shortcut of the window matches exactly.
        case latinGroup
    }

    /// How `press` matches the shortcut; nil when it does not.
    ///
    /// The modifiers held must be the shortcut's, except those the layout used to type the
    /// key (Shift for "+" on a US keyboard, so Ctrl++ matches with or without Shift in the
    /// shortcut). A letter with Shift is its upper case, so Ctrl+Z does not match
    /// Ctrl+Shift+Z; for a named key, Shift always counts (Shift+Tab is not Tab).
    func match(_ press: ShortcutKeyPress) -> Match? {
        if matches(press.pressed, holding: press.modifiers) { return .exact }
        if let latin = press.latin, matches(latin, holding: press.modifiers) { return .latinGroup }
        return nil
    }

    private func matches(_ level: ShortcutKeyPress.Level, holding held: Modifiers) -> Bool {
        let expected: Key
        var ignored = level.consumed.intersection(held)
        if case .character(let character) = key {
            expected = modifiers.contains(.shift) ? .character(Self.upperCase(character)) : key
        } else {
            expected = key
            ignored.remove(.shift)
        }
        guard modifiers.subtracting(ignored) == held.subtracting(ignored) else { return false }
        return level.key == expected
    }

    /// A character as Shift types it (one scalar: "ß" stays "ß").
    private static func upperCase(_ character: Character) -> Character {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return character }
        let upper = scalar.properties.uppercaseMapping.unicodeScalars
        guard upper.count == 1, let first = upper.first else { return character }
        return Character(first)
    }
}
