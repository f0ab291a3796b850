import CX11
import Foundation
import Testing
import X11TestSupport
import X11UI

/// Widgets in a window of this process, driven with XTest; checks read the X server.
@Suite(.serialized)
@MainActor
final class WidgetTests {
    let display: InProcessDisplay
    var probe: ServerProbe { display.probe }

    init() throws {
        display = try InProcessDisplay()
    }

    @Test func windowPropertiesFollowICCCMAndEWMH() throws {
        let window = Window(title: "Grüße ✓ 툴팁", size: Size(width: 200, height: 100), application: display.app)
        window.windowClass = ("widget-test", "Widget-test")
        display.show(window)
        let id = try #require(window.windowID).rawValue
        #expect(probe.string(id, "_NET_WM_NAME") == "Grüße ✓ 툴팁")
        #expect(probe.string(id, "WM_CLASS") == "widget-test\0Widget-test\0")
        #expect(probe.longs(id, "_NET_WM_PID") == [Int(getpid())])
        let protocols = probe.longs(id, "WM_PROTOCOLS")?.compactMap { probe.atomName(UInt($0)) }
        #expect(protocols == ["WM_DELETE_WINDOW", "_NET_WM_PING"])
        #expect(probe.windowType(id) == "_NET_WM_WINDOW_TYPE_NORMAL")
        let info = try #require(probe.info(id))
        #expect(info.isMapped && !info.isOverrideRedirect)
        #expect(info.frame.width == 200 && info.frame.height == 100)
    }

    @Test func aClickRunsTheButtonsAction() throws {
        var clicks = 0
        let button = Button(title: "Press me") { clicks += 1 }
        let window = Window(
            title: "Buttons", size: Size(width: 240, height: 120), content: VStack(padding: 20) { button },
            application: display.app)
        display.show(window)
        display.click(button)
        #expect(display.run(until: { clicks == 1 }))
        // A press that ends outside the button does nothing.
        display.movePointer(to: button)
        probe.button(1, down: true)
        probe.movePointer(to: 230, 110)
        probe.button(1, down: false)
        display.settle()  // the press and the release have reached the application
        #expect(clicks == 1)
    }

    @Test func spaceAndReturnActivateTheFocusedButtonAndTabShowsAFocusRing() throws {
        var clicks = 0
        let first = Button(title: "One") { clicks += 1 }
        let second = Button(title: "Two") { clicks += 10 }
        let window = Window(
            title: "Focus", size: Size(width: 240, height: 120),
            content: HStack(padding: 20) {
                first; second
            },
            application: display.app)
        display.show(window)
        probe.movePointer(to: 5, 5)  // keys go to the window under the pointer
        display.settle()
        // The window opened with One focused, without a ring; Space presses it all the same.
        #expect(window.focusedView === first && !window.isFocusVisible)
        let frame = try #require(first.frameOnScreen)
        #expect(probe.pixel(Int(frame.midX), Int(frame.minY) + 1) == 0xf2f2f7, "no ring yet")
        probe.key(0x20)  // Space
        #expect(display.run(until: { clicks == 1 }))
        probe.key(0xff09)  // Tab moves on, with a ring
        #expect(display.run(until: { window.focusedView === second && window.isFocusVisible }))
        probe.key(0xff0d)  // Return
        #expect(display.run(until: { clicks == 11 }))
        probe.key(0xff09, shift: true)  // Shift-Tab goes back
        #expect(display.run(until: { window.focusedView === first }))
        // The ring: accent-tinted pixels just outside the button's body.
        #expect(
            display.run(until: { self.probe.pixel(Int(frame.midX), Int(frame.minY) + 1) != 0xf2f2f7 }),
            "a focus ring is drawn")
    }

    @Test func backgroundsArePaintedWhereTheViewIs() throws {
        let red = View()
        red.backgroundColor = Color(rgb: 0xff0000)
        red.preferredSize = Size(width: 50, height: 30)
        let window = Window(
            title: "Pixels", size: Size(width: 200, height: 100), content: VStack(padding: 10) { red },
            application: display.app)
        display.show(window)
        let frame = try #require(red.frameOnScreen)
        #expect(probe.pixel(Int(frame.midX), Int(frame.midY)) == 0xff0000)
        #expect(probe.pixel(Int(frame.minX) - 2, Int(frame.midY)) == 0xf2f2f7)
        // A change repaints.
        red.backgroundColor = Color(rgb: 0x0000ff)
        let probe = self.probe
        #expect(display.run(until: { probe.pixel(Int(frame.midX), Int(frame.midY)) == 0x0000ff }))
    }

    /// Shows a text view 300 wide in a window of its own, at the top left of the screen.
    func show(_ text: TextView) {
        text.preferredWidth = 300
        display.show(
            Window(
                title: "Text", size: Size(width: 340, height: 120), content: VStack(padding: 10) { text },
                application: display.app))
    }

    @Test func draggingSelectsTextAndOffersItAsPrimary() throws {
        let text = TextView("Hello selectable world")
        show(text)
        let frame = try #require(text.frameOnScreen)
        probe.movePointer(to: Int(frame.minX) + 9, Int(frame.minY) + 16)
        display.settle()
        probe.button(1, down: true)
        for x in stride(from: Int(frame.minX) + 9, through: Int(frame.maxX) - 10, by: 20) {
            probe.movePointer(to: x, Int(frame.minY) + 16)
            display.settle()
        }
        probe.button(1, down: false)
        #expect(display.run(until: { text.selectedText == "Hello selectable world" }))
        #expect(text.selectionRects.count == 1)
        #expect(display.run(until: { self.probe.selectionOwner("PRIMARY") != 0 }))
        // Double-click selects a word.
        let word = Int(frame.minX) + 60
        probe.movePointer(to: word, Int(frame.minY) + 16)
        probe.click()
        probe.click()
        #expect(display.run(until: { text.selectedText == "selectable" }))
    }

    /// Hebrew in a text view starts at the right edge: double-clicking the rightmost word selects
    /// the first word read, and the highlight is drawn over it, not at the left.
    @Test func doubleClickingTheRightmostHebrewWordSelectsTheFirstWordRead() throws {
        let text = TextView("שלום עולם")
        show(text)
        let frame = try #require(text.frameOnScreen)
        let y = Int(frame.minY) + 16
        probe.movePointer(to: Int(frame.maxX) - 18, y)
        display.settle()
        probe.click()
        probe.click()
        #expect(display.run(until: { text.selectedText == "שלום" }))
        let rects = text.selectionRects
        #expect(rects.count == 1)
        let rect = try #require(rects.first)
        #expect(abs(rect.maxX - (frame.width - text.padding)) < 1, "the highlight ends at the right edge: \(rect)")
        let top = Int(frame.minY + rect.minY) + 1
        let probe = self.probe
        #expect(
            display.run(until: { probe.pixel(Int(frame.minX + rect.midX), top) != 0xffffff }),
            "highlighted over the word")
        #expect(probe.pixel(Int(frame.minX) + 20, top) == 0xffffff, "nothing highlighted at the left")
        // The leftmost word is the last one read.
        text.selectAll()
        let line = try #require(text.selectionRects.first)
        // Far from the last presses (past the double-click distance), these two are a new
        // double click whenever they come.
        probe.movePointer(to: Int(frame.minX + line.minX) + 5, y)
        display.settle()
        probe.click()
        probe.click()
        #expect(display.run(until: { text.selectedText == "עולם" }))
    }

    /// Ctrl+A and Ctrl+C in a text view copy to CLIPBOARD, which another program can paste; and
    /// they still do after the keyboard changes to a Russian layout beside US, where the same
    /// keys type Ф and С (Xlib's control fallback finds the Latin letter in the other group).
    @Test func controlCCopiesToTheClipboardOnLatinAndNonLatinLayouts() throws {
        final class KeyRecordingTextView: TextView {
            var keys: [Key] = []
            override func keyPressed(_ event: ViewKeyEvent) -> Bool {
                keys.append(event.key)
                return super.keyPressed(event)
            }
        }
        let text = KeyRecordingTextView("Copy me, please")
        show(text)
        display.click(text)
        #expect(display.run(until: { text.isFocused }))
        func copyAllAndPaste() -> String? {
            probe.key(UInt(XK_a), control: true)
            probe.key(UInt(XK_c), control: true)
            let copied = display.run(until: {
                self.probe.selectionOwner("CLIPBOARD") != 0 && !self.probe.ownsSelection("CLIPBOARD")
            })
            guard copied else { return nil }
            probe.requestSelectionText("CLIPBOARD")
            // The answer reaches the probe's connection, which does not wake the application's
            // loop: run it in short slices and look between them.
            for _ in 0..<300 {
                if let pasted = probe.requestedSelectionText() { return pasted }
                display.run(for: .milliseconds(10))
            }
            return nil
        }
        #expect(copyAllAndPaste() == "Copy me, please")

        // Another program copies; then the layout becomes Russian (first group) beside US.
        probe.ownSelection("CLIPBOARD")
        text.select(nil)
        probe.remapKey(UInt(XK_a), to: [UInt(XK_Cyrillic_ef), UInt(XK_Cyrillic_EF), UInt(XK_a), UInt(XK_A)])
        probe.remapKey(UInt(XK_c), to: [UInt(XK_Cyrillic_es), UInt(XK_Cyrillic_ES), UInt(XK_c), UInt(XK_C)])
        // The application follows the new mapping: the key alone now types С.
        probe.key(UInt(XK_c))
        #expect(display.run(until: { text.keys.last == .other(UInt(XK_Cyrillic_es)) }), "\(text.keys.suffix(3))")
        #expect(copyAllAndPaste() == "Copy me, please")
        #expect(text.selectedText == "Copy me, please")
    }

    @Test func closingByTheWindowManagerProtocolClosesTheWindow() throws {
        let window = Window(title: "Close me", size: Size(width: 100, height: 100), application: display.app)
        var closed = false
        window.onClose = { closed = true }
        display.show(window)
        let id = try #require(window.windowID).rawValue
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = id
        event.xclient.message_type = probe.atom("WM_PROTOCOLS")
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(probe.atom("WM_DELETE_WINDOW"))
        XSendEvent(probe.display, id, 0, 0, &event)
        probe.sync()
        #expect(display.run(until: { closed }))
        #expect(!window.isVisible)
    }

    @Test func resizingTheWindowLaysOutAgain() throws {
        let fill = View()
        fill.backgroundColor = .green
        fill.fillsAvailableSpace = true
        let window = Window(
            title: "Resize", size: Size(width: 200, height: 100),
            content: VStack(alignment: .fill, padding: 0) { fill }, application: display.app)
        display.show(window)
        #expect(fill.frame.size == Size(width: 200, height: 100))
        XResizeWindow(probe.display, try #require(window.windowID).rawValue, 300, 150)
        probe.sync()
        #expect(display.run(until: { fill.frame.size == Size(width: 300, height: 150) }))
    }

    @Test func clickingAButtonWhileAClickTooltipIsOpenHidesItAndStillRunsTheAction() throws {
        var clicks = 0
        let icon = View()
        icon.preferredSize = Size(width: 40, height: 40)
        icon.backgroundColor = .gray
        icon.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "Home"))
        let button = Button(title: "Act") { clicks += 1 }
        let window = Window(
            title: "Click", size: Size(width: 300, height: 200),
            content: HStack(spacing: 40, padding: 60) {
                icon; button
            }, application: display.app)
        display.show(window)
        display.click(icon)
        #expect(display.run(until: { self.display.app.toolTips.shownText == "Home" }))
        display.click(button)
        #expect(display.run(until: { clicks == 1 }))
        #expect(!display.app.toolTips.isShowing)
    }
}
