import Testing

@testable import X11UI

/// One fade: X11UI does not fade its tooltips where the compositor fades them itself.
@Suite struct CompositorFadesTests {
    @Test func kWinIsRecognisedByTheWindowManagersOrTheCompositorsName() {
        #expect(CompositorFades.decide(environment: nil, resource: nil, windowManagerName: "KWin", compositorName: nil))
        #expect(
            CompositorFades.decide(environment: nil, resource: nil, windowManagerName: nil, compositorName: "kwin_x11"))
        #expect(
            !CompositorFades.decide(
                environment: nil, resource: nil, windowManagerName: "Openbox", compositorName: "picom"))
        #expect(!CompositorFades.decide(environment: nil, resource: nil, windowManagerName: nil, compositorName: nil))
    }

    @Test func theUserNamesAnyCompositorAndTheEnvironmentWins() {
        #expect(
            CompositorFades.decide(environment: nil, resource: "true", windowManagerName: nil, compositorName: "picom"))
        #expect(
            CompositorFades.decide(environment: "1", resource: "false", windowManagerName: nil, compositorName: nil))
        #expect(
            !CompositorFades.decide(environment: "0", resource: nil, windowManagerName: "KWin", compositorName: nil))
        #expect(
            !CompositorFades.decide(environment: nil, resource: "no", windowManagerName: "KWin", compositorName: nil))
    }

    @Test func aValueThatIsNeitherYesNorNoIsReportedAndCountsAsUnsaid() {
        var bad: [String] = []
        let fades = CompositorFades.decide(
            environment: "maybe", resource: "yes", windowManagerName: nil, compositorName: nil,
            badValue: { bad.append($0) })
        #expect(fades)
        #expect(bad == ["maybe"])
    }

    @Test func aCompositorThatFadesTurnsX11UIsFadeOff() {
        #expect(ToolTipFade.isWanted(composited: true, animations: true, inputShapes: true, compositorFades: false))
        #expect(!ToolTipFade.isWanted(composited: true, animations: true, inputShapes: true, compositorFades: true))
        // Reduced motion still turns it off whoever fades.
        #expect(!ToolTipFade.isWanted(composited: true, animations: false, inputShapes: true, compositorFades: false))
    }
}
