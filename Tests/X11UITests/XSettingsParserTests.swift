import Testing
import X11TestSupport

@testable import X11UI

/// The `_XSETTINGS_SETTINGS` parser on bytes written by hand, by the test manager's encoder in
/// both byte orders, cut short, lying about their lengths, and random: each type is read, and
/// anything wrong is one reason, never a crash, a hang or an allocation the bytes do not hold.
@Suite struct XSettingsParserTests {
    typealias Manager = XSettingsManager

    func parsed(_ bytes: [UInt8]) -> XSettings? { try? XSettings.parse(bytes).get() }

    func reason(_ bytes: [UInt8]) -> String? {
        if case .failure(let malformed) = XSettings.parse(bytes) { return malformed.reason }
        return nil
    }

    @Test func anIntegerLeastSignificantByteFirstByHand() throws {
        let bytes: [UInt8] = [
            0, 0, 0, 0,  // byte order LSBFirst, unused
            7, 0, 0, 0,  // serial 7
            1, 0, 0, 0,  // one setting
            0, 0, 7, 0,  // integer, unused, name length 7
            0x58, 0x66, 0x74, 0x2f, 0x44, 0x50, 0x49, 0,  // "Xft/DPI" and a byte of padding
            3, 0, 0, 0,  // last change serial
            0x00, 0x80, 0x01, 0x00,  // 98304: 96 dpi
        ]
        let settings = try #require(parsed(bytes))
        #expect(settings.serial == 7)
        #expect(settings.values == ["Xft/DPI": .integer(98304)])
    }

    @Test func aStringMostSignificantByteFirstByHand() throws {
        let bytes: [UInt8] = [
            1, 0, 0, 0,  // MSBFirst
            0, 0, 1, 2,  // serial 258
            0, 0, 0, 1,  // one setting
            1, 0, 0, 8,  // string, name length 8
            0x58, 0x66, 0x74, 0x2f, 0x52, 0x47, 0x42, 0x41,  // "Xft/RGBA", no padding needed
            0, 0, 0, 0,
            0, 0, 0, 3, 0x62, 0x67, 0x72, 0,  // "bgr" and a byte of padding
        ]
        let settings = try #require(parsed(bytes))
        #expect(settings.serial == 258)
        #expect(settings.values == ["Xft/RGBA": .string("bgr")])
    }

    @Test func everyTypeInBothByteOrders() throws {
        let table: [String: Manager.Value] = [
            "Net/DoubleClickTime": 250, "Net/Negative": -5, "Gtk/CursorThemeName": "Adwaita",
            "Gtk/Empty": "", "Net/Aligned": "four",
            "Gtk/Colour": .color(red: 0x1234, green: 2, blue: 0xfffe, alpha: 0xffff),
            "Net/Unicode": "터미널 ✓",
        ]
        for order in [Manager.ByteOrder.leastSignificantFirst, .mostSignificantFirst] {
            let settings = try #require(parsed(Manager.encode(table, serial: 0xdead_beef, byteOrder: order)))
            #expect(settings.serial == 0xdead_beef)
            #expect(settings.values.count == table.count)
            #expect(settings.values["Net/DoubleClickTime"] == .integer(250))
            #expect(settings.values["Net/Negative"] == .integer(-5))
            #expect(settings.values["Gtk/CursorThemeName"] == .string("Adwaita"))
            #expect(settings.values["Gtk/Empty"] == .string(""))
            #expect(settings.values["Net/Aligned"] == .string("four"))
            #expect(settings.values["Net/Unicode"] == .string("터미널 ✓"))
            #expect(settings.values["Gtk/Colour"] == .color(red: 0x1234, green: 2, blue: 0xfffe, alpha: 0xffff))
        }
        #expect(parsed(Manager.encode([:])) == XSettings(serial: 0, values: [:]))
    }

    /// Every prefix of a valid property but the whole is malformed, with a reason; none reads
    /// past its end.
    @Test func everyTruncationIsMalformed() {
        let whole = Manager.encode([
            "Xft/DPI": 196608, "Xft/HintStyle": "hintslight", "Gtk/C": .color(red: 1, green: 2, blue: 3, alpha: 4),
        ])
        #expect(parsed(whole) != nil)
        for length in 0..<whole.count {
            // A prefix that ends exactly after a setting still lacks the settings announced.
            #expect(reason(Array(whole.prefix(length))) != nil, "a prefix of \(length) bytes")
        }
    }

    @Test func lengthsAndCountsAreNotBelieved() throws {
        // Four billion settings announced in 12 bytes: refused before any loop.
        #expect(reason([0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])?.contains("4294967295 settings") == true)
        // A name longer than what is left.
        var bytes = Manager.encode(["Xft/DPI": 1])
        bytes[14] = 0xff
        bytes[15] = 0xff
        #expect(reason(bytes)?.contains("name") == true)
        // A string of length 2³² − 1 ("-1"), and one just past the end.
        for length: [UInt8] in [[0xff, 0xff, 0xff, 0xff], [9, 0, 0, 0]] {
            var string = Manager.encode(["Gtk/CursorThemeName": "abcd"])
            string.replaceSubrange(40..<44, with: length)
            #expect(reason(string)?.contains("Gtk/CursorThemeName's value") == true, "\(length)")
        }
        // The padding is required: a 3-byte string with its padding cut.
        #expect(reason(Array(Manager.encode(["Xft/RGBA": "rgb"]).dropLast())) != nil)
    }

    @Test func whatCannotBeReadIsNamed() throws {
        #expect(reason([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])?.contains("byte order 2") == true)
        var unknown = Manager.encode(["Net/Odd": 1])
        unknown[12] = 7
        #expect(reason(unknown)?.contains("type 7") == true)
        // The same name twice (the count says two).
        let one = Manager.encode(["Xft/DPI": 1])
        var twice = Array(one.prefix(12)) + one.dropFirst(12) + one.dropFirst(12)
        twice[8] = 2
        #expect(reason(twice)?.contains("given twice") == true)
        #expect(reason([UInt8](repeating: 0, count: XSettings.maximumSize + 1))?.contains("more than") == true)
        // A hostile name of 60 KiB is cut in the reason (a warning stays one short line).
        var long = Manager.encode([String(repeating: "n", count: 60_000): 1])
        long[12] = 9
        let said = try #require(reason(long))
        #expect(said.count < 200)
        // Bytes after the settings announced are left alone, as GTK leaves them.
        #expect(parsed(Manager.encode(["Xft/DPI": 1]) + [1, 2, 3]) != nil)
    }

    /// Random bytes, and valid properties with random bytes changed, cut or lengthened: a fixed
    /// seed, so a failure replays. Each parse ends (nothing loops on a count it did not check)
    /// and either reads a table or names a reason.
    @Test func randomBytesNeitherCrashNorHang() {
        var random = SplitMix64(seed: 0x5e77_1265)
        let valid = Manager.encode(
            [
                "Xft/DPI": 98304, "Xft/Antialias": 1, "Xft/HintStyle": "hintfull", "Xft/RGBA": "rgb",
                "Gtk/CursorThemeName": "DMZ-White", "Gtk/Colour": .color(red: 1, green: 2, blue: 3, alpha: 4),
            ], byteOrder: .mostSignificantFirst)
        var tables = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<random.int(0...96)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                // A valid byte order and small counts now and then, to get past the header.
                if bytes.count > 12, random.int(0...1) == 0 {
                    bytes[0] = UInt8(random.int(0...1))
                    bytes[8...11] =
                        bytes[0] == 0 ? [UInt8(random.int(0...4)), 0, 0, 0] : [0, 0, 0, UInt8(random.int(0...4))]
                }
            } else {
                bytes = valid
                for _ in 0..<random.int(1...4) {
                    bytes[random.int(0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: random.next())
                }
                if random.int(0...3) == 0 { bytes = Array(bytes.prefix(random.int(0...bytes.count))) }
                if random.int(0...3) == 0 { bytes += (0..<random.int(1...8)).map { _ in UInt8(random.int(0...255)) } }
            }
            switch XSettings.parse(bytes) {
            case .success(let settings):
                tables += 1
                #expect(settings.values.count <= bytes.count / 12)
            case .failure(let malformed):
                #expect(!malformed.reason.isEmpty)
            }
        }
        #expect(tables > 100, "some mutations still read: \(tables)")
    }
}

/// What a table of settings says as `DesktopSettings`: each setting X11UI follows typed,
/// "the default" values as nil, and wrong types and values out of range left out and named.
@Suite struct XSettingsDesktopSettingsTests {
    func settings(_ values: [String: XSettings.Value]) -> (DesktopSettings, [String]) {
        let (settings, rejected) = XSettings(serial: 0, values: values).desktopSettings()
        return (settings, rejected.map(\.name))
    }

    @Test func everySettingIsTyped() {
        let (s, rejected) = settings([
            "Xft/DPI": .integer(147456), "Xft/Antialias": .integer(0), "Xft/Hinting": .integer(1),
            "Xft/HintStyle": .string("hintslight"), "Xft/RGBA": .string("vbgr"),
            "Net/DoubleClickTime": .integer(650), "Net/DoubleClickDistance": .integer(12),
            "Net/CursorBlink": .integer(0), "Net/CursorBlinkTime": .integer(900),
            "Gtk/CursorThemeName": .string("Adwaita"), "Gtk/CursorThemeSize": .integer(48),
            "Net/EnableAnimations": .integer(0), "Net/ThemeName": .string("Unread"),
        ])
        #expect(rejected.isEmpty)
        #expect(s.dpi == 144)
        #expect(s.antialias == false)
        #expect(s.hinting == true)
        #expect(s.hintStyle == "hintslight")
        #expect(s.subpixelOrder == "vbgr")
        #expect(s.doubleClickTime == 650)
        #expect(s.doubleClickDistance == 12)
        #expect(s.cursorBlink == false)
        #expect(s.cursorBlinkTime == 900)
        #expect(s.cursorThemeName == "Adwaita")
        #expect(s.cursorThemeSize == 48)
        #expect(s.enableAnimations == false)
        #expect(XSettings.followedNames.count == 12)
    }

    @Test func theDefaultsSayNothing() {
        let (s, rejected) = settings([
            "Xft/DPI": .integer(-1), "Xft/Antialias": .integer(-1), "Xft/Hinting": .integer(-1),
            "Xft/HintStyle": .string(""), "Xft/RGBA": .string(""), "Gtk/CursorThemeName": .string(""),
            "Gtk/CursorThemeSize": .integer(0),
        ])
        #expect(rejected.isEmpty)
        #expect(s == DesktopSettings())
    }

    @Test func wrongTypesAndValuesOutOfRangeAreLeftOutAndNamed() {
        let bad: [String: XSettings.Value] = [
            "Xft/DPI": .integer(23 * 1024), "Xft/Antialias": .integer(2), "Xft/Hinting": .string("yes"),
            "Xft/HintStyle": .string("hintsome"), "Xft/RGBA": .integer(1), "Net/DoubleClickTime": .integer(0),
            "Net/DoubleClickDistance": .integer(-4), "Net/CursorBlink": .integer(-1),
            "Net/CursorBlinkTime": .integer(50), "Gtk/CursorThemeName": .string("../../etc"),
            "Gtk/CursorThemeSize": .integer(100_000),
            "Net/EnableAnimations": .color(red: 0, green: 0, blue: 0, alpha: 0),
        ]
        let (s, rejected) = settings(bad)
        #expect(s == DesktopSettings())
        #expect(Set(rejected) == Set(bad.keys))
        #expect(settings(["Xft/DPI": .integer(961 * 1024)]).1 == ["Xft/DPI"])
        #expect(settings(["Xft/DPI": .integer(0)]).1 == ["Xft/DPI"])
        #expect(settings(["Gtk/CursorThemeName": .string(String(repeating: "a", count: 256))]).1.count == 1)
        #expect(settings(["Gtk/CursorThemeName": .string("bad\u{0}name")]).1.count == 1)
        let message = XSettings(serial: 0, values: ["Xft/Antialias": .integer(2)]).desktopSettings().rejected.first?
            .message
        #expect(message == "ignoring the desktop's XSETTINGS Xft/Antialias: 2 is not 0, 1 or -1")
    }

    @Test func theFontRenderingSettingsBecomeFontconfigValues() {
        let options = FontRenderingOptions(
            antialias: true, hinting: false, hintStyle: "hintmedium", subpixelOrder: "none")
        #expect(options.antialias == true)
        #expect(options.hinting == false)
        #expect(options.hintStyle == 2)  // FC_HINT_MEDIUM
        #expect(options.subpixelOrder == 5)  // FC_RGBA_NONE
        #expect(FontRenderingOptions(hintStyle: "hintfull", subpixelOrder: "bgr").hintStyle == 3)
        #expect(FontRenderingOptions(subpixelOrder: "bgr").subpixelOrder == 2)
        #expect(FontRenderingOptions() == FontRenderingOptions(hintStyle: "unknown"))
    }
}
