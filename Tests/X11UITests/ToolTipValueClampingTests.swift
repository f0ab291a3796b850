import Testing

@testable import X11UI

/// The tooltip's public value types clamp a property set after creation as their initialisers
/// clamp it, so no assignment gets an out-of-range value to the state machine or the drawing:
/// a value out of range (infinities too) is clamped, one that is not a number is the default.
@Suite struct ToolTipValueClampingTests {
    @Test func timingsClampEveryDelayWhenSet() {
        var timings = ToolTipTimings.standard
        timings.initialDelay = .milliseconds(-5)
        timings.browseDelay = .seconds(10_000)
        timings.browseTimeout = .seconds(-1)
        timings.hoverGrace = .seconds(3601)
        timings.autoHide = .seconds(-2)
        #expect(timings.initialDelay == .zero)
        #expect(timings.browseDelay == .seconds(3600))
        #expect(timings.browseTimeout == .zero)
        #expect(timings.hoverGrace == .seconds(3600))
        #expect(timings.autoHide == .zero)
        timings.autoHide = nil
        #expect(timings.autoHide == nil)
        timings.initialDelay = .milliseconds(250)
        #expect(timings.initialDelay == .milliseconds(250), "values in range are kept")
    }

    @Test func timingsSetAndTimingsMadeAgree() {
        var set = ToolTipTimings.standard
        set.initialDelay = .seconds(-3)
        set.hoverGrace = .seconds(99_999)
        let made = ToolTipTimings(
            initialDelay: .seconds(-3), browseDelay: set.browseDelay, browseTimeout: set.browseTimeout,
            hoverGrace: .seconds(99_999))
        #expect(set == made)
    }

    @Test(
        arguments: [(-10.0, 0.0), (1000.0, 64.0), (Double.nan, 4.0), (Double.infinity, 64.0), (12.0, 12.0)]
            as [(Double, Double)])
    func placementClampsTheGapWhenSet(value: Double, expected: Double) {
        var placement = ToolTipPlacement.bottom
        placement.gap = value
        #expect(placement.gap == expected)
        #expect(placement.gap == ToolTipPlacement(edge: .bottom, gap: value).gap)
    }

    @Test func styleClampsItsLengthsWhenSet() {
        var style = ToolTipStyle.dark
        style.padding = EdgeInsets(top: -4, left: .nan, bottom: 500, right: 10)
        style.cornerRadius = .infinity
        style.arrowSize = Size(width: -1, height: 1000)
        style.maxWidth = 1
        style.maxHeight = 1e9
        #expect(style.padding == EdgeInsets(top: 0, left: 8, bottom: 64, right: 10))
        #expect(style.cornerRadius == 32, "infinity is clamped like any value out of range")
        #expect(style.arrowSize == Size(width: 0, height: 32))
        #expect(style.maxWidth == 40)
        #expect(style.maxHeight == 4096)
        let made = ToolTipStyle(
            background: style.background, foreground: style.foreground,
            secondaryForeground: style.secondaryForeground, border: style.border,
            padding: EdgeInsets(top: -4, left: .nan, bottom: 500, right: 10), cornerRadius: .infinity,
            arrowSize: Size(width: -1, height: 1000), shadow: style.shadow, maxWidth: 1, maxHeight: 1e9)
        #expect(style == made, "set and made alike")
    }

    @Test func shadowClampsWhenSet() throws {
        var shadow = try #require(ToolTipStyle.dark.shadow)
        shadow.radius = -3
        #expect(shadow.radius == 0)
        shadow.radius = .nan
        #expect(shadow.radius == 0)
        shadow.radius = 100
        #expect(shadow.radius == 32)
        shadow.offset = Point(x: .nan, y: 3)
        #expect(shadow.offset == Point(x: 0, y: 3), "not a number: that coordinate's default")
        shadow.offset = Point(x: 1, y: 3)
        #expect(shadow.offset == Point(x: 1, y: 3))
    }
}
