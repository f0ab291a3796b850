/// The XSETTINGS X11UI follows, typed and checked: what a table of settings says as
/// ``DesktopSettings``.
extension XSettings {
    /// A setting left out: its name, its value as a warning shows it, and what it should be.
    struct Rejection: Equatable, Sendable {
        var name: String
        var value: String
        var expected: String

        /// The warning line.
        var message: String { "ignoring the desktop's XSETTINGS \(name): \(value) is not \(expected)" }
    }

    /// The settings X11UI reads.
    static let followedNames = [
        "Xft/DPI", "Xft/Antialias", "Xft/Hinting", "Xft/HintStyle", "Xft/RGBA", "Net/DoubleClickTime",
        "Net/DoubleClickDistance", "Net/CursorBlink", "Net/CursorBlinkTime", "Gtk/CursorThemeName",
        "Gtk/CursorThemeSize", "Net/EnableAnimations",
    ]

    /// Reads one setting into `s`; returns what it should be when it is not that.
    private static func read(_ name: String, _ value: Value, into s: inout DesktopSettings) -> String? {
        switch name {
        case "Xft/DPI":
            // The manager gives 1024ths of a dot per inch; -1 is its "the default".
            return integer(value, in: -1...(960 * 1024), "from 24576 to 983040 (24 to 960 dpi × 1024), or -1") {
                guard $0 != -1 else { return true }
                s.dpi = Double($0) / 1024
                return $0 >= 24 * 1024
            }
        case "Xft/Antialias": return flag(value, allowsDefault: true) { s.antialias = $0 }
        case "Xft/Hinting": return flag(value, allowsDefault: true) { s.hinting = $0 }
        case "Xft/HintStyle":
            return self.name(value, in: ["hintnone", "hintslight", "hintmedium", "hintfull"]) { s.hintStyle = $0 }
        case "Xft/RGBA": return self.name(value, in: ["none", "rgb", "bgr", "vrgb", "vbgr"]) { s.subpixelOrder = $0 }
        case "Net/DoubleClickTime":
            return integer(value, in: 1...10_000, "milliseconds from 1 to 10000") { s.doubleClickTime = Int($0) }
        case "Net/DoubleClickDistance":
            return integer(value, in: 0...256, "pixels from 0 to 256") { s.doubleClickDistance = Int($0) }
        case "Net/CursorBlink": return flag(value, allowsDefault: false) { s.cursorBlink = $0 }
        case "Net/CursorBlinkTime":
            return integer(value, in: 100...10_000, "milliseconds from 100 to 10000") { s.cursorBlinkTime = Int($0) }
        case "Gtk/CursorThemeName":
            guard case .string(let text) = value else { return "a theme name" }
            guard !text.isEmpty else { return nil }
            // A name libXcursor looks up as a directory of the icon paths: one path component.
            guard text.utf8.count <= 255, !text.unicodeScalars.contains(where: { $0 == "/" || $0.value < 0x20 })
            else { return "a theme name (one path component of at most 255 bytes)" }
            s.cursorThemeName = text
            return nil
        case "Gtk/CursorThemeSize":
            // 0 is the manager's "the default size": nil, as when it says nothing.
            return integer(value, in: 0...512, "pixels from 0 to 512") { s.cursorThemeSize = $0 == 0 ? nil : Int($0) }
        case "Net/EnableAnimations": return flag(value, allowsDefault: false) { s.enableAnimations = $0 }
        default: return nil
        }
    }

    /// What the table says of the settings X11UI follows; a value of the wrong type or out of
    /// range is left out (nil: X11UI's default) and listed in `rejected`.
    func desktopSettings() -> (settings: DesktopSettings, rejected: [Rejection]) {
        var settings = DesktopSettings()
        var rejected: [Rejection] = []
        for name in Self.followedNames {
            guard let value = values[name] else { continue }
            var candidate = settings
            if let expected = Self.read(name, value, into: &candidate) {
                rejected.append(Rejection(name: name, value: Self.shown(value), expected: expected))
            } else {
                settings = candidate
            }
        }
        return (settings, rejected)
    }

    // MARK: - Checks

    /// An integer in `range`.
    private static func integer(
        _ value: Value, in range: ClosedRange<Int32>, _ expected: String, _ accept: (Int32) -> Void
    ) -> String? {
        integer(value, in: range, expected) { (number: Int32) -> Bool in
            accept(number)
            return true
        }
    }

    /// An integer in `range` that `accept` takes (it returns false to reject it after all).
    private static func integer(
        _ value: Value, in range: ClosedRange<Int32>, _ expected: String, _ accept: (Int32) -> Bool
    ) -> String? {
        guard case .integer(let number) = value, range.contains(number), accept(number) else { return expected }
        return nil
    }

    /// 0 or 1, and -1 ("the default": nil) where `allowsDefault`.
    private static func flag(_ value: Value, allowsDefault: Bool, _ accept: (Bool) -> Void) -> String? {
        let expected = allowsDefault ? "0, 1 or -1" : "0 or 1"
        guard case .integer(let number) = value else { return expected }
        switch number {
        case 0, 1: accept(number == 1)
        case -1 where allowsDefault: break
        default: return expected
        }
        return nil
    }

    /// One of `names`; the empty string says nothing.
    private static func name(_ value: Value, in names: [String], _ accept: (String) -> Void) -> String? {
        let expected = names.joined(separator: ", ")
        guard case .string(let text) = value else { return expected }
        guard !text.isEmpty else { return nil }
        guard names.contains(text) else { return expected }
        accept(text)
        return nil
    }

    /// A value as a warning shows it: strings quoted and cut short (``Log/quoted(_:)``).
    static func shown(_ value: Value) -> String {
        switch value {
        case .integer(let number): return "\(number)"
        case .string(let text): return Log.quoted(text)
        case .color(let red, let green, let blue, let alpha): return "the colour (\(red), \(green), \(blue), \(alpha))"
        }
    }
}
