import CX11
import Glibc
import Testing
import X11TestSupport

@testable import X11UI

/// Key events are translated without `XLookupString`: the keysym from `XkbLookupKeySym`, the
/// text made by X11UI. Both agree with `XLookupString` on every key of the server's keyboard
/// in every state a person types in, and the translation leaves Xlib's locale converters
/// unloaded.
@Suite(.serialized)
@MainActor
final class KeyTranslationTests {
    let display: InProcessDisplay
    var xdisplay: OpaquePointer { display.app.connection.display }

    init() throws {
        display = try InProcessDisplay()
        display.app.connection.useDeferredKeyboardExtension()
    }

    /// A key press of `code` with modifier `state`.
    private func press(_ code: Int, _ state: Int32) -> XKeyEvent {
        var event = XKeyEvent()
        event.type = KeyPress
        event.display = xdisplay
        event.keycode = UInt32(code)
        event.state = UInt32(state)
        return event
    }

    /// What XLookupString gives: its keysym and its bytes as text in the process's locale
    /// (Latin-1 in the C locale, UTF-8 in a UTF-8 one).
    private func lookUp(_ event: XKeyEvent) -> (keysym: UInt, text: String) {
        var event = event
        var buffer = [CChar](repeating: 0, count: 32)
        var keysym: KeySym = 0
        let count = XLookupString(&event, &buffer, Int32(buffer.count - 1), &keysym, nil)
        let bytes = buffer.prefix(Int(max(0, count))).map { UInt8(bitPattern: $0) }
        let locale = String(cString: setlocale(LC_CTYPE, nil))
        let text =
            locale.uppercased().contains("UTF-8") || locale.uppercased().contains("UTF8")
            ? String(decoding: bytes, as: UTF8.self)
            : String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        return (UInt(keysym), text)
    }

    @Test func everyKeyInEveryStateTranslatesAsXLookupStringDoes() throws {
        try #require(display.app.connection.usesKeyboardExtension)
        // Besides the server's US keyboard: a key with a Greek first group and a Latin second
        // (Control finds the Latin letter), a Cyrillic key, dead keys, a Unicode keysym, the
        // keypad with Num Lock.
        display.probe.remapKey(UInt(XK_g), to: [UInt(XK_Greek_gamma), UInt(XK_Greek_GAMMA), UInt(XK_g), UInt(XK_G)])
        display.probe.remapKey(UInt(XK_c), to: [UInt(XK_Cyrillic_es), UInt(XK_Cyrillic_ES), UInt(XK_c), UInt(XK_C)])
        display.probe.remapKey(UInt(XK_bracketleft), to: [UInt(XK_dead_acute), UInt(XK_dead_diaeresis)])
        display.probe.remapKey(UInt(XK_bracketright), to: [UInt(XK_dead_circumflex), UInt(XK_dead_cedilla)])
        display.probe.remapKey(UInt(XK_backslash), to: [0x0100_20ac, 0x0100_00e9])
        display.probe.sync()
        let gamma = UInt32(XKeysymToKeycode(xdisplay, KeySym(XK_Greek_gamma)))
        let remapped = display.run(until: {
            var event = self.press(Int(gamma), 0)
            return gamma != 0 && EventTranslator.translate(&event).keysym == UInt(XK_Greek_gamma)
        })
        try #require(remapped, "Xlib saw the new keyboard mapping")
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(xdisplay, &minimum, &maximum)
        let shift = ShiftMask
        let lock = LockMask
        let control = ControlMask
        // Plain, Shift, Caps Lock, both, Control, Control-Shift, Num Lock (Mod2) with and
        // without Shift, AltGr's usual modifier (Mod5).
        let states: [Int32] = [
            0, shift, lock, shift | lock, control, control | shift, Mod2Mask, Mod2Mask | shift, Mod5Mask,
        ]
        var compared = 0
        var withText = 0
        for code in Int(minimum)...Int(maximum) {
            for state in states {
                var event = press(code, state)
                let theirs = lookUp(event)
                let ours = EventTranslator.translate(&event)
                let what = "keycode \(code) state \(state) keysym \(String(theirs.keysym, radix: 16))"
                #expect(ours.keysym == theirs.keysym, "\(what)")
                // Beyond Latin-1, a Unicode keysym types its character here; XLookupString in
                // the C locale gives nothing.
                let beyondLatin1 = theirs.text.isEmpty && ours.text.unicodeScalars.allSatisfy { $0.value > 0xff }
                #expect(
                    ours.text == theirs.text || beyondLatin1,
                    "\(what): \(Array(ours.text.unicodeScalars)) against \(Array(theirs.text.unicodeScalars))")
                compared += 1
                if !ours.text.isEmpty { withText += 1 }
            }
        }
        #expect(compared > 1000 && withText > 300, "\(compared) events, \(withText) with text")
    }

    /// The resident size (KB) of a process's mapping of Xlib's code.
    private static func xlibCodeResident(_ pid: Int32) -> Int? {
        guard let smaps = procFile("smaps", ofProcess: pid) else { return nil }
        var inXlibCode = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, fields[0].contains("-"), !fields[0].hasSuffix(":") {
                inXlibCode = fields[1] == "r-xp" && fields.last?.contains("libX11.so") == true
            } else if inXlibCode, fields.first == "Rss:", fields.count >= 2 {
                return Int(fields[1])
            }
        }
        return nil
    }

    @Test func keyPressesBringNoMoreOfXlibsCodeIntoMemory() throws {
        // XLookupString's first call set up Xlib's locale converters: 192 KB more of Xlib's code
        // resident in the sample scene. The keysym lookup and the text made here touch none.
        let session = try ProgramSession(arguments: ["--scene", "sample"], readyView: "text-view")
        let pid = session.program.process.pid
        let window = try session.frame("default-view")
        // A tooltip shown and hidden by the pointer first: the code that shows and hides one is
        // then in memory, whichever 64 KB stretches of Xlib it lies in this run.
        session.probe.movePointer(to: window.midX, window.midY)
        #expect(session.waitForToolTip() != nil)
        // Keys go to the window under the pointer (no window manager): its top-left margin.
        session.probe.movePointer(to: window.x - 10, window.y - 10)
        #expect(session.waitForNoToolTip())
        let before = try #require(Self.xlibCodeResident(pid))
        session.probe.key(0xff09)  // Tab: the next view's focus tooltip shows (the window opened on the first)
        #expect(session.waitForToolTip() != nil)
        session.probe.key(0x61)  // a
        session.probe.key(0x61, shift: true)
        session.probe.key(0x61, control: true)
        session.probe.key(0xff1b)  // Escape hides it
        #expect(session.waitForNoToolTip())
        let after = try #require(Self.xlibCodeResident(pid))
        #expect(after - before < 64, "Xlib's resident code grew by \(after - before) KB")
    }
}
