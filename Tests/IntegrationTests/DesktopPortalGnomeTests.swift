import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// A GNOME desktop's portal as Debian 12 runs it: version 1 of the interface (no `ReadOne`),
/// `color-scheme` but no `contrast`, GNOME's own keys beside (`scripts/test-portal.py`).
/// GNOME's high contrast and reduced motion are followed live through the same portal; each
/// key is asked once.
@Suite(.serialized)
struct DesktopPortalGnomeTests {
    static let gnomeInterface = "org.gnome.desktop.interface"
    static let gnomeAccessibility = "org.gnome.desktop.a11y.interface"

    /// GNOME's High Contrast stands in for the missing `contrast`, at start and live, from a
    /// portal of version 1 read once; a `contrast` the portal then says wins over it.
    @Test func gnomesHighContrastIsFollowedWhereThePortalHasNoContrast() throws {
        let portal = try TestPortal(
            ["color-scheme": "uint32 0"], others: [Self.gnomeAccessibility: ["high-contrast": "true"]],
            options: ["--version", "1"])
        let session = try DesktopPortalTests.demo(portal)
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == 0xffffff }, "high contrast at start")
        #expect(holds(for: 0.3) { portal.calls == [DesktopPortalTests.readAll] }, "each key once: \(portal.calls)")

        portal.set(namespace: Self.gnomeAccessibility, "high-contrast", "false")
        #expect(wait(timeout: 3) { DesktopPortalTests.corner(session) == DesktopPortalTests.light }, "turned off, live")
        portal.set(namespace: Self.gnomeAccessibility, "high-contrast", "true")
        #expect(wait(timeout: 3) { DesktopPortalTests.corner(session) == 0xffffff }, "and on again")
        portal.set("contrast", "uint32 0")
        #expect(wait(timeout: 3) { DesktopPortalTests.corner(session) == DesktopPortalTests.light }, "contrast wins")
        #expect(portal.calls == [DesktopPortalTests.readAll], "signals, no reading again")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }

    /// GNOME's colour scheme stands in for a missing `color-scheme`, as libadwaita reads it.
    @Test func gnomesColorSchemeStandsInForAMissingOne() throws {
        let portal = try TestPortal(others: [Self.gnomeInterface: ["color-scheme": "'prefer-dark'"]])
        let session = try DesktopPortalTests.demo(portal)
        #expect(wait(timeout: 5) { DesktopPortalTests.corner(session) == DesktopPortalTests.dark })
        portal.set(namespace: Self.gnomeInterface, "color-scheme", "'default'")
        #expect(wait(timeout: 3) { DesktopPortalTests.corner(session) == DesktopPortalTests.light })
    }
}

/// Reduced motion from every source a desktop uses, merged into the one switch the fades
/// follow (`DesktopSettings.enableAnimations`): the portal's `reduced-motion`, GNOME's
/// `enable-animations`, and the settings manager's `Net/EnableAnimations`.
@Suite(.serialized)
@MainActor
struct ReducedMotionTests {
    @Test func reducedMotionFromAnySourceTurnsAnimationsOff() throws {
        let portal = try TestPortal(["reduced-motion": "uint32 1"])
        let display = try InProcessDisplay(
            xsettings: ["Net/EnableAnimations": 1], sessionBus: portal.bus.address)
        let app = display.app
        var heard: [Bool?] = []
        app.onDesktopSettingsChange = { heard.append($0.enableAnimations) }
        #expect(display.run(until: { app.desktopSettings.enableAnimations == false }), "the portal's reduced motion")

        portal.set("reduced-motion", "uint32 0")
        #expect(display.run(until: { app.desktopSettings.enableAnimations == true }), "the manager's on again")
        portal.set(namespace: DesktopPortalGnomeTests.gnomeInterface, "enable-animations", "false")
        #expect(display.run(until: { app.desktopSettings.enableAnimations == false }), "GNOME's key")
        portal.set(namespace: DesktopPortalGnomeTests.gnomeInterface, "enable-animations", "true")
        #expect(display.run(until: { app.desktopSettings.enableAnimations == true }))
        #expect(heard == [false, true, false, true], "told each change: \(heard)")

        display.settingsManager?.update(["Net/EnableAnimations": 0])
        #expect(display.run(until: { app.desktopSettings.enableAnimations == false }), "the manager's own off")
        portal.set("reduced-motion", "uint32 1")
        portal.set("reduced-motion", "uint32 0")
        #expect(display.run(until: { app.desktopPortal?.settings.reducedMotion == 0 }))
        #expect(app.desktopSettings.enableAnimations == false, "still the manager's off")
    }

    /// Under a compositor with the portal's reduced motion, the demo's tooltips show and hide
    /// at once: their window never gets an opacity.
    @Test func noTooltipFadesWithThePortalsReducedMotion() throws {
        let portal = try TestPortal(["reduced-motion": "uint32 1"])
        // No browse mode: each show is a first one, which fades unless motion is reduced.
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "text-view", composited: true,
            environment: portal.environment, resources: "*browseTimeout: 0\n")
        let probe = session.probe
        let (sourceID, text) = SampleSceneTests.texts[2]
        let source = try session.frame(sourceID)
        #expect(wait(timeout: 5) { portal.calls.count == 1 })
        /// Shows the tooltip (a first one) and hides it.
        func showAndHide() throws -> UInt {
            session.park()
            try #require(session.waitForNoToolTip())
            probe.movePointer(to: source.midX, source.midY)
            let tip = try #require(session.waitForToolTip(named: text))
            session.park()
            #expect(session.waitForNoToolTip())
            return tip.id
        }
        let window = try showAndHide()
        let watch = try DesktopDemoEndToEndTests.PropertyWatch(
            display: session.server.display, window: window, property: "_NET_WM_WINDOW_OPACITY")
        _ = try showAndHide()
        #expect(watch.changes() == 0, "no opacity set: shown and hidden at once")
        portal.set("reduced-motion", "uint32 0")
        _ = try showAndHide()
        #expect(watch.changes() > 0, "without reduced motion the tooltip fades")
        #expect(session.program.standardError.isEmpty, "\(session.program.standardError)")
    }
}
