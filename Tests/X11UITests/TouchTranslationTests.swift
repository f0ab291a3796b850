import Testing

@testable import X11UICore

// XI 2.2 touch records, as a touchscreen's driver sends them (constructed: Xvfb has no touch
// device), into the tooltip machine's touch inputs.

private func record(
    _ evtype: Int32, id: Int32, x: Double, y: Double, time: UInt, emulating: Bool = true
) -> XITouchRecord {
    XITouchRecord(
        evtype: evtype, detail: id, eventX: x - 100, eventY: y - 50, rootX: x, rootY: y,
        flags: emulating ? Int32(XITouchRecord.emulatingPointer) : 0, time: time)!
}

private let begin = XITouchRecord.touchBegin
private let update = XITouchRecord.touchUpdate
private let end = XITouchRecord.touchEnd

@Suite struct TouchTranslationTests {
    @Test func oneFingerBecomesBeginMoveEnd() {
        var t = TouchTranslator()
        #expect(
            t.translate(record(begin, id: 7, x: 140, y: 70, time: 1000))
                == .begin(event: Point(x: 40, y: 20), root: Point(x: 140, y: 70)))
        #expect(
            t.translate(record(update, id: 7, x: 142, y: 71, time: 1016))
                == .move(event: Point(x: 42, y: 21), root: Point(x: 142, y: 71)))
        #expect(t.translate(record(end, id: 7, x: 142, y: 71, time: 1600)) == .end)
        #expect(t.followed == nil)
    }

    @Test func otherEventTypesAndNonFiniteCoordinatesAreDropped() {
        #expect(
            XITouchRecord(evtype: 6, detail: 1, eventX: 0, eventY: 0, rootX: 0, rootY: 0, flags: 0, time: 0) == nil)
        #expect(
            XITouchRecord(
                evtype: begin, detail: 1, eventX: .nan, eventY: 0, rootX: 0, rootY: .infinity, flags: 0, time: 0)
                == nil)
    }

    @Test func aSecondFingerCancelsAndAllAreIgnoredUntilAllLift() {
        var t = TouchTranslator()
        _ = t.translate(record(begin, id: 1, x: 10, y: 10, time: 0))
        #expect(t.translate(record(begin, id: 2, x: 60, y: 10, time: 10, emulating: false)) == .cancel)
        #expect(t.translate(record(update, id: 1, x: 11, y: 10, time: 20)) == nil)
        #expect(t.translate(record(end, id: 1, x: 11, y: 10, time: 30)) == nil)
        // Finger 2 is still down: a new finger is not followed yet.
        #expect(t.translate(record(begin, id: 3, x: 10, y: 10, time: 40, emulating: false)) == nil)
        #expect(t.translate(record(end, id: 2, x: 60, y: 10, time: 50)) == nil)
        #expect(t.translate(record(end, id: 3, x: 10, y: 10, time: 60)) == nil)
        #expect(t.translate(record(begin, id: 4, x: 10, y: 10, time: 70)) != nil)
    }

    @Test func otherFingersAreBounded() {
        var t = TouchTranslator()
        _ = t.translate(record(begin, id: 0, x: 10, y: 10, time: 0))
        for id in 1...1000 { _ = t.translate(record(begin, id: Int32(id), x: 10, y: 10, time: 0, emulating: false)) }
        #expect(t.others.count == TouchTranslator.maxTouches)
    }

    /// Core events carry no emulation mark: those while the finger is down, and those at its
    /// lift point within the window after it lifted, are the touch's; a mouse elsewhere, or
    /// later, is not.
    @Test func coreEventsThatFollowATouchAreRecognised() {
        var t = TouchTranslator()
        let lift = Point(x: 142, y: 71)
        #expect(!t.isEmulated(time: 900, root: Point(x: 140, y: 70)))
        _ = t.translate(record(begin, id: 7, x: 140, y: 70, time: 1000))
        #expect(t.isEmulated(time: 1000, root: Point(x: 140, y: 70)))
        #expect(t.isEmulated(time: 1300, root: Point(x: 500, y: 500)))
        _ = t.translate(record(end, id: 7, x: lift.x, y: lift.y, time: 1600))
        #expect(t.isEmulated(time: 1600, root: lift))
        #expect(t.isEmulated(time: 1600 + UInt32(TouchTranslator.emulationWindow), root: lift))
        #expect(!t.isEmulated(time: 1601 + UInt32(TouchTranslator.emulationWindow), root: lift))
        #expect(!t.isEmulated(time: 1610, root: Point(x: 150, y: 71)))
        #expect(t.isEmulated(time: 5000, root: lift, xi2Flags: XITouchRecord.pointerEmulated))
        #expect(!t.isEmulated(time: 1600, root: lift, xi2Flags: 0))
    }

    @Test func aTouchThatDoesNotEmulateThePointerLeavesCoreEventsAlone() {
        var t = TouchTranslator()
        _ = t.translate(record(begin, id: 7, x: 140, y: 70, time: 1000, emulating: false))
        #expect(!t.isEmulated(time: 1000, root: Point(x: 140, y: 70)))
        _ = t.translate(record(end, id: 7, x: 140, y: 70, time: 1100, emulating: false))
        #expect(!t.isEmulated(time: 1100, root: Point(x: 140, y: 70)))
    }

    @Test func serverTimeWrapsAround() {
        var t = TouchTranslator()
        _ = t.translate(record(begin, id: 1, x: 5, y: 5, time: UInt(UInt32.max - 10)))
        _ = t.translate(record(end, id: 1, x: 5, y: 5, time: UInt(UInt32.max - 10)))
        #expect(t.isEmulated(time: 20, root: Point(x: 5, y: 5)))
    }
}
