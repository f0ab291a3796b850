import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Keyboard shortcuts in a window of this process, pressed with XTest on a private Xvfb: the
/// shortcut runs its view's action wherever focus is, a disabled or hidden view's does nothing,
/// a key alone leaves the focused view its keys, and the key is the one the layout types
/// (AZERTY, Dvorak, Russian with `setxkbmap` on the test's own server). The tooltip of a view
/// with a shortcut shows it at the trailing edge, and says it in its name.
@Suite(.serialized)
@MainActor
final class KeyboardShortcutEventTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    /// Counts of the actions run, by button.
    final class Counts {
        var values: [String: Int] = [:]
        func add(_ name: String) { values[name, default: 0] += 1 }
        subscript(_ name: String) -> Int { values[name] ?? 0 }
    }

    /// A window of buttons, each counting its presses; shown at the top left, with the pointer
    /// on an empty part of it (keys go to the window under the pointer on a bare server).
    func showButtons(
        _ buttons: [(title: String, shortcut: KeyboardShortcut?)], counts: Counts
    ) -> (X11UI.Window, [Button]) {
        let views = buttons.map { item in
            Button(title: item.title, keyboardShortcut: item.shortcut) { counts.add(item.title) }
        }
        let stack = VStack(spacing: 8, alignment: .start, padding: 16) {
            for view in views { view }
        }
        let window = X11UI.Window(
            title: "Shortcuts", size: Size(width: 360, height: 60 + 44 * Double(views.count)), content: stack,
            application: display.app)
        display.show(window)
        probe.movePointer(to: 350, 5)
        display.settle()
        return (window, views)
    }

    /// Presses the key of `keysym` (as the server's first group has it) with Control.
    func pressControl(_ keysym: UInt) {
        probe.key(keysym, control: true)
        display.settle()
    }

    @Test func theShortcutRunsTheActionWhereverFocusIs() throws {
        let counts = Counts()
        let (window, buttons) = showButtons(
            [("Save", KeyboardShortcut("s")), ("Other", nil), ("Undo", KeyboardShortcut("z"))], counts: counts)
        // No view has focus.
        pressControl(UInt(XK_s))
        #expect(display.run(until: { counts["Save"] == 1 }))
        // Another button has focus (from the keyboard): the shortcut still runs Save, not it.
        window.focus(buttons[1], byKeyboard: true)
        pressControl(UInt(XK_s))
        #expect(display.run(until: { counts["Save"] == 2 }))
        #expect(counts["Other"] == 0)
        #expect(window.focusedView === buttons[1], "focus stays where it was")
        pressControl(UInt(XK_z))
        #expect(display.run(until: { counts["Undo"] == 1 }))
        // Other modifiers make another key: Ctrl+Shift+Z and Alt+S are not these shortcuts.
        probe.key(UInt(XK_z), shift: true, control: true)
        probe.key(code: probe.keycode(typing: UInt(XK_s)), holding: [UInt(XK_Alt_L)])
        probe.key(UInt(XK_s))
        display.settle()  // the keys have reached the application
        #expect(counts.values == ["Save": 2, "Undo": 1])
    }

    @Test func aDisabledOrHiddenViewsShortcutDoesNothing() throws {
        let counts = Counts()
        let (_, buttons) = showButtons([("Save", KeyboardShortcut("s")), ("Other", nil)], counts: counts)
        buttons[0].isEnabled = false
        pressControl(UInt(XK_s))  // handled once it returns
        #expect(counts["Save"] == 0)
        // In a disabled container too.
        buttons[0].isEnabled = true
        buttons[0].superview?.isEnabled = false
        pressControl(UInt(XK_s))  // handled once it returns
        #expect(counts["Save"] == 0)
        buttons[0].superview?.isEnabled = true
        buttons[0].isHidden = true
        pressControl(UInt(XK_s))  // handled once it returns
        #expect(counts["Save"] == 0)
        buttons[0].isHidden = false
        pressControl(UInt(XK_s))
        #expect(display.run(until: { counts["Save"] == 1 }), "enabled and shown again, it runs")
    }

    /// Two views with one shortcut: the first enabled one in Tab order runs; a disabled one
    /// before it does not hold the key back.
    @Test func theFirstEnabledViewWithTheShortcutRuns() throws {
        let counts = Counts()
        let (_, buttons) = showButtons(
            [("First", KeyboardShortcut("d")), ("Second", KeyboardShortcut("d"))], counts: counts)
        pressControl(UInt(XK_d))
        #expect(display.run(until: { counts["First"] == 1 }))
        buttons[0].isEnabled = false
        pressControl(UInt(XK_d))
        #expect(display.run(until: { counts["Second"] == 1 }))
        #expect(counts["First"] == 1)
    }

    /// A key alone (Return, a letter) is the focused view's first: Return presses the focused
    /// button, not the one whose shortcut is Return; with no focused view that uses it, the
    /// shortcut runs. A command key (with Control) is the shortcut's first.
    @Test func aKeyAloneIsTheFocusedViewsFirstACommandIsTheShortcuts() throws {
        let counts = Counts()
        let (window, buttons) = showButtons(
            [
                ("Default", KeyboardShortcut(.return, modifiers: [])), ("Focused", nil),
                ("Send", KeyboardShortcut(.return)),
            ], counts: counts)
        window.focus(buttons[1], byKeyboard: true)
        probe.key(0xff0d)  // Return
        #expect(display.run(until: { counts["Focused"] == 1 }))
        #expect(counts["Default"] == 0)
        pressControl(0xff0d)  // Ctrl+Return: the shortcut, though the focused button takes Return
        #expect(display.run(until: { counts["Send"] == 1 }))
        #expect(counts["Focused"] == 1)
        window.focus(nil)
        probe.key(0xff0d)
        #expect(display.run(until: { counts["Default"] == 1 }))
    }

    @Test func capsLockDoesNotChangeTheShortcut() throws {
        let counts = Counts()
        _ = showButtons([("Save", KeyboardShortcut("s"))], counts: counts)
        probe.key(UInt(XK_Caps_Lock))
        defer { probe.key(UInt(XK_Caps_Lock)) }
        pressControl(UInt(XK_s))
        #expect(display.run(until: { counts["Save"] == 1 }))
    }

    // MARK: - Keyboard layouts

    /// Sets the server's keyboard layout with `setxkbmap` (on the test's own display) and waits
    /// until the application translates `code` as `keysym`.
    func setLayout(_ arguments: [String], until code: UInt32, types keysym: UInt) throws {
        let child = try ChildProcess(
            "/usr/bin/setxkbmap", ["-display", display.server.display] + arguments,
            environment: ["DISPLAY": display.server.display], stdout: .null, stderr: .null)
        try #require(child.wait(timeout: 10) == 0, "setxkbmap \(arguments)")
        let xdisplay = display.app.connection.display
        let seen = display.run(until: {
            var event = XKeyEvent()
            event.type = KeyPress
            event.display = xdisplay
            event.keycode = code
            return EventTranslator.translate(&event).keysym == keysym
        })
        try #require(seen, "the application sees the layout \(arguments)")
    }

    /// AZERTY: Ctrl+Z is the key that types Z there (QWERTY's W); QWERTY's Z types W, and is
    /// Ctrl+W.
    @Test func onAZERTYTheShortcutIsTheKeyThatTypesIt() throws {
        let counts = Counts()
        _ = showButtons([("Undo", KeyboardShortcut("z")), ("Close", KeyboardShortcut("w"))], counts: counts)
        let qwertyZ = probe.keycode(typing: UInt(XK_z))
        let qwertyW = probe.keycode(typing: UInt(XK_w))
        try setLayout(["fr"], until: qwertyW, types: UInt(XK_z))
        defer { _ = try? setLayout(["us"], until: qwertyW, types: UInt(XK_w)) }
        probe.key(code: qwertyW, holding: [UInt(XK_Control_L)])
        display.settle()
        #expect(display.run(until: { counts["Undo"] == 1 }))
        probe.key(code: qwertyZ, holding: [UInt(XK_Control_L)])
        display.settle()
        #expect(display.run(until: { counts["Close"] == 1 }))
        #expect(counts["Undo"] == 1)
    }

    /// Dvorak: Ctrl+S is the key that types S there (QWERTY's semicolon key).
    @Test func onDvorakTheShortcutIsTheKeyThatTypesIt() throws {
        let counts = Counts()
        _ = showButtons([("Save", KeyboardShortcut("s")), ("Open", KeyboardShortcut("o"))], counts: counts)
        let qwertyS = probe.keycode(typing: UInt(XK_s))
        let semicolon = probe.keycode(typing: UInt(XK_semicolon))
        try setLayout(["us", "-variant", "dvorak"], until: semicolon, types: UInt(XK_s))
        defer { _ = try? setLayout(["us"], until: semicolon, types: UInt(XK_semicolon)) }
        probe.key(code: semicolon, holding: [UInt(XK_Control_L)])
        display.settle()
        #expect(display.run(until: { counts["Save"] == 1 }))
        probe.key(code: qwertyS, holding: [UInt(XK_Control_L)])  // types O on Dvorak
        display.settle()
        #expect(display.run(until: { counts["Open"] == 1 }))
        #expect(counts["Save"] == 1)
    }

    /// Russian (with a US group, as Russian keyboards are set up): Ctrl+S and Alt+S are the key
    /// that types "ы", S in the Latin group, as in GTK; that key's Cyrillic shortcut would win.
    @Test func onARussianLayoutTheShortcutIsTheKeyOfTheLatinGroup() throws {
        let counts = Counts()
        _ = showButtons(
            [("Save", KeyboardShortcut("s")), ("Search", KeyboardShortcut("s", modifiers: .alt))], counts: counts)
        let qwertyS = probe.keycode(typing: UInt(XK_s))
        try setLayout(["ru,us"], until: qwertyS, types: UInt(XK_Cyrillic_yeru))
        defer { _ = try? setLayout(["us"], until: qwertyS, types: UInt(XK_s)) }
        probe.key(code: qwertyS, holding: [UInt(XK_Control_L)])
        display.settle()
        #expect(display.run(until: { counts["Save"] == 1 }))
        probe.key(code: qwertyS, holding: [UInt(XK_Alt_L)])
        display.settle()
        #expect(display.run(until: { counts["Search"] == 1 }), "Alt, which the text has no fallback for")
        #expect(counts.values == ["Save": 1, "Search": 1])
    }

    // MARK: - The tooltip

    /// The tooltip shows the text and, dimmed, the shortcut: at the bubble's right edge on the
    /// first line, or its left edge for right-to-left text; its name says "text (shortcut)".
    @Test(arguments: [false, true])
    func theTooltipShowsTheShortcutAtItsTrailingEdge(rightToLeft: Bool) throws {
        let counts = Counts()
        let (_, buttons) = showButtons([("Save", KeyboardShortcut("s"))], counts: counts)
        let text = rightToLeft ? "שמור את המסמך בדיסק." : "Save the document to disk."
        buttons[0].toolTip = text
        display.movePointer(to: buttons[0])
        #expect(display.run(until: { self.display.app.toolTips.shownText != nil }))
        #expect(display.app.toolTips.shownText == text + " (Ctrl+S)")
        let tip = try #require(probe.mappedPopups().last)
        #expect(probe.string(tip.id, "_NET_WM_NAME") == text + " (Ctrl+S)")
        let window = try #require(display.app.toolTips.presenter.hostWindow)
        let content = try #require(display.app.toolTips.presenter.content as? ToolTipShortcutContent)
        let body = try #require(display.app.toolTips.presenter.geometry?.body)
        let shortcut = content.shortcutLabel
        let textLabel = try #require(content.textLabel)
        #expect(shortcut.text == "Ctrl+S")
        let shortcutFrame = shortcut.convertToWindow(shortcut.bounds)
        let textFrame = textLabel.convertToWindow(textLabel.bounds)
        let padding = ToolTipStyle.standard.padding.left
        // The shortcut on the first line, at the trailing edge inside the padding; the text
        // at the other side, on the same top.
        #expect(shortcutFrame.minY == textFrame.minY)
        if rightToLeft {
            #expect(shortcutFrame.minX == body.minX + padding)
            #expect(textFrame.minX > shortcutFrame.maxX)
        } else {
            #expect(shortcutFrame.maxX == body.maxX - padding)
            #expect(textFrame.maxX < shortcutFrame.minX)
        }
        // On the screen: the shortcut's pixels are the secondary colour's (dimmer than the
        // text), and they are where the label is.
        let origin = try #require(window.screenOrigin)
        let secondary = Color.toolTipSecondaryLabel.resolved(in: display.app.appearance)
        let secondaryRed = Int((secondary.red * 255).rounded())
        let probe = self.probe
        /// The brightest red channel of a rectangle of the tooltip's window, on the screen.
        func brightest(_ frame: Rect) -> Int {
            Int(
                probe.pixels(
                    Int(origin.x + frame.minX), Int(origin.y + frame.minY), Int(frame.width), Int(frame.height)
                ).map { ($0 >> 16) & 0xff }.max() ?? 0)
        }
        // Painted: read until the screen shows it (or the time is up, and the checks say what
        // it showed).
        var (brightestInk, textBrightest) = (0, 0)
        _ = display.run(until: {
            (brightestInk, textBrightest) = (brightest(shortcutFrame), brightest(textFrame))
            return abs(brightestInk - secondaryRed) <= 8 && textBrightest > brightestInk + 40
        })
        #expect(abs(brightestInk - secondaryRed) <= 8, "brightest ink \(brightestInk)")
        #expect(textBrightest > brightestInk + 40, "the text (\(textBrightest)) is brighter than the shortcut")
        // The tool tip's Text, as AT-SPI2 reads it: the shortcut in parentheses, each of its
        // characters where the shortcut's label draws it.
        let accessible = AccessibleText.labels(content, ToolTipPresenter.textLabels(in: content))
        #expect(accessible.text == text + " (Ctrl+S)")
        let spoken = accessible.text
        let range = try #require(spoken.range(of: "Ctrl+S"))
        let inContent = shortcut.frame
        let rects = accessible.rects(covering: range)
        #expect(!rects.isEmpty && rects.allSatisfy { inContent.insetBy(dx: -1, dy: -1).contains($0) }, "\(rects)")
        let first = try #require(
            accessible.rects(covering: range.lowerBound..<spoken.index(after: range.lowerBound)).first)
        let atC = accessible.index(at: Point(x: first.minX + 1, y: first.midY))
        #expect(atC == range.lowerBound, "the C of Ctrl+S, not the parenthesis before it")
    }

    /// A view with a shortcut but no tooltip shows none: tooltips come where the program put
    /// them. Its tooltip set later shows the shortcut, and a shortcut changed while it shows
    /// is shown in place.
    @Test func aShortcutWithoutATooltipShowsNoneAndAChangeShowsInPlace() throws {
        let counts = Counts()
        let (_, buttons) = showButtons([("Save", KeyboardShortcut("s"))], counts: counts)
        display.movePointer(to: buttons[0])
        // None maps past the initial delay: checked all along.
        let probe = self.probe
        #expect(!display.run(until: { !probe.mappedPopups().isEmpty }, timeout: .milliseconds(700)))
        buttons[0].toolTip = "Save the document."
        display.movePointer(to: buttons[0], dx: 10)
        #expect(display.run(until: { self.display.app.toolTips.shownText == "Save the document. (Ctrl+S)" }))
        let tip = try #require(probe.mappedPopups().last)
        buttons[0].keyboardShortcut = KeyboardShortcut("s", modifiers: [.control, .shift])
        #expect(
            display.run(until: { self.probe.string(tip.id, "_NET_WM_NAME") == "Save the document. (Ctrl+Shift+S)" }))
        #expect(probe.mappedPopups().last?.id == tip.id)
        buttons[0].keyboardShortcut = nil
        #expect(display.run(until: { self.probe.string(tip.id, "_NET_WM_NAME") == "Save the document." }))
    }
}
