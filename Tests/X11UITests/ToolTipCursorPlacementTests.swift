import Testing

@testable import X11UI

extension CursorInk {
    /// A cursor that is its hot spot alone: for placement tests about other things.
    static let hotSpotOnly = CursorInk(box: Rect(x: 0, y: 0, width: 1, height: 1))

    /// Adwaita's arrow (`left_ptr`, Debian 12) at its nominal sizes: its visible pixels around
    /// the hot spot, as the server shows them.
    static let adwaita: [Int: CursorInk] = [
        24: CursorInk(box: Rect(x: -2, y: -2, width: 15, height: 21)),
        48: CursorInk(box: Rect(x: -2, y: -4, width: 28, height: 43)),
        96: CursorInk(box: Rect(x: -3, y: -6, width: 54, height: 84)),
    ]
}

/// A tooltip never lies under the cursor the user sees, whatever its size and anchor: the
/// cursor's ink pushes the tooltip past it, or to another side.
@Suite struct ToolTipCursorPlacementTests {
    static let screen = Rect(x: 0, y: 0, width: 1366, height: 768)
    /// The demo's label (a line of text) and its button.
    static let label = Rect(x: 40, y: 200, width: 400, height: 20)
    static let button = Rect(x: 40, y: 300, width: 80, height: 30)

    private func request(
        _ source: Rect, pointer: Point, size: Int, edge: ToolTipPlacement.Edge = .bottom, follows: Bool = false,
        cursor: CursorInk? = nil
    ) -> ToolTipLayout.Request {
        ToolTipLayout.Request(
            body: Size(width: 160, height: 40), arrow: Size(width: 12, height: 6), cornerRadius: 6, source: source,
            placement: ToolTipPlacement(edge: edge), gap: 4, monitors: [Self.screen], pointer: pointer,
            followsPointer: follows, edgeMargin: 4, cursor: cursor ?? CursorInk.adwaita[size]!)
    }

    @Test(arguments: [24, 48, 96], [false, true])
    func belowALabelTheToolTipStartsWhereTheCursorEnds(size: Int, follows: Bool) throws {
        let pointer = Point(x: Self.label.midX, y: Self.label.midY)
        let r = request(Self.label, pointer: pointer, size: size, follows: follows)
        let g = ToolTipLayout.place(r)
        let ink = r.cursor.onScreen(at: pointer)
        #expect(!ToolTipLayout.covers(g, ink), "\(g.visualFrame) covers \(ink)")
        #expect(g.edge == .bottom)
        // As close as it can be: the gap past the source, or past the ink where that reaches
        // further (never touching the cursor's tail).
        #expect(g.visualFrame.minY == max(Self.label.maxY + 4, ink.maxY + 4))
        checkPlacementInvariants(r, g)
    }

    @Test(arguments: [24, 48, 96], [ToolTipPlacement.Edge.bottom, .top, .leading, .trailing])
    func noEdgeOrAnchorPutsTheToolTipOnTheCursor(size: Int, edge: ToolTipPlacement.Edge) {
        for source in [Self.label, Self.button, Rect(x: 1200, y: 700, width: 80, height: 30)] {
            for (dx, dy) in [(0.5, 0.5), (0.05, 0.9), (0.95, 0.1), (0.95, 0.95)] {
                let pointer = Point(x: source.minX + dx * source.width, y: source.minY + dy * source.height)
                for follows in [false, true] {
                    let r = request(source, pointer: pointer, size: size, edge: edge, follows: follows)
                    let g = ToolTipLayout.place(r)
                    #expect(
                        !ToolTipLayout.covers(g, r.cursor.onScreen(at: pointer)),
                        "\(source) \(pointer) \(edge) follows \(follows): \(g.visualFrame)")
                    #expect(Self.screen.contains(g.windowFrame))
                }
            }
        }
    }

    /// Near the screen's bottom a 96 pixel arrow leaves no room below: the tooltip goes above.
    @Test func withNoRoomBelowTheCursorTheToolTipFlips() {
        let source = Rect(x: 600, y: 640, width: 80, height: 30)
        let pointer = Point(x: 640, y: 655)
        let g = ToolTipLayout.place(request(source, pointer: pointer, size: 96))
        #expect(g.edge == .top)
        #expect(g.visualFrame.maxY <= source.minY - 4 + 0.01)
    }

    /// A source as large as the screen: next to the cursor's ink, not on it.
    @Test(arguments: [24, 48, 96])
    func besideAHugeSourceTheToolTipKeepsClearOfTheWholeCursor(size: Int) {
        let pointer = Point(x: 683, y: 384)
        let r = request(Self.screen, pointer: pointer, size: size)
        let g = ToolTipLayout.place(r)
        #expect(!ToolTipLayout.covers(g, r.cursor.onScreen(at: pointer)), "\(g.visualFrame)")
    }

    /// What the layout assumed before it knew the cursor: a 96 pixel arrow then lay under the
    /// label's tooltip.
    @Test func aSmallCursorsPlacementWouldCoverALargeCursor() {
        let pointer = Point(x: Self.label.midX, y: Self.label.midY)
        let g = ToolTipLayout.place(request(Self.label, pointer: pointer, size: 96, cursor: .standard))
        #expect(ToolTipLayout.covers(g, CursorInk.adwaita[96]!.onScreen(at: pointer)))
    }

    // MARK: - The ink from the cursor's image

    @Test func theInkIsTheVisiblePixelsAroundTheHotSpot() throws {
        // A 8 × 6 image, visible from (2, 1) to (5, 4), hot spot at (3, 2).
        var pixels = [UInt32](repeating: 0x00ff_ffff, count: 48)
        for y in 1...4 { for x in 2...5 { pixels[y * 8 + x] = 0x8000_0000 } }
        let ink = try #require(CursorInk(width: 8, height: 6, hotSpot: (3, 2), pixels: pixels))
        #expect(ink.box == Rect(x: -1, y: -1, width: 4, height: 4))
        #expect(ink.onScreen(at: Point(x: 100, y: 50)) == Rect(x: 99, y: 49, width: 4, height: 4))
    }

    @Test func anImageThatCannotBeACursorsGivesNoInk() {
        #expect(CursorInk(width: 4, height: 4, hotSpot: (0, 0), pixels: [UInt32](repeating: 0, count: 16)) == nil)
        #expect(CursorInk(width: 4, height: 4, hotSpot: (0, 0), pixels: [UInt32](repeating: ~0, count: 15)) == nil)
        #expect(CursorInk(width: 0, height: 4, hotSpot: (0, 0), pixels: [UInt32]()) == nil)
        let huge = CursorInk.largestSide + 1
        #expect(CursorInk(width: huge, height: 1, hotSpot: (0, 0), pixels: [UInt32](repeating: ~0, count: huge)) == nil)
        // A hot spot outside the image is taken at its nearest edge.
        let ink = CursorInk(width: 2, height: 2, hotSpot: (-50, 90), pixels: [UInt32](repeating: ~0, count: 4))
        #expect(ink?.box == Rect(x: 0, y: -1, width: 2, height: 2))
    }

    /// Without the shown cursor, the theme's size alone gives a box holding a theme's arrow.
    @Test(arguments: [24, 48, 96])
    func theGuessFromTheSizeHoldsTheArrow(size: Int) throws {
        let ink = try #require(CursorInk.adwaita[size])
        #expect(CursorInk.estimated(size: size).box.union(ink.box) == CursorInk.estimated(size: size).box)
    }
}
