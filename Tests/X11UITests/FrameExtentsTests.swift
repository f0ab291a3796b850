import Testing

@testable import X11UI

@Suite struct FrameExtentsTests {
    /// openbox's frame on a 1366 × 768 screen: a window as tall as the screen is made as much
    /// smaller as the frame is tall.
    @Test func aWindowIsFittedWithItsFrameInTheRoom() throws {
        let extents = try #require(FrameExtents(values: [1, 1, 20, 5]))
        let room = Rect(x: 0, y: 0, width: 1366, height: 768)
        #expect(extents.fitting(Size(width: 1280, height: 768), in: room) == Size(width: 1280, height: 743))
        #expect(extents.fitting(Size(width: 1500, height: 900), in: room) == Size(width: 1364, height: 743))
        #expect(extents.fitting(Size(width: 400, height: 300), in: room) == Size(width: 400, height: 300))
        #expect(
            extents.around(Rect(x: 1, y: 20, width: 1280, height: 743)) == Rect(x: 0, y: 0, width: 1282, height: 768))
    }

    @Test func unbelievableExtentsAreRefused() {
        #expect(FrameExtents(values: [1, 1, 20]) == nil)
        #expect(FrameExtents(values: [1, -1, 20, 5]) == nil)
        #expect(FrameExtents(values: [1, 1, 20, 100_000]) == nil)
        #expect(FrameExtents(values: [0, 0, 0, 0]) == FrameExtents.none)
        // A room smaller than the frame leaves a window of one pixel, never less.
        let huge = FrameExtents(values: [500, 500, 500, 500])!
        #expect(
            huge.fitting(Size(width: 800, height: 600), in: Rect(x: 0, y: 0, width: 640, height: 480))
                == Size(width: 1, height: 1))
    }
}
