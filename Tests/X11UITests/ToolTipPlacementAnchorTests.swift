import Testing

@testable import X11UI

// Issue 12.1 and 12.4: hover tooltips at the pointer, sub-regions that keep the rest of their view
// usable, and room between a shifted tooltip and the monitor's edge.

private let screen = Rect(x: 0, y: 0, width: 1280, height: 800)

private func request(
    _ source: Rect, _ edge: ToolTipPlacement.Edge = .bottom, _ alignment: ToolTipPlacement.Alignment = .center,
    body: Size = Size(width: 100, height: 30), pointer: Point?, follows: Bool = true, avoid: Rect? = nil,
    edgeMargin: Double = 0
) -> ToolTipLayout.Request {
    ToolTipLayout.Request(
        body: body, arrow: Size(width: 12, height: 6), source: source,
        placement: ToolTipPlacement(edge: edge, alignment: alignment), gap: 4, monitors: [screen],
        pointer: pointer, avoid: avoid, followsPointer: follows, edgeMargin: edgeMargin, cursor: .hotSpotOnly)
}

private func screenArrowTip(_ g: ToolTipGeometry) -> Point? {
    g.arrow.map { Point(x: $0.tip.x + g.windowFrame.minX, y: $0.tip.y + g.windowFrame.minY) }
}

@Suite struct ToolTipPlacementPointerAnchorTests {
    /// A full-width label: resting at its left end puts the tooltip there, not 140 px away.
    @Test func alongTheEdgeTheArrowIsAtThePointer() throws {
        let label = Rect(x: 20, y: 100, width: 400, height: 20)
        let g = ToolTipLayout.place(request(label, pointer: Point(x: 40, y: 110)))
        let tip = try #require(screenArrowTip(g))
        #expect(tip.x == 40)
        #expect(tip.y == 124)  // across the edge: below the label, as before
        #expect(g.visualFrame.midX == 40 || g.visualFrame.minX == 0)
        // With the source anchor, the same request centres on the label.
        let centred = ToolTipLayout.place(request(label, pointer: Point(x: 40, y: 110), follows: false))
        #expect(centred.visualFrame.midX == label.midX)
    }

    @Test(arguments: [ToolTipPlacement.Alignment.start, .center, .end])
    func theAlignmentIsTakenAtThePointer(_ alignment: ToolTipPlacement.Alignment) {
        let label = Rect(x: 300, y: 100, width: 400, height: 20)
        let g = ToolTipLayout.place(request(label, .bottom, alignment, pointer: Point(x: 500, y: 110)))
        let body = g.body.offsetBy(dx: g.windowFrame.minX, dy: g.windowFrame.minY)
        switch alignment {
        case .start: #expect(body.minX == 500)
        case .center: #expect(body.midX == 500)
        case .end: #expect(body.maxX == 500)
        }
    }

    @Test func thePointIsKeptOnTheSource() throws {
        // A pointer just off the source (the last motion inside was a pixel away).
        let button = Rect(x: 600, y: 300, width: 80, height: 30)
        let g = ToolTipLayout.place(request(button, .top, pointer: Point(x: 700, y: 310)))
        let tip = try #require(screenArrowTip(g))
        #expect(tip.x == 680)
        #expect(g.edge == .top)
    }

    @Test func aMuchTallerSourcePutsTheToolTipNextToThePointer() throws {
        let tall = Rect(x: 100, y: 100, width: 300, height: 400)
        let pointer = Point(x: 200, y: 200)
        let g = ToolTipLayout.place(request(tall, pointer: pointer))
        let tip = try #require(screenArrowTip(g))
        #expect(tip.x == 200)
        #expect(tip.y > pointer.y && tip.y < pointer.y + 40)  // below the cursor, not below the view
        #expect(!g.visualFrame.contains(pointer))
        // A source only a little taller than the tooltip keeps it beyond its edge.
        let short = Rect(x: 100, y: 100, width: 300, height: 60)
        let h = ToolTipLayout.place(request(short, pointer: Point(x: 200, y: 110)))
        #expect(screenArrowTip(h)?.y == 164)
    }

    @Test func aMuchWiderSourcePutsASideToolTipNextToThePointer() throws {
        let wide = Rect(x: 100, y: 100, width: 900, height: 40)
        let pointer = Point(x: 300, y: 120)
        let g = ToolTipLayout.place(request(wide, .trailing, pointer: pointer))
        let tip = try #require(screenArrowTip(g))
        #expect(g.edge == .trailing)
        #expect(tip.y == 120)
        #expect(tip.x > pointer.x && tip.x < pointer.x + 40)
    }

    @Test func neverUnderThePointerOnAnyEdge() {
        let tall = Rect(x: 100, y: 100, width: 300, height: 400)
        for edge in ToolTipPlacement.Edge.allCases {
            for pointer in [Point(x: 101, y: 101), Point(x: 399, y: 499), Point(x: 250, y: 300)] {
                let g = ToolTipLayout.place(request(tall, edge, pointer: pointer))
                #expect(!g.visualFrame.contains(pointer), "\(edge) \(pointer)")
                #expect(screen.contains(g.windowFrame))
            }
        }
    }
}

@Suite struct ToolTipPlacementRegionTests {
    /// Three 40 px bands in a 300×120 view: the middle band's tooltip covers neither other band.
    @Test func aMiddleBandsToolTipGoesToASideThatCoversNoOtherBand() {
        let view = Rect(x: 200, y: 200, width: 300, height: 120)
        let middle = Rect(x: 200, y: 240, width: 300, height: 40)
        for edge in ToolTipPlacement.Edge.allCases {
            let g = ToolTipLayout.place(
                request(middle, edge, body: Size(width: 120, height: 30), pointer: Point(x: 350, y: 260), avoid: view))
            #expect(g.visualFrame.intersection(view).isEmpty, "\(edge): \(g.visualFrame)")
            #expect(g.edge == (edge.isVertical ? .trailing : edge), "\(edge)")
        }
    }

    @Test func theTopBandKeepsItsPreferredSideWhenThatCoversNothing() {
        let view = Rect(x: 200, y: 200, width: 300, height: 120)
        let top = Rect(x: 200, y: 200, width: 300, height: 40)
        let g = ToolTipLayout.place(request(top, .bottom, pointer: Point(x: 350, y: 220), avoid: view))
        #expect(g.edge == .top)
        let h = ToolTipLayout.place(request(top, .top, pointer: Point(x: 350, y: 220), avoid: view))
        #expect(h.edge == .top)
    }

    @Test func whenEverySideCoversTheViewTheLeastCoveredOfPreferredAndOppositeWins() {
        // A view as wide as the screen: the sides have no room; above covers less than below.
        let view = Rect(x: 0, y: 100, width: 1280, height: 200)
        let band = Rect(x: 0, y: 120, width: 1280, height: 40)
        let g = ToolTipLayout.place(request(band, .bottom, pointer: nil, follows: false, avoid: view))
        #expect(g.edge == .top)
    }
}

@Suite struct ToolTipPlacementMonitorMarginTests {
    @Test(arguments: [ToolTipPlacement.Alignment.start, .center, .end])
    func aShiftedToolTipKeepsItsMarginFromTheMonitorsEdge(_ alignment: ToolTipPlacement.Alignment) {
        let atRight = Rect(x: 1250, y: 300, width: 30, height: 30)
        let g = ToolTipLayout.place(request(atRight, .bottom, alignment, pointer: nil, follows: false, edgeMargin: 4))
        #expect(g.visualFrame.maxX == 1276)
        let atLeft = Rect(x: 0, y: 300, width: 30, height: 30)
        let h = ToolTipLayout.place(request(atLeft, .top, alignment, pointer: nil, follows: false, edgeMargin: 4))
        #expect(h.visualFrame.minX == 4)
    }

    @Test func aToolTipThatFitsExactlyIsNotPushedOffTheOtherEdge() {
        let g = ToolTipLayout.place(
            request(
                Rect(x: 0, y: 300, width: 30, height: 30), body: Size(width: 1272, height: 30), pointer: nil,
                follows: false, edgeMargin: 4))
        #expect(g.visualFrame.minX == 4 && g.visualFrame.maxX == 1276)
    }
}
