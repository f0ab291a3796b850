import Testing
import X11TestSupport

@testable import X11UI

// Placement on tiny screens, around huge or broken sources, and across several monitors.
// The helpers (`placementRequest`, `checkPlacementInvariants`, …) are in ToolTipPlacementTests.swift.

private let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
private let tiny = Rect(x: 0, y: 0, width: 320, height: 240)

@Suite struct ToolTipPlacementSmallScreenTests {
    @Test func everyPlacementOfASmallToolTipFitsOnA320x240Screen() {
        let source = Rect(x: 140, y: 110, width: 40, height: 20)
        for edge in ToolTipPlacement.Edge.allCases {
            for alignment in ToolTipPlacement.Alignment.allCases {
                let r = placementRequest(
                    source, edge, alignment, body: Size(width: 90, height: 40), monitors: [tiny],
                    pointer: Point(x: 160, y: 120))
                let g = ToolTipLayout.place(r)
                #expect(g.edge == edge)
                checkPlacementArrow(g, source: source, gap: 4)
                checkPlacementInvariants(r, g)
            }
        }
    }

    @Test func aWideToolTipOnATinyScreenIsClampedToTheScreen() {
        let source = Rect(x: 10, y: 20, width: 40, height: 20)
        let r = placementRequest(source, .bottom, body: Size(width: 300, height: 60), monitors: [tiny])
        let g = ToolTipLayout.place(r)
        #expect(g.edge == .bottom)
        #expect(tiny.contains(g.windowFrame))
        checkPlacementArrow(g, source: source, gap: 4)
        checkPlacementInvariants(r, g)
    }

    @Test func aToolTipWiderThanTheScreenStartsAtItsLeftSide() {
        let r = placementRequest(
            Rect(x: 140, y: 20, width: 40, height: 20), body: Size(width: 400, height: 40), monitors: [tiny])
        let g = ToolTipLayout.place(r)
        #expect(g.windowFrame.minX == 0)
        #expect(g.windowFrame.minY >= 0 && g.windowFrame.maxY <= 240)
    }

    /// Spec 5: "The tooltip never lies under the pointer." A trailing tooltip 200 px wide fits on
    /// neither side of a button in the middle of a 320×240 screen, but fits below it.
    @Test func aSideToolTipThatFitsNeitherSideStillAvoidsThePointer() {
        let source = Rect(x: 140, y: 60, width: 40, height: 20)
        let pointer = Point(x: 160, y: 70)
        let r = placementRequest(
            source, .trailing, body: Size(width: 200, height: 40), monitors: [tiny], pointer: pointer)
        let g = ToolTipLayout.place(r)
        #expect(!g.visualFrame.contains(pointer), "\(g.visualFrame) covers the pointer \(pointer)")
        #expect(tiny.contains(g.windowFrame))
    }
}

@Suite struct ToolTipPlacementPointerTests {
    @Test func aToolTipThatWouldCoverThePointerMovesToTheOppositeSide() {
        // The pointer is in the gap just below the button, where the arrow would go: the
        // tooltip goes above instead, still pointing at the button.
        let pointer = Point(x: 960, y: 536)
        let r = placementRequest(Rect(x: 900, y: 500, width: 120, height: 30), pointer: pointer)
        let g = ToolTipLayout.place(r)
        #expect(g.edge == .top)
        #expect(g.arrow != nil)
        checkPlacementInvariants(r, g)
    }

    @Test func aPointerInsideTheSourceKeepsTheArrow() {
        let source = Rect(x: 900, y: 500, width: 120, height: 30)
        let r = placementRequest(source, pointer: Point(x: 1019, y: 529))
        let g = ToolTipLayout.place(r)
        #expect(g.arrow != nil)
        checkPlacementArrow(g, source: source, gap: 4)
        checkPlacementInvariants(r, g)
    }

    @Test(arguments: [
        Point(x: 960, y: 540), Point(x: 960, y: 1075), Point(x: 3, y: 3), Point(x: 1915, y: 1075),
        Point(x: 1915, y: 2),
    ])
    func aSourceLargerThanTheScreenNeverPutsTheToolTipUnderThePointer(pointer: Point) {
        let huge = Rect(x: -100, y: -100, width: 2120, height: 1280)
        for edge in ToolTipPlacement.Edge.allCases {
            let r = placementRequest(huge, edge, pointer: pointer)
            let g = ToolTipLayout.place(r)
            #expect(g.monitor == screen)
            #expect(g.arrow == nil)
            checkPlacementInvariants(r, g)
        }
    }

    @Test func keyboardToolTipsWithoutAPointerKeepTheArrowOnTheSource() {
        let source = Rect(x: 900, y: 500, width: 120, height: 30)
        let r = placementRequest(source, .top, pointer: nil)
        let g = ToolTipLayout.place(r)
        #expect(g.edge == .top)
        checkPlacementArrow(g, source: source, gap: 4)
    }
}

@Suite struct ToolTipPlacementMonitorTests {
    static let left = Rect(x: 0, y: 0, width: 1920, height: 1080)
    static let right = Rect(x: 1930, y: 0, width: 1280, height: 1024)

    @Test func theMonitorWithTheLargestOverlapWinsAndHoldsTheWholeToolTip() {
        // 20 px of the button on the left monitor, 70 on the right one (a 10 px gap between).
        let source = Rect(x: 1900, y: 500, width: 100, height: 30)
        let r = placementRequest(source, monitors: [Self.left, Self.right], pointer: Point(x: 1990, y: 510))
        let g = ToolTipLayout.place(r)
        #expect(g.monitor == Self.right)
        #expect(Self.right.contains(g.windowFrame))
        checkPlacementArrow(g, source: source, gap: 4)
        checkPlacementInvariants(r, g)

        let mostlyLeft = Rect(x: 1850, y: 500, width: 100, height: 30)
        let h = ToolTipLayout.place(placementRequest(mostlyLeft, monitors: [Self.right, Self.left]))
        #expect(h.monitor == Self.left)
        #expect(Self.left.contains(h.windowFrame))
    }

    @Test func threeMonitorsSideBySideWithGaps() {
        let a = Rect(x: 0, y: 0, width: 1024, height: 768)
        let b = Rect(x: 1034, y: 0, width: 1024, height: 768)
        let c = Rect(x: 2068, y: 100, width: 800, height: 600)
        let cases: [(Rect, Rect)] = [
            (Rect(x: 2000, y: 300, width: 200, height: 40), c),  // 58 px on b, 132 on c
            (Rect(x: 1000, y: 300, width: 100, height: 40), b),  // 24 px on a, 66 on b
            (Rect(x: 10, y: 10, width: 50, height: 20), a),
            (Rect(x: 2800, y: 650, width: 60, height: 40), c),  // c's bottom-right corner
        ]
        for (source, expected) in cases {
            for edge in ToolTipPlacement.Edge.allCases {
                let r = placementRequest(
                    source, edge, monitors: [a, b, c], pointer: Point(x: source.midX, y: source.midY))
                let g = ToolTipLayout.place(r)
                #expect(g.monitor == expected, "\(source) \(edge)")
                #expect(expected.contains(g.windowFrame), "\(source) \(edge): \(g.windowFrame)")
                checkPlacementInvariants(r, g)
            }
        }
    }

    @Test func aSourceInTheGapBetweenMonitorsGetsAWholeMonitor() {
        let a = Rect(x: 0, y: 0, width: 1024, height: 768)
        let b = Rect(x: 1034, y: 0, width: 1024, height: 768)
        for pointer in [nil, Point(x: 1040, y: 310)] as [Point?] {
            let r = placementRequest(Rect(x: 1024, y: 300, width: 10, height: 20), monitors: [a, b], pointer: pointer)
            let g = ToolTipLayout.place(r)
            #expect(g.monitor == a || g.monitor == b)
            #expect(g.monitor.contains(g.windowFrame))
            if pointer != nil { #expect(g.monitor == b) }
        }
    }

    @Test func aToolTipNeverSpillsOntoTheMonitorBelow() {
        let upper = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let lower = Rect(x: 0, y: 1080, width: 1920, height: 1080)
        let source = Rect(x: 900, y: 1050, width: 120, height: 25)
        let r = placementRequest(source, .bottom, monitors: [upper, lower], pointer: Point(x: 960, y: 1060))
        let g = ToolTipLayout.place(r)
        #expect(g.monitor == upper)
        #expect(g.edge == .top)
        #expect(upper.contains(g.windowFrame))
        checkPlacementInvariants(r, g)
    }

    @Test func noUsableMonitorFallsBackWithoutCrashing() {
        for monitors in [[], [Rect(x: .nan, y: 0, width: 100, height: 100), .zero]] as [[Rect]] {
            let g = ToolTipLayout.place(placementRequest(Rect(x: 10, y: 10, width: 40, height: 20), monitors: monitors))
            #expect(g.windowFrame.isFinite)
            #expect(g.monitor.contains(g.windowFrame))
        }
    }
}

@Suite struct ToolTipPlacementBadInputTests {
    @Test(arguments: [
        Rect(x: .nan, y: 0, width: 10, height: 10), Rect(x: 0, y: .nan, width: .nan, height: 10),
        Rect(x: 100, y: 100, width: -50, height: -20), Rect(x: .infinity, y: 0, width: 10, height: 10),
        Rect(x: -.infinity, y: 0, width: .infinity, height: 10), Rect(x: 0, y: 0, width: 1e300, height: 1e300),
        Rect(x: -1e300, y: -1e300, width: 1e300, height: 1e300), Rect(x: 1e18, y: 1e18, width: 10, height: 10),
        Rect(x: -1e18, y: 500, width: 10, height: 10), Rect(x: 900, y: 500, width: 0, height: 0),
    ])
    func brokenSourcesGiveASaneToolTip(source: Rect) {
        for pointer in [nil, Point(x: 960, y: 540), Point(x: 5, y: 5)] as [Point?] {
            for edge in ToolTipPlacement.Edge.allCases {
                let r = placementRequest(source, edge, pointer: pointer)
                let g = ToolTipLayout.place(r)
                #expect(g.monitor == screen)
                #expect(screen.contains(g.windowFrame), "\(source) \(edge): \(g.windowFrame)")
                checkPlacementInvariants(r, g)
            }
        }
    }

    /// Random monitors, sources, sizes and placements: the invariants always hold, and asking
    /// for the side a placement chose gives that side again (no oscillation).
    @Test func randomPlacementsKeepTheInvariants() {
        var random = SplitMix64(seed: 2024)
        for _ in 0..<5000 {
            var monitors: [Rect] = []
            var x = random.double(-2000...0)
            for _ in 0..<random.int(1...3) {
                let monitor = Rect(
                    x: x, y: random.double(-200...200), width: random.double(320...2560),
                    height: random.double(240...1440))
                monitors.append(monitor)
                x = monitor.maxX + random.double(0...50)
            }
            let home = monitors[random.int(0...monitors.count - 1)]
            // At least padding and one line (wider than the arrow); at most a third of the
            // smallest monitor, so that a place clear of the pointer exists.
            let smallest = Size(
                width: monitors.map(\.width).min() ?? 0, height: monitors.map(\.height).min() ?? 0)
            let body = Size(
                width: random.double(32...Int(smallest.width / 3)), height: random.double(32...Int(smallest.height / 3))
            )
            let source = Rect(
                x: home.minX + random.double(-50...Int(home.width)),
                y: home.minY + random.double(-50...Int(home.height)),
                width: random.double(0...400), height: random.double(0...200))
            let pointer =
                random.int(0...3) == 0
                ? nil : Point(x: source.minX + random.double(0...Int(source.width)), y: source.midY)
            let edge = ToolTipPlacement.Edge.allCases[random.int(0...3)]
            let alignment = ToolTipPlacement.Alignment.allCases[random.int(0...2)]
            let margins = EdgeInsets(all: random.double(0...12))
            let r = placementRequest(
                source, edge, alignment, body: body, margins: margins, cornerRadius: random.double(0...8),
                monitors: monitors, pointer: pointer)
            let g = ToolTipLayout.place(r)
            checkPlacementInvariants(r, g)
            if pointer == nil {
                var again = r
                again.placement.edge = g.edge
                #expect(ToolTipLayout.place(again).edge == g.edge, "\(r.source) \(edge) → \(g.edge)")
            }
        }
    }
}
