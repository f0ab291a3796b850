/// A key combination that runs a view's action from anywhere in its window, as in SwiftUI's
/// `keyboardShortcut(_:modifiers:)`: Ctrl+S for a Save button, F5 for Reload.
///
/// ```swift
/// save.keyboardShortcut = KeyboardShortcut("s")                                // Ctrl+S
/// redo.keyboardShortcut = KeyboardShortcut("z", modifiers: [.control, .shift]) // Ctrl+Shift+Z
/// reload.keyboardShortcut = KeyboardShortcut(.function(5), modifiers: [])      // F5
/// ```
///
/// The key is the one the user's keyboard layout types: Ctrl+S is the key that types S on
/// QWERTY, AZERTY or Dvorak alike; on a layout that types no Latin letters (Russian, Greek),
/// the key that types S in the keyboard's Latin layout group, as GTK matches its accelerators.
/// Letters are matched in either case (`"S"` is `"s"`): Shift is a modifier of its own. A
/// character that needs Shift on the user's layout ("+" on a US keyboard) matches with or
/// without Shift in `modifiers`. Caps Lock and Num Lock never matter.
///
/// Its text is the one users know from menus and GTK: ``description`` is "Ctrl+S",
/// "Ctrl+Shift+Z", "F5", "Ctrl+Page Up". A view's tooltip shows it, dimmed, at its trailing
/// edge (see ``View/keyboardShortcut``).
public struct KeyboardShortcut: Hashable, Sendable, CustomStringConvertible {
    /// The key (a letter in lower case).
    public let key: Key
    /// The modifiers held with it: any of Shift, Control, Alt and Super.
    public let modifiers: Modifiers

    /// The modifiers a shortcut can have; others (Caps Lock, the pointer's buttons) are
    /// dropped.
    public static let significantModifiers: Modifiers = [.shift, .control, .alt, .super]

    /// Creates a shortcut: `key` with `modifiers` held (Control unless told otherwise, as
    /// SwiftUI's default is Command).
    ///
    /// - Parameters:
    ///   - key: a character (`"s"`, `"+"`, `"é"`) or a named key (`.return`, `.pageUp`,
    ///     `.function(5)`); a letter in either case is the same key.
    ///   - modifiers: Shift, Control, Alt and Super, in any combination; `[]` for a key alone.
    public init(_ key: Key, modifiers: Modifiers = .control) {
        self.key = Self.normalized(key)
        self.modifiers = modifiers.intersection(Self.significantModifiers)
    }

    /// The shortcut as menus write it, in GTK's key names: the modifiers in the order Ctrl,
    /// Shift, Alt, Super, then the key ("Ctrl+Shift+Z", "Alt+Left", "F5", "Ctrl+Page Up").
    public var description: String {
        var parts: [String] = []
        if modifiers.contains(.control) { parts.append("Ctrl") }
        if modifiers.contains(.shift) { parts.append("Shift") }
        if modifiers.contains(.alt) { parts.append("Alt") }
        if modifiers.contains(.super) { parts.append("Super") }
        parts.append(Self.label(of: key))
        return parts.joined(separator: "+")
    }

    // MARK: - Keys

    /// A letter in lower case, and the control characters of the named keys as those keys.
    private static func normalized(_ key: Key) -> Key {
        guard case .character(let character) = key else { return key }
        switch character {
        case " ": return .space
        case "\r", "\n", "\r\n": return .return
        case "\t": return .tab
        case "\u{1B}": return .escape
        case "\u{8}": return .backspace
        case "\u{7F}": return .delete
        default:
            guard let scalar = character.singleScalar, let lower = scalar.properties.lowercaseMapping.singleScalar
            else { return key }
            return .character(Character(lower))
        }
    }

    /// What a key is called on the screen: GTK's names for the named keys, a character in
    /// upper case as key caps show it.
    static func label(of key: Key) -> String {
        switch key {
        case .escape: return "Escape"
        case .tab: return "Tab"
        case .return: return "Return"
        case .space: return "Space"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .left: return "Left"
        case .right: return "Right"
        case .up: return "Up"
        case .down: return "Down"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "Page Up"
        case .pageDown: return "Page Down"
        case .character(let character): return characterLabel(character)
        case .other(let keysym):
            if let number = functionKeyNumber(keysym) { return "F\(number)" }
            if let name = otherKeyNames[keysym] { return name }
            if let scalar = EventTranslator.characterScalar(forKeysym: keysym) {
                return characterLabel(Character(scalar))
            }
            // The X name, as GTK shows one it has no better name for ("XF86AudioPlay").
            return EventTranslator.keysymName(keysym)?.replacingUnderscores ?? "0x" + String(keysym, radix: 16)
        }
    }

    /// A character as its key cap shows it: in upper case (one character: "ß" stays "ß"), the
    /// backslash by name as GTK writes it.
    private static func characterLabel(_ character: Character) -> String {
        if character == "\\" { return "Backslash" }
        guard let scalar = character.singleScalar, let upper = scalar.properties.uppercaseMapping.singleScalar else {
            return String(character)
        }
        return String(Character(upper))
    }

    /// F1 (0xffbe) to F35 (0xffe0).
    static func functionKeyNumber(_ keysym: UInt) -> Int? {
        (0xffbe...0xffe0).contains(keysym) ? Int(keysym - 0xffbe) + 1 : nil
    }

    /// Keys without a `Key` case that shortcuts use, by GTK's names.
    private static let otherKeyNames: [UInt: String] = [
        0xff63: "Insert", 0xff61: "Print", 0xff13: "Pause", 0xff67: "Menu", 0xff14: "Scroll Lock",
        0xff6a: "Help", 0xff6b: "Break", 0xffab: "KP +", 0xffad: "KP -", 0xffaa: "KP *", 0xffaf: "KP /",
    ]

    /// The X keysym a key stands for (a character as its Latin-1 or Unicode keysym); nil for a
    /// character of more than one scalar.
    static func keysym(of key: Key) -> UInt? {
        switch key {
        case .escape: return 0xff1b
        case .tab: return 0xff09
        case .return: return 0xff0d
        case .space: return 0x20
        case .backspace: return 0xff08
        case .delete: return 0xffff
        case .left: return 0xff51
        case .up: return 0xff52
        case .right: return 0xff53
        case .down: return 0xff54
        case .home: return 0xff50
        case .end: return 0xff57
        case .pageUp: return 0xff55
        case .pageDown: return 0xff56
        case .character(let character):
            guard let value = character.singleScalar?.value else { return nil }
            return (0x20...0x7e).contains(value) || (0xa0...0xff).contains(value)
                ? UInt(value) : 0x0100_0000 + UInt(value)
        case .other(let keysym): return keysym
        }
    }
}

extension Key: ExpressibleByExtendedGraphemeClusterLiteral {
    /// A key from a character literal: `"s"` is `.character("s")`, `" "` is `.space`.
    public init(extendedGraphemeClusterLiteral value: Character) {
        switch value {
        case " ": self = .space
        case "\r", "\n", "\r\n": self = .return
        case "\t": self = .tab
        case "\u{1B}": self = .escape
        default: self = .character(value)
        }
    }

    /// A key from a one-scalar literal.
    public init(unicodeScalarLiteral value: Unicode.Scalar) {
        self.init(extendedGraphemeClusterLiteral: Character(value))
    }

    /// A function key: `.function(5)` is F5 (1 to 35; others are clamped to that range).
    public static func function(_ number: Int) -> Key {
        .other(0xffbe + UInt(min(max(number, 1), 35) - 1))
    }
}

extension Character {
    /// The character's one scalar; nil when it has more (a letter and a combining mark).
    fileprivate var singleScalar: Unicode.Scalar? {
        let scalars = unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }
}

extension String {
    /// The string's one scalar; nil when it has none or more.
    fileprivate var singleScalar: Unicode.Scalar? {
        let scalars = unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }

    /// Underscores as spaces ("Scroll_Lock" as "Scroll Lock").
    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
