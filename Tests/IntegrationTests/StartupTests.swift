import CX11
import Foundation
import Testing
import X11TestSupport

@_spi(Testing) @testable import X11UI

/// What start-up leaves for later, and that nothing changes for it: XKEYBOARD is set up once
/// the first window is on screen, and keys are then translated as on a display opened with it.
@Suite(.serialized)
@MainActor
final class StartupTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    final class KeyRecordingTextView: TextView {
        var keys: [(key: Key, text: String)] = []
        override func keyPressed(_ event: ViewKeyEvent) -> Bool {
            // The modifier keys themselves (Shift_L … Hyper_R) are not recorded.
            if case .other(let keysym) = event.key, (0xffe1...0xffee).contains(keysym) {
                return super.keyPressed(event)
            }
            keys.append((event.key, event.text))
            return super.keyPressed(event)
        }
    }

    private func showFocused(_ text: TextView) -> X11UI.Window {
        let window = X11UI.Window(
            title: "Keys", size: Size(width: 240, height: 80), content: VStack(padding: 10) { text },
            application: display.app)
        display.show(window)
        window.focus(text)
        return window
    }

    @Test func theKeyboardExtensionIsSetUpOnceTheFirstWindowIsOnScreen() throws {
        #expect(!display.app.usesKeyboardExtension, "XKEYBOARD was set up before the first window")
        let text = KeyRecordingTextView("Type here")
        _ = showFocused(text)
        #expect(display.run(until: { self.display.app.usesKeyboardExtension }))
    }

    /// Unshifted and shifted letters give their keysyms and text; a key whose first group is
    /// Greek types gamma; with Control held, XKB's control fallback (which the core keyboard
    /// mapping lacks) finds the Latin letter in the second group.
    @Test func keysAreTranslatedThroughTheKeyboardExtension() throws {
        let text = KeyRecordingTextView("Type here")
        _ = showFocused(text)
        #expect(display.run(until: { self.display.app.usesKeyboardExtension }))
        probe.movePointer(to: 20, 20)
        probe.key(UInt(XK_a))
        probe.key(UInt(XK_b), shift: true)
        #expect(display.run(until: { text.keys.count >= 2 }))
        #expect(text.keys.map(\.text) == ["a", "B"])
        #expect(
            text.keys.map(\.key) == [
                EventTranslator.key(forKeysym: UInt(XK_a)), EventTranslator.key(forKeysym: UInt(XK_B)),
            ])

        probe.remapKey(UInt(XK_g), to: [UInt(XK_Greek_gamma), UInt(XK_Greek_GAMMA), UInt(XK_g), UInt(XK_G)])
        probe.key(UInt(XK_g))
        #expect(display.run(until: { text.keys.count >= 3 }))
        #expect(text.keys.last?.key == EventTranslator.key(forKeysym: UInt(XK_Greek_gamma)))
        probe.key(UInt(XK_g), control: true)
        #expect(display.run(until: { text.keys.count >= 4 }))
        #expect(text.keys.last?.key == EventTranslator.key(forKeysym: UInt(XK_g)))
    }

    /// A key that arrives before the start-up work that waits for the first window (in the
    /// same batch as the window's first Expose) sets XKEYBOARD up first. Translated without it,
    /// the key would load Xlib's core keyboard mapping, and the display would then stay on
    /// core translation for good.
    @Test func aKeyBeforeTheDeferredWorkIsTranslatedThroughTheKeyboardExtension() throws {
        probe.remapKey(UInt(XK_g), to: [UInt(XK_Greek_gamma), UInt(XK_Greek_GAMMA), UInt(XK_g), UInt(XK_G)])
        probe.movePointer(to: 20, 20)
        let text = KeyRecordingTextView("Type here")
        let window = X11UI.Window(
            title: "Keys", size: Size(width: 240, height: 80), content: VStack(padding: 10) { text },
            application: display.app)
        window.requestedPosition = Point(x: 0, y: 0)
        window.show()
        window.focus(text)
        // The map was flushed by show(); the probe's keys reach the server after it.
        probe.sync()
        probe.key(UInt(XK_g), control: true)
        probe.sync()
        #expect(!display.app.usesKeyboardExtension, "XKEYBOARD was set up before the first window was on screen")
        #expect(display.run(until: { !text.keys.isEmpty }))
        #expect(text.keys.first?.key == EventTranslator.key(forKeysym: UInt(XK_g)))
        #expect(display.app.usesKeyboardExtension)
    }
}
