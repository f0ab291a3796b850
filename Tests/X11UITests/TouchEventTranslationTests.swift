import CX11
import Testing

@testable import X11UI

// XInput 2.2 device events, as libXi hands them out (XGetEventData's cookie data), into
// `Event.touch`: the fields a touchscreen's events carry, filled into the C struct field by
// field (Xvfb has no touch device; no event here was captured from one).

private func deviceEvent(
    evtype: Int32, touch: Int32, event: (Double, Double), root: (Double, Double), flags: Int32,
    time: UInt = 123_456
) -> cx11_XIDeviceEvent {
    var e = cx11_XIDeviceEvent()
    e.type = GenericEvent
    e.extension = 131
    e.evtype = evtype
    e.time = time
    e.deviceid = 2  // the master pointer: touch events are selected from master devices
    e.sourceid = 11  // the touchscreen
    e.detail = touch
    e.root = 0x2a8
    e.event = 0x40_0003
    e.child = 0
    (e.event_x, e.event_y) = event
    (e.root_x, e.root_y) = root
    e.flags = flags
    return e
}

private func translated(_ e: cx11_XIDeviceEvent) -> Event {
    var e = e
    var fields = cx11_touch_fields()
    cx11_touch_fields_copy(&e, &fields)
    return EventTranslator.touch(fields)
}

@Suite struct TouchEventTranslationTests {
    @Test func aTouchscreensBeginUpdateAndEndBecomeTouchEvents() throws {
        let emulating = Int32(XITouchRecord.emulatingPointer)
        let cases: [(Int32, XITouchRecord.Kind)] = [
            (Int32(XI_TouchBegin), .begin), (Int32(XI_TouchUpdate), .update), (Int32(XI_TouchEnd), .end),
        ]
        for (evtype, kind) in cases {
            let event = translated(
                deviceEvent(
                    evtype: evtype, touch: 7, event: (40.5, 20.25), root: (140.5, 70.25), flags: emulating))
            guard case .touch(let window, let record) = event else {
                Issue.record("evtype \(evtype) gave \(event)")
                continue
            }
            #expect(window == 0x40_0003)
            #expect(event.window == 0x40_0003, "dispatched to the window the touch is on")
            #expect(record.kind == kind)
            #expect(record.touchID == 7)
            #expect(record.event == Point(x: 40.5, y: 20.25))
            #expect(record.root == Point(x: 140.5, y: 70.25))
            #expect(record.emulatesPointer)
            #expect(record.time == 123_456)
        }
    }

    /// A touch id is a CARD32; libXi hands it out as an int.
    @Test func touchIDsAboveTheSignedRangeKeepTheirValue() {
        let event = translated(
            deviceEvent(evtype: Int32(XI_TouchBegin), touch: -2, event: (1, 1), root: (1, 1), flags: 0))
        guard case .touch(_, let record) = event else {
            Issue.record("not a touch: \(event)")
            return
        }
        #expect(record.touchID == UInt32.max - 1)
        #expect(!record.emulatesPointer)
    }

    /// The server's time is a CARD32 in a C long: it wraps as the server's does.
    @Test func theServerTimeIsKeptToThirtyTwoBits() {
        let event = translated(
            deviceEvent(
                evtype: Int32(XI_TouchEnd), touch: 1, event: (1, 1), root: (1, 1), flags: 0,
                time: UInt(UInt32.max) + 6))
        guard case .touch(_, let record) = event else {
            Issue.record("not a touch: \(event)")
            return
        }
        #expect(record.time == 5)
    }

    @Test func otherDeviceEventsAndPointsThatAreNotFiniteAreNotTouches() {
        for evtype in [XI_Motion, XI_ButtonPress, XI_ButtonRelease, XI_Enter, XI_TouchOwnership, 0, 99] {
            let event = translated(
                deviceEvent(evtype: Int32(evtype), touch: 1, event: (1, 1), root: (1, 1), flags: 0))
            if case .touch = event { Issue.record("evtype \(evtype) taken for a touch") }
        }
        for bad in [Double.nan, .infinity, -.infinity] {
            let event = translated(
                deviceEvent(evtype: Int32(XI_TouchBegin), touch: 1, event: (bad, 1), root: (1, bad), flags: 0))
            if case .touch = event { Issue.record("a point of \(bad) taken for a touch") }
        }
    }
}
