import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Cursors from the user's theme (libXcursor), read back as the server shows them (XFixes)
/// while XTest moves the pointer: the test themes (``TestCursorTheme``) give each theme, cursor
/// and size its own colour.
@Suite(.serialized)
@MainActor
final class CursorTests {
    typealias Colors = TestCursorTheme.Color
    /// The colours of the server's own cursors.
    static let blackAndWhite: Set<UInt32> = [0xff00_0000, 0xffff_ffff]

    /// A window with a text view, a button, a view that asks for the pointing hand, and a
    /// panel of plain views that sets a cursor for the views inside it.
    @MainActor
    final class Scene {
        let display: InProcessDisplay
        let window: Window
        let text = TextView("Select some of this text.")
        let button = Button(title: "Buy")
        let link = View()
        let panel = View()
        let inner = View()

        init(resources: String? = nil) throws {
            display = try InProcessDisplay(width: 640, height: 480, resources: resources)
            text.preferredWidth = 200
            link.preferredSize = Size(width: 80, height: 30)
            link.backgroundColor = .accent
            link.cursor = .pointingHand
            panel.preferredSize = Size(width: 120, height: 60)
            panel.backgroundColor = .controlBackground
            inner.frame = Rect(x: 10, y: 10, width: 40, height: 40)
            inner.backgroundColor = .accent
            panel.addSubview(inner)
            let (text, button, link, panel) = (text, button, link, panel)
            window = Window(
                title: "cursors", size: Size(width: 400, height: 300),
                content: VStack(spacing: 12, padding: 16) {
                    text; button; link; panel
                }, application: display.app)
            display.show(window)
        }

        /// The cursor the server shows once the application handled what came before.
        func cursor() -> ServerProbe.CursorImage? {
            display.settle()
            display.app.sync()
            return display.probe.cursorImage()
        }

        /// The cursor shown with the pointer in the middle of `view`.
        func cursor(over view: View) -> ServerProbe.CursorImage? {
            display.movePointer(to: view)
            return cursor()
        }
    }

    @Test func theTextViewShowsTheThemesIBeamAndAButtonTheWindowsOwnCursor() throws {
        let scene = try Scene(resources: "Xcursor.theme: red\n")
        let plain = try #require(scene.cursor(over: scene.button))
        let text = try #require(scene.cursor(over: scene.text))
        #expect(text.name == "text" && text.opaqueColors == [Colors.redText], "\(text)")
        #expect(text.width == 24 && text.height == 24)
        let back = try #require(scene.cursor(over: scene.button))
        #expect(back.serial == plain.serial, "over the button the window's own cursor shows again: \(back)")
        let hand = try #require(scene.cursor(over: scene.link))
        #expect(hand.name == "pointer" && hand.opaqueColors == [Colors.redPointer], "\(hand)")
    }

    /// A view that sets no cursor shows its superview's; one that sets `.arrow` inside it shows
    /// the theme's arrow.
    @Test func aCursorIsInheritedDownTheViewTree() throws {
        let scene = try Scene(resources: "Xcursor.theme: red\n")
        scene.panel.cursor = .pointingHand
        #expect(try #require(scene.cursor(over: scene.inner)).opaqueColors == [Colors.redPointer])
        scene.inner.cursor = .arrow
        // Changed under the pointer: shown without a motion.
        let arrow = try #require(scene.cursor())
        #expect(arrow.name == "default" && arrow.opaqueColors == [Colors.redArrow], "\(arrow)")
        #expect(try #require(scene.cursor(over: scene.panel)).opaqueColors == [Colors.redPointer])
    }

    /// A theme with only the older X names (`xterm`, `hand2`) serves them.
    @Test func olderNamesStandInForTheSpecificationsNames() throws {
        let scene = try Scene(resources: "Xcursor.theme: legacy\n")
        #expect(try #require(scene.cursor(over: scene.text)).opaqueColors == [Colors.legacyText])
        #expect(try #require(scene.cursor(over: scene.link)).opaqueColors == [Colors.legacyPointer])
    }

    /// No theme named and no default theme on the search path: the server's own I-beam, black
    /// and white and unnamed.
    @Test func withoutAThemeTheCoreCursorShows() throws {
        let scene = try Scene()
        let plain = try #require(scene.cursor(over: scene.button))
        let text = try #require(scene.cursor(over: scene.text))
        #expect(text.serial != plain.serial, "the I-beam is defined")
        #expect(text.name.isEmpty && Set(text.opaqueColors).isSubset(of: Self.blackAndWhite), "\(text)")
        #expect(!text.opaqueColors.isEmpty)
    }

    /// Without libXcursor the theme cannot be read: the server's own cursors, for the I-beam
    /// and for the pointing hand.
    @Test func withoutLibXcursorTheCoreCursorShows() throws {
        let scene = try Scene(resources: "Xcursor.theme: red\n")
        let app = scene.display.app
        app.cursorStore = CursorStore(
            connection: app.connection, library: nil, theme: CursorTheme(name: "red", size: 24))
        let plain = try #require(scene.cursor(over: scene.button))
        for view in [scene.text, scene.link] {
            let shown = try #require(scene.cursor(over: view))
            #expect(shown.serial != plain.serial, "a cursor is defined")
            #expect(shown.name.isEmpty && Set(shown.opaqueColors).isSubset(of: Self.blackAndWhite), "\(shown)")
        }
    }

    /// Where no size is given, the standard 24 pixels at X11UI's scale (48 at 192 dpi); a size
    /// given is taken as it is.
    @Test(arguments: [
        ("Xcursor.theme: red\nXft.dpi: 192\n", Colors.redTextLarge, 48),
        ("Xcursor.theme: red\nXcursor.size: 48\n", Colors.redTextLarge, 48),
        ("Xcursor.theme: red\nXft.dpi: 120\n", Colors.redText, 24),
    ])
    func theSizeFollowsTheScaleWhereNoneIsGiven(resources: String, color: UInt32, width: Int) throws {
        let scene = try Scene(resources: resources)
        let text = try #require(scene.cursor(over: scene.text))
        #expect(text.opaqueColors == [color] && text.width == width, "\(text)")
    }

    /// The desktop's settings come before the resources, and a change while the pointer rests
    /// on the text view redefines its cursor at once: the new theme, then the new size; the
    /// cursors of the old theme are freed.
    @Test func aLiveThemeOrSizeChangeRedefinesTheCursor() throws {
        let scene = try Scene(resources: "Xcursor.theme: red\nXft.dpi: 192\n")
        let app = scene.display.app
        var settings = app.desktopSettings
        settings.cursorThemeName = "blue"
        settings.cursorThemeSize = 24
        app.desktopSettingsDidChange(settings)
        #expect(try #require(scene.cursor(over: scene.text)).opaqueColors == [Colors.blueText])
        #expect(try #require(scene.cursor(over: scene.link)).opaqueColors == [Colors.bluePointer])
        _ = scene.cursor(over: scene.text)
        let windowID = try #require(scene.window.windowID)
        let before = scene.display.probe.resourceCounts(ofClientOwning: windowID)["CURSOR"]

        settings.cursorThemeName = "red"
        app.desktopSettingsDidChange(settings)
        let red = try #require(scene.cursor())
        #expect(red.opaqueColors == [Colors.redText], "redefined without a motion: \(red)")
        settings.cursorThemeSize = nil  // the standard size at 192 dpi
        app.desktopSettingsDidChange(settings)
        let large = try #require(scene.cursor())
        #expect(large.opaqueColors == [Colors.redTextLarge] && large.width == 48, "\(large)")
        // The one cursor made since each change (the I-beam) replaced the ones before.
        let after = try #require(scene.display.probe.resourceCounts(ofClientOwning: windowID)["CURSOR"])
        #expect(after <= (try #require(before)), "cursors: \(after), \(before ?? 0) before")
    }

    /// Moving within a view asks nothing of the server for the cursor; moving onto a view that
    /// wants another one is one request (ChangeWindowAttributes).
    @Test func theCursorIsDefinedOncePerChangeNeverPerMotion() throws {
        let server = try XvfbServer(width: 640, height: 480)
        defer { server.stop() }
        let proxy = try XProxy(serverDisplay: server.number, firstDisplay: 690)
        defer { proxy.stop() }
        let probe = try ServerProbe(display: server.display)
        setenv("XCURSOR_PATH", TestCursorTheme.directory, 1)
        let app = try Application(displayName: proxy.display)
        defer { app.close() }
        app.quitsWhenLastWindowCloses = false
        let text = TextView("Some text to select.")
        text.preferredSize = Size(width: 200, height: 80)
        let plain = View()
        plain.preferredSize = Size(width: 200, height: 80)
        let window = Window(
            title: "counted", size: Size(width: 300, height: 220),
            content: VStack(padding: 10) {
                text; plain
            },
            application: app)
        window.requestedPosition = .zero
        window.show()
        try #require(try app.run(until: { window.isVisible && window.screenOrigin != nil }, timeout: .seconds(5)))
        let changeWindowAttributes: UInt8 = 2

        func move(to view: View, steps: Int) -> Int {
            let frame = view.frameOnScreen ?? .zero
            app.sync()
            let before = proxy.snapshot
            for step in 0..<steps {
                probe.movePointer(to: Int(frame.minX) + 20 + step * 3, Int(frame.midY))
                probe.sync()
                app.sync()
                app.processPending()
            }
            app.sync()
            return (proxy.snapshot - before).opcodes[changeWindowAttributes] ?? 0
        }
        #expect(move(to: plain, steps: 10) == 0, "the window's own cursor: nothing to define")
        #expect(move(to: text, steps: 10) == 1, "the I-beam, once")
        #expect(move(to: text, steps: 10) == 0, "motion within the text view")
        #expect(move(to: plain, steps: 10) == 1, "back to the window's own, once")
    }
}

/// The demo under the test theme (`XCURSOR_THEME`, `XCURSOR_PATH`: libXcursor's own lookup):
/// the I-beam over its text view, the pointing hand over the icons whose click toggles a
/// tooltip, the window's own cursor over a button; libXcursor is opened only once a cursor is
/// needed.
@Suite(.serialized)
struct DemoCursorTests {
    @Test func theDemoShowsTheThemesCursorsOverItsTextAndIcons() throws {
        let session = try ProgramSession(
            readyView: "text-view", alsoReady: ["icon-home"],
            environment: ["XCURSOR_PATH": TestCursorTheme.directory, "XCURSOR_THEME": "red", "XCURSOR_SIZE": ""])
        let probe = session.probe
        #expect(!(try #require(session.memoryMap()).contains("libXcursor")), "no cursor is loaded at start")
        let root = try #require(probe.cursorImage())

        /// The cursor once it is `name` (the server's own, unnamed, for "").
        func cursor(over id: String, becoming name: String) throws -> ServerProbe.CursorImage? {
            let frame = try session.frame(id)
            probe.movePointer(to: frame.midX, frame.midY)
            var shown: ServerProbe.CursorImage?
            _ = wait(timeout: 3) {
                shown = probe.cursorImage()
                return shown?.name == name
            }
            return shown
        }
        #expect(try cursor(over: "buy-button", becoming: "")?.serial == root.serial)
        let text = try #require(try cursor(over: "text-view", becoming: "text"))
        #expect(text.opaqueColors == [TestCursorTheme.Color.redText], "\(text)")
        let hand = try #require(try cursor(over: "icon-home", becoming: "pointer"))
        #expect(hand.opaqueColors == [TestCursorTheme.Color.redPointer], "\(hand)")
        #expect(try cursor(over: "buy-button", becoming: "")?.serial == root.serial, "the window's own cursor again")
        #expect(try #require(session.memoryMap()).contains("libXcursor"))
    }
}
