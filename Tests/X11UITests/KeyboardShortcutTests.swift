import Testing

@testable import X11UI

/// Keyboard shortcuts without a display: their text, their AT-SPI2 key binding, how key presses
/// match them, and where the shortcut goes in a tooltip's bubble.
@Suite @MainActor struct KeyboardShortcutTests {
    // MARK: - Text

    @Test func theTextNamesModifiersAndKeysAsMenusDo() {
        let cases: [(KeyboardShortcut, String)] = [
            (KeyboardShortcut("s"), "Ctrl+S"),
            (KeyboardShortcut("z", modifiers: [.control, .shift]), "Ctrl+Shift+Z"),
            (KeyboardShortcut(.function(5), modifiers: []), "F5"),
            (KeyboardShortcut(.pageUp), "Ctrl+Page Up"),
            (KeyboardShortcut(.pageDown, modifiers: [.control, .shift]), "Ctrl+Shift+Page Down"),
            (KeyboardShortcut(.return), "Ctrl+Return"),
            (KeyboardShortcut(.left, modifiers: .alt), "Alt+Left"),
            (KeyboardShortcut("a", modifiers: .super), "Super+A"),
            (KeyboardShortcut(.delete, modifiers: [.alt, .control]), "Ctrl+Alt+Delete"),
            (KeyboardShortcut("x", modifiers: [.super, .alt, .shift, .control]), "Ctrl+Shift+Alt+Super+X"),
            (KeyboardShortcut(" "), "Ctrl+Space"),
            (KeyboardShortcut("+"), "Ctrl++"),
            (KeyboardShortcut(","), "Ctrl+,"),
            (KeyboardShortcut("\\"), "Ctrl+Backslash"),
            (KeyboardShortcut("1"), "Ctrl+1"),
            (KeyboardShortcut(.backspace), "Ctrl+Backspace"),
            (KeyboardShortcut(.escape, modifiers: []), "Escape"),
            (KeyboardShortcut(.tab, modifiers: .shift), "Shift+Tab"),
            (KeyboardShortcut(.function(10), modifiers: .shift), "Shift+F10"),
            (KeyboardShortcut(.other(0xff63)), "Ctrl+Insert"),
            (KeyboardShortcut(.other(0xff61), modifiers: []), "Print"),
            (KeyboardShortcut(.other(0xff14), modifiers: []), "Scroll Lock"),
            // No name of X11UI's own: X's, as GTK shows it.
            (KeyboardShortcut(.other(0xff7f), modifiers: []), "Num Lock"),
            (KeyboardShortcut(.other(0xff95), modifiers: .shift), "Shift+KP Home"),
        ]
        for (shortcut, text) in cases {
            #expect(shortcut.description == text)
        }
    }

    /// A key is labelled as the key cap of a layout that has it shows it: letters of any script
    /// in upper case (from a character, a Latin-1 keysym or a Unicode keysym), one character
    /// ("ß" has no single upper case).
    @Test func aKeyIsLabelledAsItsLayoutShowsIt() {
        #expect(KeyboardShortcut("é").description == "Ctrl+É")
        #expect(KeyboardShortcut("ß").description == "Ctrl+ß")
        #expect(KeyboardShortcut("в").description == "Ctrl+В")
        #expect(KeyboardShortcut(.other(0xe9)).description == "Ctrl+É")  // eacute
        #expect(KeyboardShortcut(.other(0x0100_0432)).description == "Ctrl+В")  // U+0432 as a keysym
        #expect(KeyboardShortcut(.other(0x0100_05d0)).description == "Ctrl+א")  // a letter without case
    }

    @Test func lettersAreOneKeyInEitherCaseAndModifiersAreTheFourThatCount() {
        #expect(KeyboardShortcut("S") == KeyboardShortcut("s"))
        #expect(KeyboardShortcut("S").key == .character("s"))
        #expect(KeyboardShortcut("É").key == .character("é"))
        #expect(KeyboardShortcut(" ").key == .space)
        #expect(KeyboardShortcut("\r").key == .return)
        #expect(KeyboardShortcut("s").modifiers == .control, "Control by default, as SwiftUI's Command")
        let held: Modifiers = [.control, .capsLock, .button1, Modifiers(rawValue: 1 << 4)]
        #expect(KeyboardShortcut("s", modifiers: held).modifiers == .control)
        #expect(Key.function(1) == .other(0xffbe))
        #expect(Key.function(35) == .other(0xffe0))
        #expect(Key.function(99) == .function(35) && Key.function(0) == .function(1))
    }

    // MARK: - AT-SPI2

    /// The key binding AT-SPI2 offers is `gtk_accelerator_name`'s, which Orca parses with GTK.
    @Test func theAcceleratorNameIsGTKs() {
        let cases: [(KeyboardShortcut, String)] = [
            (KeyboardShortcut("s"), "<Control>s"),
            (KeyboardShortcut("Z", modifiers: [.control, .shift]), "<Control><Shift>z"),
            (KeyboardShortcut(.pageUp), "<Control>Page_Up"),
            (KeyboardShortcut(.return), "<Control>Return"),
            (KeyboardShortcut(.function(5), modifiers: []), "F5"),
            (KeyboardShortcut("+", modifiers: .alt), "<Alt>plus"),
            (KeyboardShortcut("é"), "<Control>eacute"),
            (KeyboardShortcut(" ", modifiers: .super), "<Super>space"),
            (KeyboardShortcut("в"), "<Control>U0432"),
        ]
        for (shortcut, name) in cases {
            #expect(shortcut.acceleratorName == name)
        }
    }

    /// A view that is not a button offers its shortcut as an "activate" action, which runs
    /// its own handler while it is enabled; a button's click has the shortcut as its binding.
    @Test func aViewWithAShortcutHasAnActivateAction() {
        final class Canvas: View {
            var cleared = 0
            override func keyboardShortcutPressed() -> Bool {
                cleared += 1
                return true
            }
        }
        let canvas = Canvas()
        let save = Button(title: "Save", keyboardShortcut: KeyboardShortcut("s"))
        let window = Window(
            title: "Shortcuts",
            content: VStack {
                canvas; save
            })
        _ = window
        #expect(AccessibleNode.view(canvas).actions.isEmpty)
        canvas.keyboardShortcut = KeyboardShortcut(.delete, modifiers: [])
        #expect(AccessibleNode.view(canvas).actions.map(\.name) == ["activate"])
        #expect(AccessibleNode.view(canvas).keyBinding(ofAction: "activate") == ";;Delete")
        #expect(AccessibleNode.view(canvas).performAction(0))
        #expect(canvas.cleared == 1)
        canvas.isEnabled = false
        #expect(!AccessibleNode.view(canvas).performAction(0))
        #expect(canvas.cleared == 1)
        #expect(AccessibleNode.view(save).actions.map(\.name) == ["click"])
        #expect(AccessibleNode.view(save).keyBinding(ofAction: "click") == ";;<Control>s")
        save.keyboardShortcut = nil
        #expect(AccessibleNode.view(save).keyBinding(ofAction: "click") == "space")
    }

    // MARK: - Matching

    /// A press: the key the layout typed, the modifiers it used for it, the modifiers held.
    static func press(
        _ key: Key, consumed: Modifiers = [], held: Modifiers, latin: ShortcutKeyPress.Level? = nil
    ) -> ShortcutKeyPress {
        ShortcutKeyPress(pressed: .init(key: key, consumed: consumed), latin: latin, modifiers: held)
    }

    @Test func aKeyWithItsModifiersMatchesAndNothingElseDoes() {
        let save = KeyboardShortcut("s")
        #expect(save.match(Self.press("s", held: .control)) == .exact)
        #expect(save.match(Self.press("s", held: [])) == nil)
        #expect(save.match(Self.press("s", held: [.control, .alt])) == nil)
        #expect(save.match(Self.press("d", held: .control)) == nil)
        // Caps Lock, Num Lock (Mod2) and the pointer's buttons do not count.
        let locks: Modifiers = [.control, .capsLock, Modifiers(rawValue: 1 << 4), .button1]
        #expect(save.match(Self.press("s", held: locks)) == .exact)
        let reload = KeyboardShortcut(.function(5), modifiers: [])
        #expect(reload.match(Self.press(.function(5), held: [])) == .exact)
        #expect(reload.match(Self.press(.function(5), held: .control)) == nil)
        let back = KeyboardShortcut(.left, modifiers: .alt)
        #expect(back.match(Self.press(.left, held: .alt)) == .exact)
    }

    /// Shift on a letter is its upper case: Ctrl+Shift+Z is redo, never undo.
    @Test func shiftOnALetterMakesAnotherShortcut() {
        let undo = KeyboardShortcut("z")
        let redo = KeyboardShortcut("z", modifiers: [.control, .shift])
        let shifted = Self.press("Z", consumed: .shift, held: [.control, .shift])
        #expect(redo.match(shifted) == .exact)
        #expect(undo.match(shifted) == nil)
        let plain = Self.press("z", held: .control)
        #expect(undo.match(plain) == .exact)
        #expect(redo.match(plain) == nil)
    }

    /// A character that needs Shift on one layout and not on another (+ on US and German
    /// keyboards) matches with or without Shift in the shortcut where the layout used it.
    @Test func shiftTheLayoutUsedForACharacterIsIgnored() {
        let zoomIn = KeyboardShortcut("+")
        let zoomInShifted = KeyboardShortcut("+", modifiers: [.control, .shift])
        let us = Self.press("+", consumed: .shift, held: [.control, .shift])
        #expect(zoomIn.match(us) == .exact)
        #expect(zoomInShifted.match(us) == .exact)
        let german = Self.press("+", held: .control)
        #expect(zoomIn.match(german) == .exact)
        #expect(zoomInShifted.match(german) == nil, "Shift the layout did not use counts")
    }

    /// For a named key Shift always counts: Shift+Tab (ISO_Left_Tab, Shift used) is not Tab.
    @Test func shiftOnANamedKeyAlwaysCounts() {
        let next = KeyboardShortcut(.tab)
        let previous = KeyboardShortcut(.tab, modifiers: [.control, .shift])
        let shiftTab = Self.press(.tab, consumed: .shift, held: [.control, .shift])
        #expect(previous.match(shiftTab) == .exact)
        #expect(next.match(shiftTab) == nil)
        #expect(next.match(Self.press(.tab, held: .control)) == .exact)
    }

    /// On a layout without Latin letters the key matches as it types in the keyboard's Latin
    /// group, a match of its own kind (used only when nothing matches exactly).
    @Test func aKeyOfAnotherScriptMatchesThroughTheLatinGroup() {
        let save = KeyboardShortcut("s")
        let yeru = Self.press(.other(0x6d9), held: .control, latin: .init(key: "s", consumed: []))
        #expect(save.match(yeru) == .latinGroup)
        #expect(KeyboardShortcut("d").match(yeru) == nil)
        // Shift in the Latin group as in the layout's own.
        let redo = KeyboardShortcut("z", modifiers: [.control, .shift])
        let ya = Self.press(
            .other(0x6f1), consumed: .shift, held: [.control, .shift], latin: .init(key: "Z", consumed: .shift))
        #expect(redo.match(ya) == .latinGroup)
        #expect(KeyboardShortcut("z").match(ya) == nil)
    }

    // MARK: - The bubble

    /// Text that wraps: 600 px of it in lines of 15 px at any width.
    static func wrapped(_ width: Double) -> Size {
        let lines = max(1, (600 / max(1, width)).rounded(.up))
        return Size(width: min(600, width), height: lines * 15)
    }

    /// The text wraps in the width the shortcut leaves; the bubble's content is the text, the
    /// gap and the shortcut; a short text keeps its own width.
    @Test func theTextWrapsBesideTheShortcut() {
        let shortcut = Size(width: 60, height: 15)
        let long = ToolTipShortcutContent.size(
            within: Size(width: 360, height: 480), shortcut: shortcut, gap: 24, minimumTextWidth: 80, text: Self.wrapped
        )
        #expect(long == Size(width: 360, height: 3 * 15))  // 276 px of text: three lines
        let short = ToolTipShortcutContent.size(
            within: Size(width: 360, height: 480), shortcut: shortcut, gap: 24, minimumTextWidth: 80
        ) { _ in Size(width: 40, height: 15) }
        #expect(short == Size(width: 40 + 24 + 60, height: 15))
        // A shortcut wider than the bubble leaves the text its least width.
        let squeezed = ToolTipShortcutContent.size(
            within: Size(width: 360, height: 480), shortcut: Size(width: 400, height: 15), gap: 24,
            minimumTextWidth: 80,
            text: Self.wrapped)
        #expect(squeezed.width == 80 + 24 + 400)
    }

    /// Left to right, the shortcut is at the right edge on the first line and the text at the
    /// left; right to left, the other way round.
    @Test func theShortcutIsAtTheTrailingEdgeOnTheFirstLine() {
        let size = Size(width: 360, height: 45)
        let shortcut = Size(width: 60, height: 15)
        let ltr = ToolTipShortcutContent.frames(in: size, shortcut: shortcut, gap: 24, rightToLeft: false) {
            Self.wrapped($0).height
        }
        #expect(ltr.shortcut == Rect(x: 300, y: 0, width: 60, height: 15))
        #expect(ltr.text == Rect(x: 0, y: 0, width: 276, height: 45))
        let rtl = ToolTipShortcutContent.frames(in: size, shortcut: shortcut, gap: 24, rightToLeft: true) {
            Self.wrapped($0).height
        }
        #expect(rtl.shortcut == Rect(x: 0, y: 0, width: 60, height: 15))
        #expect(rtl.text == Rect(x: 84, y: 0, width: 276, height: 45))
        #expect(rtl.text.maxX == size.width && ltr.shortcut.maxX == size.width)
    }

    @Test func theShortcutIsSpokenInParentheses() {
        let content = ToolTipShortcutContent()
        let text = Label("Save the document.")
        content.show(text, shortcut: "Ctrl+S", font: .body, color: .toolTipSecondaryLabel)
        #expect(
            ToolTipPresenter.textLabels(in: content).map(ObjectIdentifier.init)
                == [ObjectIdentifier(text), ObjectIdentifier(content.shortcutLabel)])
        #expect(ToolTipPresenter.plainText(of: content) == "Save the document. (Ctrl+S)")
        #expect(!content.isRightToLeft)
        content.show(Label("שמור את המסמך."), shortcut: "Ctrl+S", font: .body, color: .toolTipSecondaryLabel)
        #expect(content.isRightToLeft)
    }
}
