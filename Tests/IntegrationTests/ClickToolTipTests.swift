import Foundation
import Testing
import X11TestSupport

/// The demo's icons and placements scenes: click-toggled rich tooltips, one at a time, every
/// placement, flips and shifts at the screen's edges. Driven with XTest from outside.
@Suite(.serialized)
final class ClickToolTipTests {
    let session: ProgramSession
    var probe: ServerProbe { session.probe }

    init() throws {
        // The full demo: its window spans the 1280×800 screen, so its edges are the screen's.
        session = try ProgramSession(readyView: "flip-trailing")
    }

    func click(_ id: String) throws {
        let frame = try session.frame(id)
        probe.movePointer(to: frame.midX, frame.midY)
        probe.click()  // after the motion: XTest events reach the server in order
    }

    @Test func clickingAnIconTogglesItsRichTooltip() throws {
        try click("icon-home")
        let tip = try #require(session.waitForToolTip(named: "Home", timeout: 1))
        let icon = try session.frame("icon-home")
        #expect(tip.rect.maxY <= icon.y, "click tooltips go above by default")
        // The green dot is drawn: some pixel in the tooltip is the dot's green.
        var green = false
        for x in tip.rect.x..<tip.rect.maxX where probe.pixel(x, tip.rect.y + tip.rect.height / 2 - 2) == 0x34c759 {
            green = true
            break
        }
        #expect(green, "the rich content's coloured dot is drawn")
        try click("icon-home")
        #expect(session.waitForNoToolTip(timeout: 1), "a second click toggles it off")
    }

    @Test func onlyOneTooltipAtATime() throws {
        try click("icon-home")
        _ = try #require(session.waitForToolTip(named: "Home", timeout: 1))
        try click("icon-video")
        _ = try #require(session.waitForToolTip(named: "Camera", timeout: 1))
        #expect(probe.mappedPopups().count == 1)
        #expect(session.toolTipText == "Camera")
    }

    @Test func theMicrophoneHasNoTooltip() throws {
        try click("icon-mic")
        #expect(holds(for: 0.8) { probe.mappedPopups().isEmpty })
    }

    @Test func aClickOnEmptySpaceDismisses() throws {
        try click("icon-home")
        _ = try #require(session.waitForToolTip(named: "Home", timeout: 1))
        let icon = try session.frame("icon-home")
        probe.movePointer(to: icon.midX, icon.maxY + 200)
        probe.click()
        #expect(session.waitForNoToolTip(timeout: 1))
    }

    @Test func everyPlacementLiesOnItsSideAlignedAndOnTheScreen() throws {
        let screen = Frame(x: 0, y: 0, width: session.server.width, height: session.server.height)
        for edge in ["top", "bottom", "leading", "trailing"] {
            for alignment in ["start", "center", "end"] {
                let id = "place-\(edge)-\(alignment)"
                let button = try session.frame(id)
                try click(id)
                let text = "\(edge.prefix(1).uppercased() + edge.dropFirst()), \(alignment)"
                guard let tip = session.waitForToolTip(named: text, timeout: 1)?.rect else {
                    Issue.record("\(id): no tooltip \"\(text)\"")
                    continue
                }
                #expect(screen.contains(tip), "\(id) \(tip) must lie on the screen")
                switch edge {
                case "top": #expect(tip.maxY <= button.y, "\(id)")
                case "bottom": #expect(tip.y >= button.maxY, "\(id)")
                case "leading": #expect(tip.maxX <= button.x, "\(id)")
                default: #expect(tip.x >= button.maxX, "\(id)")
                }
                // Alignment along the edge (the button's visible body is inset by its focus-ring
                // margin, so allow a few pixels).
                let vertical = edge == "top" || edge == "bottom"
                let (start, mid, end) =
                    vertical
                    ? (tip.x - button.x, tip.midX - button.midX, tip.maxX - button.maxX)
                    : (tip.y - button.y, tip.midY - button.midY, tip.maxY - button.maxY)
                switch alignment {
                case "start": #expect(abs(start) <= 4, "\(id) start \(start)")
                case "center": #expect(abs(mid) <= 2, "\(id) centre \(mid)")
                default: #expect(abs(end) <= 4, "\(id) end \(end)")
                }
                try click(id)
                session.waitForNoToolTip(timeout: 1)
            }
        }
    }

    @Test func tooltipsFlipAwayFromTheScreenEdges() throws {
        try click("flip-top")
        let below = try #require(session.waitForToolTip(named: "No room above: shown below", timeout: 1))
        #expect(try below.rect.y >= session.frame("flip-top").maxY)
        try click("flip-bottom")
        let above = try #require(session.waitForToolTip(named: "No room below: shown above", timeout: 1))
        #expect(try above.rect.maxY <= session.frame("flip-bottom").y)
        try click("flip-trailing")
        let left = try #require(session.waitForToolTip(named: "No room on the right: shown on the left", timeout: 1))
        #expect(try left.rect.maxX <= session.frame("flip-trailing").x)
    }

    @Test func aTooltipAtTheScreenEdgeShiftsAndKeepsItsArrowOnTheButton() throws {
        try click("shift-end")
        let tip = try #require(session.waitForToolTip(timeout: 1)).rect
        let button = try session.frame("shift-end")
        #expect(tip.maxX <= session.server.width - 4, "4 px from the screen's edge")
        #expect(tip.midX < button.midX, "shifted left")
        // The arrow: bubble-coloured pixels just above the body, over the button's span.
        var arrowX: Int?
        for x in button.x..<button.maxX where probe.pixel(x, tip.y + 2) == 0x2c2c2e {
            arrowX = x
            break
        }
        #expect(arrowX != nil, "the arrow stays on the button")
    }

    @Test func koreanTooltipText() throws {
        try click("korean-label")
        #expect(session.waitForToolTip(named: "툴팁 도움말: 여기를 누르세요", timeout: 1) != nil)
    }

    /// Devanagari and emoji sequences in the demo: the tooltip is named by its text, and the
    /// heart asked for in emoji presentation (U+FE0F) is drawn red from the colour font, by
    /// HarfBuzz. (The scene's Arabic label loaded HarfBuzz already: that it is loaded only by
    /// text that needs shaping is `HarfBuzzLoadingTests`' to check.)
    @Test func shapedTooltipTextWithAColourHeart() throws {
        try click("shaped-label")
        let tip = try #require(session.waitForToolTip(named: "नमस्ते — क्षमा कीजिए\n👨‍👩‍👧 🇰🇷 ❤️ 1️⃣", timeout: 1))
        var red = 0
        for y in tip.rect.y..<tip.rect.maxY {
            for x in tip.rect.x..<tip.rect.maxX {
                let pixel = probe.pixel(x, y)
                if pixel >> 16 > 0xc0 && (pixel >> 8) & 0xff < 0x60 && pixel & 0xff < 0x60 { red += 1 }
            }
        }
        #expect(red > 40, "a red heart: \(red) red pixels")
        #expect(try #require(session.memoryMap()).contains("libharfbuzz"))
    }

    @Test func itemsTooltipIsNamedByItsTitles() throws {
        try click("items-button")
        #expect(session.waitForToolTip(named: "6 31", timeout: 1) != nil)
    }

    @Test func aHoverTooltipReplacesAnOpenClickTooltip() throws {
        try click("icon-home")
        _ = try #require(session.waitForToolTip(named: "Home", timeout: 1))
        let view = try session.frame("default-view")
        probe.movePointer(to: view.midX, view.midY)
        #expect(session.waitForToolTip(named: "The default tooltip for the view.") != nil)
        #expect(probe.mappedPopups().count == 1)
    }
}

/// The same behaviour under a compositor: translucent 32-bit tooltips with a shadow.
@Suite(.serialized)
final class CompositedToolTipTests {
    let session: ProgramSession

    init() throws {
        session = try ProgramSession(readyView: "flip-trailing", composited: true)
    }

    @Test func tooltipsUseAnARGBVisualWhenComposited() throws {
        let view = try session.frame("default-view")
        session.probe.movePointer(to: view.midX, view.midY)
        let tip = try #require(session.waitForToolTip(named: "The default tooltip for the view."))
        #expect(tip.depth == 32)
        #expect(tip.rect.y >= view.maxY - 8, "below the view (the window includes the shadow's margin)")
        let icon = try session.frame("icon-home")
        session.probe.movePointer(to: icon.midX, icon.midY)
        session.probe.click()
        #expect(session.waitForToolTip(named: "Home", timeout: 1) != nil)
    }
}
