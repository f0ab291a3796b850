import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Under a compositor (a fake one: the probe owning `_NET_WM_CM_S0`), a tooltip fades unless
/// the compositor fades tooltips itself: KWin, recognised by the window manager's name (a fake
/// `_NET_SUPPORTING_WM_CHECK` window named "KWin"), or a compositor the user names.
@Suite(.serialized)
@MainActor
final class CompositorFadesProgramTests {
    /// Shows a tooltip; returns whether its window fades.
    func fades(windowManager: String?, resources: String? = nil) throws -> Bool {
        let display = try InProcessDisplay(width: 640, height: 480, resources: resources)
        if let windowManager { display.probe.pretendWindowManager(named: windowManager) }
        display.probe.ownSelection("_NET_WM_CM_S0")
        let source = View()
        source.preferredSize = Size(width: 120, height: 40)
        source.backgroundColor = Color(rgb: 0x34c759)
        source.toolTip = "Faded once"
        let window = Window(
            title: "fades", size: Size(width: 300, height: 200), content: VStack(padding: 40) { source },
            application: display.app)
        display.show(window)
        display.movePointer(to: source)
        #expect(display.run(until: { display.app.toolTips.isShowing }))
        #expect(display.app.screen.isComposited)
        return display.app.toolTips.presenter.fadesAreWanted
    }

    @Test func underKWinX11UIDoesNotFade() throws {
        #expect(try fades(windowManager: "Openbox"), "another manager's compositor: X11UI fades")
        #expect(try !fades(windowManager: "KWin"), "KWin fades tooltips itself")
    }

    @Test func aCompositorTheUserNamesIsLeftToFade() throws {
        #expect(try !fades(windowManager: nil, resources: "X11UI.compositorFadesPopups: true\n"))
        #expect(try fades(windowManager: "KWin", resources: "X11UI.compositorFadesPopups: false\n"))
    }
}
