import CX11
import Foundation
import Testing
import X11TestSupport

/// The demo on a desktop made of real mechanisms, watched from outside: a settings manager
/// (``XSettingsManager``) that changes the cursor theme and size and turns animations off and
/// on under xcompmgr, and a settings portal (``TestPortal``) beside it, each changed while the
/// program runs.
@Suite(.serialized)
struct DesktopDemoEndToEndTests {
    typealias Colors = TestCursorTheme.Color

    // MARK: - The cursor theme

    /// The manager's theme wins over libXcursor's own (`XCURSOR_THEME`); a new theme, then a
    /// new size, redefine the cursor under a pointer that does not move; the manager gone,
    /// libXcursor's own theme is back.
    @Test func theCursorThemeAndSizeFollowTheSettingsManagerLive() throws {
        let session = try ProgramSession(
            readyView: "text-view", alsoReady: ["icon-home"],
            environment: ["XCURSOR_PATH": TestCursorTheme.directory, "XCURSOR_THEME": "legacy", "XCURSOR_SIZE": ""],
            xsettings: ["Gtk/CursorThemeName": "red"])
        let manager = try #require(session.settingsManager)
        let probe = session.probe

        /// The cursor the server shows once it satisfies `condition` (the last seen otherwise).
        func cursor(becoming condition: (ServerProbe.CursorImage) -> Bool) -> ServerProbe.CursorImage? {
            var shown: ServerProbe.CursorImage?
            _ = wait(timeout: 5) {
                shown = probe.cursorImage()
                return shown.map(condition) ?? false
            }
            return shown
        }
        let text = try session.frame("text-view")
        probe.movePointer(to: text.midX, text.midY)
        let red = try #require(cursor { $0.name == "text" })
        #expect(red.opaqueColors == [Colors.redText] && red.width == 24, "the manager's theme: \(red)")

        manager.update(["Gtk/CursorThemeName": "blue"])
        let blue = try #require(cursor { $0.opaqueColors == [Colors.blueText] })
        #expect(blue.width == 24, "a new theme without a motion: \(blue)")
        manager.update(["Gtk/CursorThemeSize": 48])
        let large = try #require(cursor { $0.opaqueColors == [Colors.blueTextLarge] })
        #expect(large.width == 48, "a new size: \(large)")

        let icon = try session.frame("icon-home")
        probe.movePointer(to: icon.midX, icon.midY)
        let hand = try #require(cursor { $0.name == "pointer" })
        #expect(hand.opaqueColors == [Colors.bluePointer], "the pointing hand in the new theme: \(hand)")

        manager.stop()
        probe.movePointer(to: text.midX, text.midY)
        let legacy = try #require(cursor { $0.opaqueColors == [Colors.legacyText] })
        #expect(legacy.width == 12, "libXcursor's own theme once the manager is gone: \(legacy)")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    // MARK: - Animations

    /// Changes of one property of one window, heard on a connection of the test's own.
    final class PropertyWatch {
        private let display: OpaquePointer
        private let atom: UInt

        init(display name: String, window: UInt, property: String) throws {
            display = try #require(XOpenDisplay(name))
            atom = XInternAtom(display, property, 0)
            XSelectInput(display, window, PropertyChangeMask)
            XSync(display, 0)
        }

        deinit { XCloseDisplay(display) }

        /// How many times the property was set or deleted since the last call.
        func changes() -> Int {
            XSync(display, 0)
            var count = 0
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                if event.type == PropertyNotify, event.xproperty.atom == atom { count += 1 }
            }
            return count
        }
    }

    /// `Net/EnableAnimations` from the manager under xcompmgr: 0 at start, a first tooltip shows
    /// at once at full opacity; turned on, the next first tooltip fades in and out (its
    /// window's `_NET_WM_WINDOW_OPACITY` steps); turned off again, shows and hides at once.
    @Test func tooltipsFadeAsTheManagersEnableAnimationsSaysLive() throws {
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "text-view", composited: true,
            xsettings: ["Net/EnableAnimations": 0], resources: "*browseTimeout: 0\n")
        let manager = try #require(session.settingsManager)
        let probe = session.probe
        let (sourceID, text) = SampleSceneTests.texts[2]
        let source = try session.frame(sourceID)
        func opacity(_ window: UInt) -> Int? {
            probe.longs(window, "_NET_WM_WINDOW_OPACITY")?.first.map { $0 & 0xffff_ffff }
        }

        /// Shows the tooltip as a first one (no browse timeout: every tooltip is a first one)
        /// and hides it; returns the tooltip's window and the opacities seen while it was mapped.
        func showAndHide() throws -> (window: UInt, opacities: [Int]) {
            session.park()
            try #require(session.waitForNoToolTip())
            probe.movePointer(to: source.midX, source.midY)
            let tip = try #require(session.waitForToolTip(named: text))
            var seen: [Int] = []
            _ = holds(for: 0.3) {
                if let value = opacity(tip.id), seen.last != value { seen.append(value) }
                return true
            }
            session.park()
            #expect(session.waitForNoToolTip())
            return (tip.id, seen)
        }

        let first = try showAndHide()
        #expect(first.opacities.isEmpty, "animations off from the start: \(first.opacities)")
        let watch = try PropertyWatch(
            display: session.server.display, window: first.window, property: "_NET_WM_WINDOW_OPACITY")
        _ = try showAndHide()
        #expect(watch.changes() == 0, "animations off: no opacity set, shown and hidden at once")

        manager.update(["Net/EnableAnimations": 1])
        let fading = try showAndHide()
        #expect(fading.window == first.window)
        #expect(watch.changes() > 0, "animations on: the tooltip faded")
        #expect(fading.opacities.allSatisfy { $0 < 0xffff_ffff }, "\(fading.opacities)")

        manager.update(["Net/EnableAnimations": 0])
        _ = try showAndHide()
        #expect(watch.changes() == 0, "off again: shown and hidden at once")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    // MARK: - The portal and the manager together

    static let dark: UInt32 = 0x1c1c1e
    static let light: UInt32 = 0xf2f2f7

    /// Started dark by the portal at 192 dpi by the manager: the window's first frame is both.
    /// Then both change while a tooltip shows, light at 144 dpi: the window and the tooltip
    /// are laid out and painted again in place, the tooltip not hidden; then high contrast at
    /// 192 dpi again.
    @Test func theDemoFollowsThePortalAndTheManagerTogether() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1"])
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "default-view", environment: portal.environment,
            xsettings: ["Xft/DPI": .integer(192 * 1024)])
        let manager = try #require(session.settingsManager)
        let probe = session.probe
        let windowID = try #require(session.program.windows.first)
        func window() -> ServerProbe.WindowInfo? { probe.info(windowID) }
        func corner() -> UInt32? { window().map { probe.pixel($0.frame.x + 2, $0.frame.y + 2) } }
        #expect(wait(timeout: 5) { corner() == Self.dark })
        let wide = try #require(window()).frame

        // A point of the view at 192 dpi that stays on it at 144, where the view's place in
        // the window and its size are 3/4 of these.
        let view = try session.frame("default-view")
        let top = view.y - wide.y
        let point = (x: view.x + view.width / 4, y: wide.y + (top + top * 3 / 4 + view.height * 3 / 4) / 2)
        try #require(view.contains(point.x, point.y))
        probe.movePointer(to: point.x, point.y)
        let tip = try #require(session.waitForToolTip(named: "The default tooltip for the view."))
        func bubbleShows(_ color: UInt32) -> Bool {
            guard let frame = probe.info(tip.id)?.frame else { return false }
            return probe.pixels(frame.x, frame.y, frame.width, frame.height).contains(color)
        }
        #expect(wait(timeout: 3) { bubbleShows(0x3a3a3d) }, "the dark bubble")
        // The inspector's line of the show may follow the pixels by a moment.
        #expect(wait(timeout: 3) { session.program.toolTipEvents.contains { $0.state == "shown" } })
        let events = session.program.toolTipEvents.count

        portal.set("color-scheme", "uint32 2")
        manager.update(["Xft/DPI": .integer(144 * 1024)])
        #expect(
            wait(timeout: 5) { corner() == Self.light && abs((window()?.frame.width ?? 0) - wide.width * 3 / 4) <= 1 },
            "light, at 3/4 of the size: \(String(describing: window()))")
        #expect(wait(timeout: 3) { bubbleShows(0x2c2c2e) && !bubbleShows(0x3a3a3d) }, "the light bubble")
        let smaller = try #require(probe.info(tip.id))
        #expect(smaller.isMapped && probe.mappedPopups().map(\.id) == [tip.id], "the same tooltip, still up")
        // 3/4 of its size, but for text, whose glyphs are hinted and wrapped at their own sizes.
        let ratio = Double(smaller.frame.width) / Double(tip.frame.width)
        #expect(abs(ratio - 0.75) < 0.06, "\(smaller.frame), \(tip.frame)")
        // The inspector's line may follow the pixels on screen by a moment.
        #expect(wait(timeout: 3) { session.program.toolTipEvents.count > events }, "laid out again")
        let since = session.program.toolTipEvents.dropFirst(events)
        #expect(since.allSatisfy { $0.state == "shown" }, "never hidden: \(since)")

        portal.set("contrast", "uint32 1")
        manager.update(["Xft/DPI": .integer(192 * 1024)])
        #expect(wait(timeout: 5) { corner() == 0xffffff && window()?.frame.width == wide.width })
        #expect(wait(timeout: 3) { bubbleShows(0x000000) })
        #expect(probe.mappedPopups().map(\.id) == [tip.id])
        #expect(session.program.toolTipEvents.dropFirst(events).allSatisfy { $0.state == "shown" })
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }
}
