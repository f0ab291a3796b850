internal import CX11
internal import CX11Internal

/// A key event's keysym and text.
///
/// `XLookupString` would give both, but under XKEYBOARD its first call sets up Xlib's locale
/// converters: it reads the X locale database and brings 0.2 MB of Xlib's code and tables into
/// memory, to turn a keysym into text. X11UI asks Xlib only for the keysym
/// (`XkbLookupKeySym`, which applies the keyboard's groups and shift levels, or the core
/// mapping without XKEYBOARD) and makes the text itself, as `XLookupString` does for Latin-1:
/// Caps Lock where the key's type leaves it, control characters with Control (from another
/// layout group when the key is not ASCII in this one), the keypad's
/// digits and operators, Return, Tab, BackSpace, Escape and Delete as their control
/// characters, and dead keys as their spacing accents. Keysyms that name a Unicode character
/// (0x0100_0000 + U) give that character, in any script.
extension EventTranslator {
    /// The keysym and the text of a key press.
    static func translate(_ event: inout XKeyEvent) -> (keysym: UInt, text: String) {
        var consumed: UInt32 = 0
        var keysym: KeySym = 0
        guard
            XkbLookupKeySym(event.display, KeyCode(truncatingIfNeeded: event.keycode), event.state, &consumed, &keysym)
                != 0
        else { return (0, "") }
        var modifiers = event.state & ~consumed
        if modifiers & UInt32(ControlMask) != 0, keysym > 0x7f,
            let latin = latinGroupLookup(&event, state: event.state)
        {
            // Control on a key that is not ASCII in this group (Control-C on a Russian
            // layout): the first other group where the key is ASCII, as XLookupString's
            // control fallback does.
            keysym = KeySym(latin.keysym)
            modifiers = latin.state & ~latin.consumed
        }
        if modifiers & UInt32(LockMask) != 0 {
            // Caps Lock the key's type did not use (a letter's type makes it the shift
            // level): the upper case, as XLookupString gives.
            var lower: KeySym = 0
            var upper: KeySym = 0
            XConvertCase(keysym, &lower, &upper)
            keysym = upper
        }
        return (UInt(keysym), text(forKeysym: UInt(keysym), modifiers: modifiers))
    }

    /// A key looked up in a layout group: its keysym, the state it was looked up with, and the
    /// modifiers the group's mapping used.
    typealias GroupLookup = (keysym: UInt, state: UInt32, consumed: UInt32)

    /// The first layout group other than the event's where its key types ASCII (keysym below
    /// 0x7f), with the modifiers of `state`. Groups past the key's own wrap onto those tried.
    /// Nil without XKEYBOARD (no groups) or when no group has ASCII there.
    static func latinGroupLookup(_ event: inout XKeyEvent, state: UInt32) -> GroupLookup? {
        guard cx11_xkb_in_use(event.display) != 0 else { return nil }
        let group = (state >> 13) & 0x3
        for other in UInt32(0)..<4 where other != group {
            var consumed: UInt32 = 0
            var keysym: KeySym = 0
            let otherState = other << 13 | state & 0xff
            if XkbLookupKeySym(
                event.display, KeyCode(truncatingIfNeeded: event.keycode), otherState, &consumed, &keysym) != 0,
                keysym < 0x7f
            {
                return (UInt(keysym), otherState, consumed)
            }
        }
        return nil
    }

    /// The key press as keyboard shortcuts match it: the key at the level the modifiers chose
    /// with Caps Lock left out (Ctrl+S with Caps Lock on is still Ctrl+S), the modifiers the
    /// layout used to reach it, and, for a key that types no Latin-1 character in the current
    /// group (a Russian letter), the same key in the first group where it types ASCII.
    static func shortcutPress(_ event: inout XKeyEvent) -> ShortcutKeyPress {
        let state = event.state & ~UInt32(LockMask)
        let held = Modifiers(rawValue: event.state).intersection(ShortcutKeyPress.significant)
        var consumed: UInt32 = 0
        var keysym: KeySym = 0
        guard
            XkbLookupKeySym(event.display, KeyCode(truncatingIfNeeded: event.keycode), state, &consumed, &keysym) != 0
        else {
            return ShortcutKeyPress(pressed: .init(key: .other(0), consumed: []), modifiers: held)
        }
        let pressed = ShortcutKeyPress.Level(key: key(forKeysym: UInt(keysym)), consumed: Modifiers(rawValue: consumed))
        var press = ShortcutKeyPress(pressed: pressed, modifiers: held)
        // Beyond Latin-1 and not a function or dead key: a letter of another script.
        if keysym > 0xff, keysym < 0xfe00 || keysym >= 0x0100_0000, let latin = latinGroupLookup(&event, state: state) {
            press.latin = .init(key: key(forKeysym: latin.keysym), consumed: Modifiers(rawValue: latin.consumed))
        }
        return press
    }

    /// The X name of a keysym (`XKeysymToString`: "Return", "plus", "eacute", "F5"; "U0432"
    /// for a Unicode keysym), as accelerators are written for GTK and AT-SPI2; nil for one X
    /// has no name for.
    static func keysymName(_ keysym: UInt) -> String? {
        if keysym >= 0x0100_0000 {
            // A Unicode keysym's name is "U" and its hex digits; Xlib would allocate it anew at
            // each call.
            guard keysym <= 0x0110_ffff else { return nil }
            let digits = String(keysym - 0x0100_0000, radix: 16, uppercase: true)
            return "U" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        guard keysym != 0, let name = XKeysymToString(KeySym(keysym)) else { return nil }
        return String(cString: name)
    }

    /// The text a keysym types with `modifiers` (those the keyboard's mapping left unused).
    static func text(forKeysym keysym: UInt, modifiers: UInt32) -> String {
        guard let scalar = scalar(forKeysym: keysym) else { return "" }
        guard modifiers & UInt32(ControlMask) != 0 else { return String(Character(scalar)) }
        // With Control, a character of one byte in Latin-1 becomes its control character
        // (XkbToControl); any other gives no text.
        let value = scalar.value
        guard value <= 0xff else { return "" }
        let control: UInt32
        switch value {
        case 0x40..<0x7f, 0x20: control = value & 0x1f
        case 0x32: control = 0  // Control-2
        case 0x33...0x37: control = value - 0x33 + 0x1b  // Control-3 … Control-7
        case 0x38: control = 0x7f  // Control-8
        case 0x2f: control = 0x1f  // Control-/
        default: control = value
        }
        return String(Character(Unicode.Scalar(UInt8(control))))
    }

    /// The character a keysym stands for: Latin-1 and Unicode keysyms, the keys Xlib gives a
    /// control character or a keypad character, and dead keys as their spacing accents; nil
    /// for keys that type nothing.
    static func scalar(forKeysym keysym: UInt) -> Unicode.Scalar? {
        if let scalar = characterScalar(forKeysym: keysym) { return scalar }
        switch keysym {
        case 0xff80:  // KP_Space
            return " "
        case 0xff08...0xff0b, 0xff0d, 0xff1b, 0xff89, 0xff8d, 0xffaa...0xffb9, 0xffbd, 0xffff:
            // BackSpace, Tab, Linefeed, Clear, Return, Escape, KP_Tab, KP_Enter, the keypad's
            // operators and digits, KP_Equal, Delete: the keysym's low seven bits.
            return Unicode.Scalar(UInt8(keysym & 0x7f))
        case 0xfe50...0xfe5f:
            return deadKeyAccents[Int(keysym - 0xfe50)]
        default:
            return nil
        }
    }

    /// The character a Latin-1 keysym (the character's own value) or a Unicode keysym
    /// (0x0100_0000 + U) names; nil for other keysyms and for surrogates.
    static func characterScalar(forKeysym keysym: UInt) -> Unicode.Scalar? {
        switch keysym {
        case 0x20...0x7e, 0xa0...0xff: return Unicode.Scalar(UInt8(keysym))
        case 0x0100_0000...0x0110_ffff: return Unicode.Scalar(UInt32(keysym - 0x0100_0000))
        default: return nil
        }
    }

    /// The spacing accents of the dead keys XLookupString turns into Latin-1 text
    /// (`dead_grave` 0xfe50 … `dead_semivoiced_sound` 0xfe5f): grave, acute, circumflex, tilde,
    /// macron, diaeresis, ring (as the degree sign) and cedilla; nil for the others, whose
    /// accents are not in Latin-1.
    private static let deadKeyAccents: [Unicode.Scalar?] = [
        "`", "\u{B4}", "^", "~", "\u{AF}", nil, nil, "\u{A8}",  // grave … diaeresis
        "\u{B0}", nil, nil, "\u{B8}", nil, nil, nil, nil,  // abovering … semivoiced_sound
    ]
}
