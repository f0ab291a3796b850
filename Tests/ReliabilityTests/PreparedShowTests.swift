import Testing
import X11TestSupport

@_spi(Testing) @testable import X11UI

/// The tooltip timer wakes a moment before a hover tooltip's deadline (as on the real clock,
/// where a long `ppoll` would come late) and makes the hidden tooltip window ready then:
/// measured, placed, shaped and painted. At the deadline the show is a configure and a map;
/// what shows is what an unprepared show would have shown, and anything that happens in the
/// last moment (the pointer leaves, the text changes) decides as it would have.
@Suite(.serialized)
@MainActor
final class PreparedShowTests {
    let harness: Harness
    let source = block(160, 40, toolTip: "Made ready before its deadline")
    let other = block(160, 40, toolTip: "Another tooltip, other words")

    init() throws {
        harness = try Harness(earlyWake: .milliseconds(1))
        harness.show(
            VStack(spacing: 60, padding: 40) {
                source
                other
            })
    }

    var app: Application { harness.app }
    var probe: ServerProbe { harness.probe }

    /// The tooltip window as the server has it (mapped or not).
    var toolTipWindow: ServerProbe.WindowInfo? { app.toolTips.windowID.flatMap { probe.info($0.rawValue) } }

    /// Rests the pointer on `view` and lets the delay pass but its last millisecond: the early
    /// wake has come and gone. Returns the requests it made.
    @discardableResult
    func restUntilJustBeforeTheDeadline(on view: View) -> Int {
        harness.move(to: harness.center(of: view))
        let before = app.connection.nextRequestSerial
        harness.clock.advance(by: .milliseconds(39))
        let requests = Int(app.connection.nextRequestSerial - before)
        harness.settle()
        #expect(!app.toolTips.isShowing)
        #expect(probe.mappedPopups().isEmpty)
        return requests
    }

    /// Lets the last millisecond pass; returns the requests the show made.
    func reachTheDeadline() -> Int {
        let before = app.connection.nextRequestSerial
        harness.clock.advance(by: .milliseconds(1))
        let requests = Int(app.connection.nextRequestSerial - before)
        harness.settle()
        return requests
    }

    /// The tooltip's pixels, every other one.
    func pixels() throws -> [UInt32] {
        let tip = try #require(probe.mappedPopups().first)
        var pixels: [UInt32] = []
        for y in stride(from: 0, to: tip.frame.height, by: 2) {
            for x in stride(from: 0, to: tip.frame.width, by: 2) {
                pixels.append(probe.pixel(tip.frame.x + x, tip.frame.y + y))
            }
        }
        return pixels
    }

    /// Moves the pointer off the views and waits out the grace and the browse timeout.
    func leave() {
        harness.move(to: Point(x: 590, y: 390))
        harness.wait(200)
        #expect(probe.mappedPopups().isEmpty)
    }

    @Test func theWindowIsPaintedBeforeTheDeadlineAndTheShowIsAConfigureAndAMap() throws {
        let early = restUntilJustBeforeTheDeadline(on: source)
        let ready = try #require(toolTipWindow, "the tooltip window is made at the early wake")
        #expect(!ready.isMapped)
        #expect(early > 5, "made, shaped and painted before the deadline: \(early) requests")
        let requests = reachTheDeadline()
        #expect(app.toolTips.shownText == "Made ready before its deadline")
        #expect(requests == 2, "configure and map: \(requests) requests")
        let first = try #require(probe.mappedPopups().first)
        let frame = try #require(source.frameOnScreen)
        #expect(Double(first.frame.y) >= frame.maxY, "below the source: \(first)")
        leave()

        // Shown again with the same text in the same place: nothing to do at the early wake,
        // and the show is the same two requests, as the floor's.
        #expect(restUntilJustBeforeTheDeadline(on: source) == 0, "no request before the deadline")
        #expect(reachTheDeadline() == 2)
        #expect(try #require(probe.mappedPopups().first).frame == first.frame)
        leave()

        // Resting further along the source, where the tooltip follows the pointer: the hidden
        // window is moved at the early wake, and the show is the same two requests.
        let center = harness.center(of: source)
        harness.move(to: Point(x: center.x + 50, y: center.y))
        let before = app.connection.nextRequestSerial
        harness.clock.advance(by: .milliseconds(39))
        #expect(app.connection.nextRequestSerial - before == 1, "the move, before the deadline")
        harness.settle()
        let moved = try #require(toolTipWindow)
        #expect(!moved.isMapped)
        #expect(moved.frame.x > first.frame.x, "moved along with the pointer: \(moved) vs \(first)")
        #expect(reachTheDeadline() == 2)
        #expect(try #require(probe.mappedPopups().first).frame == moved.frame)
    }

    @Test func aPreparedShowLooksLikeAnUnpreparedOne() throws {
        // First on a clock that wakes at deadlines only: painted at the deadline.
        let exact = VirtualClock(start: harness.clock.now)
        app.toolTips.drive(on: exact)
        func showAtTheDeadline(_ view: View) {
            harness.move(to: harness.center(of: view))
            exact.advance(by: .milliseconds(39))
            harness.settle()
            #expect(probe.mappedPopups().isEmpty)
            let before = app.connection.nextRequestSerial
            exact.advance(by: .milliseconds(1))
            #expect(app.connection.nextRequestSerial - before > 2, "painted at the deadline")
            harness.settle()
        }
        func leaveOnTheExactClock() {
            harness.move(to: Point(x: 590, y: 390))
            exact.advance(by: .milliseconds(200))
            harness.settle()
            #expect(probe.mappedPopups().isEmpty)
        }
        showAtTheDeadline(source)
        #expect(app.toolTips.shownText == "Made ready before its deadline")
        let unprepared = try pixels()
        let unpreparedFrame = try #require(probe.mappedPopups().first).frame
        leaveOnTheExactClock()
        // Other words through the window, so that the next show of the first must paint.
        showAtTheDeadline(other)
        leaveOnTheExactClock()

        // Then on the harness's clock, which wakes early: made ready, then mapped.
        app.toolTips.drive(on: harness.clock)
        harness.clock.advance(by: exact.now - harness.clock.now)
        restUntilJustBeforeTheDeadline(on: source)
        #expect(reachTheDeadline() == 2)
        #expect(app.toolTips.shownText == "Made ready before its deadline")
        #expect(try pixels() == unprepared)
        #expect(try #require(probe.mappedPopups().first).frame == unpreparedFrame)
    }

    /// The desktop's settings changing between the early wake and the deadline: the window
    /// made ready at the old scale, or with the old font rendering, is not what shows.
    @Test func aNewScaleOrFontRenderingInTheLastMomentIsWhatShows() throws {
        // A source that fills its window stays under the pointer at any scale; the other
        // window goes, and the real pointer is out of the way (the windows grow under it).
        harness.window?.close()
        probe.movePointer(to: 1279, 799)
        let filling = block(300, 200, toolTip: "Made ready at one scale")
        harness.show(filling, size: Size(width: 300, height: 200))
        func rest() {
            harness.move(to: Point(x: 100, y: 60))
            harness.clock.advance(by: .milliseconds(39))
            harness.settle()
            #expect(!app.toolTips.isShowing)
        }
        rest()
        #expect(reachTheDeadline() == 2, "made ready, then a configure and a map")
        let atOne = try #require(probe.mappedPopups().first)
        harness.move(to: Point(x: 590, y: 390))
        harness.wait(200)
        #expect(probe.mappedPopups().isEmpty)

        rest()
        var settings = DesktopSettings()
        settings.dpi = 192
        app.desktopSettingsDidChange(settings)
        let requests = reachTheDeadline()
        #expect(requests > 2, "laid out and painted again at the deadline: \(requests) requests")
        let shown = try #require(probe.mappedPopups().first)
        #expect(abs(shown.frame.width - 2 * atOne.frame.width) <= 6, "at 192 dpi: \(atOne) → \(shown)")
        #expect(abs(shown.frame.height - 2 * atOne.frame.height) <= 6, "at 192 dpi: \(atOne) → \(shown)")
        harness.move(to: Point(x: 1270, y: 790))
        harness.wait(200)
        #expect(probe.mappedPopups().isEmpty)

        // The same scale, glyphs rendered otherwise (their widths too): laid out anew, as a
        // show made ready with that rendering is.
        rest()
        settings.antialias = false
        settings.hintStyle = "hintfull"
        app.desktopSettingsDidChange(settings)
        #expect(reachTheDeadline() > 2, "painted with the new rendering")
        let sharp = try #require(probe.mappedPopups().first)
        let tip = sharp.frame
        let text = probe.pixels(tip.x + tip.width / 4, tip.y + tip.height / 3, tip.width / 2, tip.height / 3)
        #expect(Set(text).count <= 3, "no blended edges: \(Set(text).count) colours")
        harness.move(to: Point(x: 1270, y: 790))
        harness.wait(200)
        rest()
        #expect(reachTheDeadline() == 2)
        let again = try #require(probe.mappedPopups().first)
        #expect(again.frame == sharp.frame, "\(sharp) then \(again)")
    }

    @Test func thePointerLeavingInTheLastMomentShowsNothing() throws {
        restUntilJustBeforeTheDeadline(on: source)
        harness.move(to: Point(x: 590, y: 390))
        harness.wait(100)
        #expect(!app.toolTips.isShowing)
        #expect(probe.mappedPopups().isEmpty)
        #expect(toolTipWindow?.isMapped == false, "the window made ready stays unmapped")

        // Resting on the other view shows its own tooltip, made ready in turn.
        harness.wait(200)
        restUntilJustBeforeTheDeadline(on: other)
        #expect(reachTheDeadline() == 2)
        #expect(app.toolTips.shownText == "Another tooltip, other words")
    }

    @Test func textChangedInTheLastMomentIsTheTextShown() throws {
        restUntilJustBeforeTheDeadline(on: source)
        source.toolTip = "New words, decided at the last moment"
        let requests = reachTheDeadline()
        #expect(app.toolTips.shownText == "New words, decided at the last moment")
        #expect(requests > 2, "painted again: \(requests) requests")
        let newText = try pixels()
        leave()

        // The old text painted the same way looks different.
        source.toolTip = "Made ready before its deadline"
        restUntilJustBeforeTheDeadline(on: source)
        _ = reachTheDeadline()
        #expect(app.toolTips.shownText == "Made ready before its deadline")
        #expect(try pixels() != newText)
    }

    @Test func aPointerThatMovesOnTheSourceInTheLastMomentIsKeptClearOf() throws {
        restUntilJustBeforeTheDeadline(on: source)
        // Along the source, still resting on it: the tooltip shows for where the pointer is
        // now, not where it was when the window was made ready.
        let center = harness.center(of: source)
        let moved = Point(x: center.x + 70, y: center.y + 15)
        harness.move(to: moved)
        harness.wait(45)
        #expect(app.toolTips.shownText == "Made ready before its deadline")
        let shown = try #require(probe.mappedPopups().first)
        let origin = try #require(harness.window?.screenOrigin)
        let pointer = (x: Int(origin.x + moved.x), y: Int(origin.y + moved.y))
        let covers =
            (shown.frame.x...shown.frame.x + shown.frame.width).contains(pointer.x)
            && (shown.frame.y...shown.frame.y + shown.frame.height).contains(pointer.y)
        #expect(!covers, "the tooltip \(shown) keeps clear of the pointer at \(pointer)")
    }

    @Test func aTimerArmedForAnEarlierSourcePreparesNothingLongBeforeTheNextDeadline() throws {
        // Resting on one source, then on another before the first's delay is over: the timer
        // armed for the first stays and wakes 39 ms in, 21 ms before the second's deadline.
        harness.move(to: harness.center(of: other))
        harness.clock.advance(by: .milliseconds(20))
        harness.move(to: harness.center(of: source))
        let before = app.connection.nextRequestSerial
        harness.clock.advance(by: .milliseconds(19) + .microseconds(500))
        #expect(app.connection.nextRequestSerial == before, "nothing made ready 20 ms early")
        #expect(app.toolTips.windowID == nil)
        // Its own early wake makes it ready; its deadline shows it.
        harness.clock.advance(by: .milliseconds(20))
        #expect(app.toolTips.windowID != nil)
        #expect(!app.toolTips.isShowing)
        #expect(reachTheDeadline() == 2)
        #expect(app.toolTips.shownText == "Made ready before its deadline")
    }
}
