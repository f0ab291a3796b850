import Testing

@testable import X11UI

private typealias Edge = ToolTipPlacement.Edge
private typealias Alignment = ToolTipPlacement.Alignment

private let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
/// A 120×30 button in the middle of the screen.
private let button = Rect(x: 900, y: 500, width: 120, height: 30)

func placementRequest(
    _ source: Rect, _ edge: ToolTipPlacement.Edge = .bottom, _ alignment: ToolTipPlacement.Alignment = .center,
    body: Size = Size(width: 100, height: 40),
    arrow: Size = Size(width: 12, height: 6), margins: EdgeInsets = .zero, cornerRadius: Double = 0,
    gap: Double = 4, monitors: [Rect] = [Rect(x: 0, y: 0, width: 1920, height: 1080)], pointer: Point? = nil,
    cursor: CursorInk = .hotSpotOnly
) -> ToolTipLayout.Request {
    ToolTipLayout.Request(
        body: body, arrow: arrow, margins: margins, cornerRadius: cornerRadius, source: source,
        placement: ToolTipPlacement(edge: edge, alignment: alignment), gap: gap, monitors: monitors, pointer: pointer,
        cursor: cursor)
}

/// The body on the screen.
func placementScreenBody(_ g: ToolTipGeometry) -> Rect {
    g.body.offsetBy(dx: g.windowFrame.minX, dy: g.windowFrame.minY)
}

/// The arrow's tip and base on the screen.
func placementScreenArrow(_ g: ToolTipGeometry) -> (tip: Point, base1: Point, base2: Point)? {
    guard let a = g.arrow else { return nil }
    let dx = g.windowFrame.minX
    let dy = g.windowFrame.minY
    return (a.tip.offsetBy(dx: dx, dy: dy), a.base1.offsetBy(dx: dx, dy: dy), a.base2.offsetBy(dx: dx, dy: dy))
}

/// What must hold for every placement: a finite, whole-pixel window on one of the monitors that
/// holds the bubble plus its margins, fully on that monitor when it can be, never under the pointer.
func checkPlacementInvariants(
    _ r: ToolTipLayout.Request, _ g: ToolTipGeometry, pointerAvoidable: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let w = g.windowFrame
    #expect(w.isFinite && !w.isEmpty, "window \(w)", sourceLocation: sourceLocation)
    #expect(w == w.integral, "window on whole pixels: \(w)", sourceLocation: sourceLocation)
    let valid = r.monitors.filter { $0.isFinite && !$0.isEmpty }
    if !valid.isEmpty {
        #expect(valid.contains(g.monitor), "monitor \(g.monitor) is one of \(valid)", sourceLocation: sourceLocation)
    }
    if w.width <= g.monitor.width && w.height <= g.monitor.height {
        #expect(g.monitor.contains(w), "window \(w) on monitor \(g.monitor)", sourceLocation: sourceLocation)
    }
    let m = r.margins
    let needed = g.visualFrame.inset(by: EdgeInsets(top: -m.top, left: -m.left, bottom: -m.bottom, right: -m.right))
    #expect(
        w.insetBy(dx: -0.01, dy: -0.01).contains(needed), "window \(w) holds bubble and margins \(needed)",
        sourceLocation: sourceLocation)
    if let pointer = r.pointer, pointerAvoidable {
        #expect(!g.visualFrame.contains(pointer), "\(g.visualFrame) covers \(pointer)", sourceLocation: sourceLocation)
        #expect(
            !ToolTipLayout.covers(g, r.cursor.onScreen(at: pointer)), "\(g.visualFrame) covers the cursor's ink",
            sourceLocation: sourceLocation)
    }
}

/// The arrow points at the source from `gap` away, along a stretch the source covers, with its
/// base on the body's side facing the source.
func checkPlacementArrow(
    _ g: ToolTipGeometry, source: Rect, gap: Double, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let a = placementScreenArrow(g) else {
        Issue.record("no arrow", sourceLocation: sourceLocation)
        return
    }
    let body = placementScreenBody(g)
    let along: Double
    let span: ClosedRange<Double>
    let bodySpan: ClosedRange<Double>
    switch g.edge {
    case .bottom:
        #expect(a.tip.y == source.maxY + gap, sourceLocation: sourceLocation)
        #expect(a.base1.y == body.minY && a.base2.y == body.minY, sourceLocation: sourceLocation)
        (along, span, bodySpan) = (a.tip.x, source.minX...source.maxX, body.minX...body.maxX)
    case .top:
        #expect(a.tip.y == source.minY - gap, sourceLocation: sourceLocation)
        #expect(a.base1.y == body.maxY && a.base2.y == body.maxY, sourceLocation: sourceLocation)
        (along, span, bodySpan) = (a.tip.x, source.minX...source.maxX, body.minX...body.maxX)
    case .trailing:
        #expect(a.tip.x == source.maxX + gap, sourceLocation: sourceLocation)
        #expect(a.base1.x == body.minX && a.base2.x == body.minX, sourceLocation: sourceLocation)
        (along, span, bodySpan) = (a.tip.y, source.minY...source.maxY, body.minY...body.maxY)
    case .leading:
        #expect(a.tip.x == source.minX - gap, sourceLocation: sourceLocation)
        #expect(a.base1.x == body.maxX && a.base2.x == body.maxX, sourceLocation: sourceLocation)
        (along, span, bodySpan) = (a.tip.y, source.minY...source.maxY, body.minY...body.maxY)
    }
    #expect(span.contains(along), "arrow at \(along) points at the source \(span)", sourceLocation: sourceLocation)
    #expect(bodySpan.contains(along), "arrow at \(along) on the body \(bodySpan)", sourceLocation: sourceLocation)
}

@Suite struct ToolTipPlacementTableTests {
    /// The 4 edges × 3 alignments around a 120×30 button at (900, 500): the body (100×40) on the
    /// screen and the arrow tip (12×6 arrow, gap 4), worked out by hand from the spec.
    fileprivate static let cases: [(Edge, Alignment, body: Rect, tip: Point)] = [
        (.bottom, .start, Rect(x: 900, y: 540, width: 100, height: 40), Point(x: 950, y: 534)),
        (.bottom, .center, Rect(x: 910, y: 540, width: 100, height: 40), Point(x: 960, y: 534)),
        (.bottom, .end, Rect(x: 920, y: 540, width: 100, height: 40), Point(x: 970, y: 534)),
        (.top, .start, Rect(x: 900, y: 450, width: 100, height: 40), Point(x: 950, y: 496)),
        (.top, .center, Rect(x: 910, y: 450, width: 100, height: 40), Point(x: 960, y: 496)),
        (.top, .end, Rect(x: 920, y: 450, width: 100, height: 40), Point(x: 970, y: 496)),
        (.leading, .start, Rect(x: 790, y: 500, width: 100, height: 40), Point(x: 896, y: 515)),
        (.leading, .center, Rect(x: 790, y: 495, width: 100, height: 40), Point(x: 896, y: 515)),
        (.leading, .end, Rect(x: 790, y: 490, width: 100, height: 40), Point(x: 896, y: 515)),
        (.trailing, .start, Rect(x: 1030, y: 500, width: 100, height: 40), Point(x: 1024, y: 515)),
        (.trailing, .center, Rect(x: 1030, y: 495, width: 100, height: 40), Point(x: 1024, y: 515)),
        (.trailing, .end, Rect(x: 1030, y: 490, width: 100, height: 40), Point(x: 1024, y: 515)),
    ]

    @Test(arguments: cases)
    func edgeAndAlignmentPlaceTheBodyAndArrow(
        edge: ToolTipPlacement.Edge, alignment: ToolTipPlacement.Alignment, body: Rect, tip: Point
    ) {
        let pointer = Point(x: 960, y: 515)
        let r = placementRequest(button, edge, alignment, pointer: pointer)
        let g = ToolTipLayout.place(r)
        #expect(g.edge == edge)
        #expect(g.monitor == screen)
        #expect(placementScreenBody(g) == body)
        #expect(placementScreenArrow(g)?.tip == tip)
        // No margins: the window is exactly the bubble and its arrow.
        let x0 = min(body.minX, tip.x)
        let y0 = min(body.minY, tip.y)
        let bubble = Rect(x: x0, y: y0, width: max(body.maxX, tip.x) - x0, height: max(body.maxY, tip.y) - y0)
        #expect(g.windowFrame == bubble)
        checkPlacementArrow(g, source: button, gap: 4)
        checkPlacementInvariants(r, g)
    }

    @Test(arguments: Edge.allCases)
    func theArrowBaseIsAsWideAsTheArrow(edge: ToolTipPlacement.Edge) throws {
        let g = ToolTipLayout.place(placementRequest(button, edge))
        let a = try #require(placementScreenArrow(g))
        let width = abs(a.base1.x - a.base2.x) + abs(a.base1.y - a.base2.y)
        #expect(width == 12)
        let depth = edge.isVertical ? abs(a.tip.y - a.base1.y) : abs(a.tip.x - a.base1.x)
        #expect(depth == 6)
    }

    @Test func theDefaultGapIsFourAndGapsAreClamped() {
        #expect(ToolTipPlacement.bottom.gap == 4)
        #expect(ToolTipPlacement.top.edge == .top && ToolTipPlacement.top.alignment == .center)
        #expect(ToolTipPlacement(edge: .top, gap: .nan).gap == 4)
        #expect(ToolTipPlacement(edge: .top, gap: -3).gap == 0)
        #expect(ToolTipPlacement(edge: .top, gap: 1000).gap == 64)
        #expect(Edge.allCases.allSatisfy { $0.opposite.opposite == $0 && $0.opposite != $0 })
    }

    @Test func marginsForTheShadowAreInsideTheWindow() {
        let margins = EdgeInsets(top: 4, left: 10, bottom: 14, right: 10)
        let r = placementRequest(button, .bottom, margins: margins, pointer: Point(x: 960, y: 515))
        let g = ToolTipLayout.place(r)
        #expect(g.edge == .bottom)
        #expect(g.windowFrame == Rect(x: 900, y: 530, width: 120, height: 64))
        #expect(g.body == Rect(x: 10, y: 10, width: 100, height: 40))
        #expect(g.arrow?.tip == Point(x: 60, y: 4))
        checkPlacementInvariants(r, g)
    }

    @Test func marginsCountWhenDecidingWhetherAnEdgeFits() {
        // 56 px below the gap: enough for arrow and body (46), not with a 14 px shadow below (60).
        let source = Rect(x: 900, y: 990, width: 120, height: 30)
        #expect(ToolTipLayout.place(placementRequest(source, .bottom)).edge == .bottom)
        let r = placementRequest(source, .bottom, margins: EdgeInsets(top: 4, left: 10, bottom: 14, right: 10))
        let g = ToolTipLayout.place(r)
        #expect(g.edge == .top)
        checkPlacementInvariants(r, g)
    }

    @Test func marginsStayOnTheMonitorWhenShifted() {
        let r = placementRequest(Rect(x: 0, y: 500, width: 40, height: 30), margins: EdgeInsets(all: 10))
        let g = ToolTipLayout.place(r)
        #expect(g.windowFrame.minX == 0)
        #expect(placementScreenBody(g).minX == 10)
        checkPlacementInvariants(r, g)
    }

    @Test func fractionalInputsGiveAWholePixelWindowAroundTheBubble() {
        let r = placementRequest(
            Rect(x: 10.25, y: 20.5, width: 33.3, height: 11.1), .trailing, body: Size(width: 101.5, height: 40.3),
            arrow: Size(width: 11, height: 5.5), gap: 3.3)
        let g = ToolTipLayout.place(r)
        checkPlacementInvariants(r, g)
        checkPlacementArrow(g, source: r.source, gap: 3.3)
    }
}

@Suite struct ToolTipPlacementFlipTests {
    @Test(arguments: [
        (Edge.bottom, Rect(x: 900, y: 1040, width: 120, height: 30), Edge.top),
        (.top, Rect(x: 900, y: 10, width: 120, height: 30), .bottom),
        (.leading, Rect(x: 20, y: 500, width: 120, height: 30), .trailing),
        (.trailing, Rect(x: 1800, y: 500, width: 100, height: 30), .leading),
    ])
    func aPreferredEdgeWithoutRoomFlips(
        preferred: ToolTipPlacement.Edge, source: Rect, expected: ToolTipPlacement.Edge
    ) {
        let pointer = Point(x: source.midX, y: source.midY)
        for alignment in Alignment.allCases {
            let r = placementRequest(source, preferred, alignment, pointer: pointer)
            let g = ToolTipLayout.place(r)
            #expect(g.edge == expected)
            checkPlacementArrow(g, source: source, gap: 4)
            checkPlacementInvariants(r, g)
        }
    }

    @Test func anExactFitDoesNotFlipAndOnePixelLessDoes() {
        // Arrow 6 + body 40 = 46 px needed below the 4 px gap.
        let fits = Rect(x: 900, y: 1000, width: 120, height: 30)
        let g = ToolTipLayout.place(placementRequest(fits))
        #expect(g.edge == .bottom)
        #expect(g.windowFrame.maxY == 1080)
        #expect(ToolTipLayout.place(placementRequest(fits.offsetBy(dx: 0, dy: 1))).edge == .top)
    }

    /// On a 320×240 screen a 200 px tall body fits neither above nor below: the side with more
    /// room wins; on a tie the preferred side stays.
    @Test(arguments: [
        (100.0, Edge.bottom, Edge.bottom), (100, .top, .top),  // 96 px either side: a tie
        (90, .bottom, .bottom), (90, .top, .bottom),  // more room below
        (110, .bottom, .top), (110, .top, .top),  // more room above
    ])
    func whenNeitherSideFitsTheRoomierSideWinsAndTiesKeepThePreferred(
        sourceY: Double, preferred: ToolTipPlacement.Edge, expected: ToolTipPlacement.Edge
    ) {
        let tiny = Rect(x: 0, y: 0, width: 320, height: 240)
        let source = Rect(x: 100, y: sourceY, width: 60, height: 40)
        let r = placementRequest(source, preferred, body: Size(width: 100, height: 200), monitors: [tiny])
        let g = ToolTipLayout.place(r)
        #expect(g.edge == expected)
        checkPlacementInvariants(r, g)
        // No oscillation: asking for the chosen side gives the same side.
        #expect(ToolTipLayout.place(placementRequest(source, g.edge, body: r.body, monitors: [tiny])).edge == expected)
    }

    @Test(arguments: [
        (Rect(x: 0, y: 500, width: 40, height: 30), Edge.bottom, 0.0),
        (Rect(x: 1880, y: 500, width: 40, height: 30), .bottom, 1820),
        (Rect(x: 0, y: 500, width: 40, height: 30), .top, 0),
        (Rect(x: 1880, y: 500, width: 40, height: 30), .top, 1820),
        (Rect(x: 500, y: 0, width: 100, height: 20), .trailing, 0),
        (Rect(x: 500, y: 1060, width: 100, height: 20), .trailing, 1040),
        (Rect(x: 500, y: 0, width: 100, height: 20), .leading, 0),
        (Rect(x: 500, y: 1060, width: 100, height: 20), .leading, 1040),
    ])
    func nearAMonitorSideTheBodyShiftsAndTheArrowStaysOnTheSource(
        source: Rect, edge: ToolTipPlacement.Edge, expectedStart: Double
    ) {
        for radius in [0.0, 6] {
            let r = placementRequest(source, edge, cornerRadius: radius)
            let g = ToolTipLayout.place(r)
            #expect(g.edge == edge)
            let body = placementScreenBody(g)
            #expect((edge.isVertical ? body.minX : body.minY) == expectedStart)
            checkPlacementArrow(g, source: source, gap: 4)
            checkPlacementInvariants(r, g)
        }
    }

    @Test(arguments: [
        Rect(x: 0, y: 0, width: 40, height: 20), Rect(x: 1880, y: 0, width: 40, height: 20),
        Rect(x: 0, y: 1060, width: 40, height: 20), Rect(x: 1880, y: 1060, width: 40, height: 20),
    ])
    func inEveryCornerEveryPlacementStaysOnTheMonitor(source: Rect) {
        for edge in Edge.allCases {
            for alignment in Alignment.allCases {
                let r = placementRequest(source, edge, alignment, pointer: Point(x: source.midX, y: source.midY))
                let g = ToolTipLayout.place(r)
                // The sides towards the monitor's inside have room; the others flip to them.
                let inward: Edge =
                    edge.isVertical ? (source.minY == 0 ? .bottom : .top) : (source.minX == 0 ? .trailing : .leading)
                #expect(g.edge == inward, "\(edge) gave \(g.edge)")
                checkPlacementArrow(g, source: source, gap: 4)
                checkPlacementInvariants(r, g)
            }
        }
    }
}
