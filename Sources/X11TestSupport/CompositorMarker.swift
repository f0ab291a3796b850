import CX11
import Foundation

/// A small window of a probe's own, for knowing when a compositor has painted what it was told:
/// a compositor sends no event when it paints, but it handles the server's events in their
/// order and paints after them. So once the marker's new colour is on the screen, everything
/// the server had told the compositor before the change (a window mapped, its opacity set, its
/// damage) is painted too. Tests wait for that rather than for a fixed time.
public final class CompositorMarker: @unchecked Sendable {
    private let probe: ServerProbe
    private let window: UInt
    private let x: Int
    private let y: Int
    private var shown = 0
    /// The colours it takes in turn: each change is one the screen can show.
    static let colours: [UInt32] = [0xff00ff, 0x00ffff]

    /// Maps the marker at (`x`, `y`) of the screen, `size` pixels square, clear of what the test
    /// reads, and waits until the compositor shows it (up to `timeout` seconds).
    public init(probe: ServerProbe, x: Int, y: Int, size: Int = 4, timeout: TimeInterval = 5) throws {
        self.probe = probe
        self.x = x
        self.y = y
        window = XCreateSimpleWindow(
            probe.display, probe.root, Int32(x), Int32(y), UInt32(size), UInt32(size), 0, 0, UInt(Self.colours[0]))
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        XChangeWindowAttributes(probe.display, window, UInt(CWOverrideRedirect), &attributes)
        XMapRaised(probe.display, window)
        XSync(probe.display, 0)
        guard wait(timeout: timeout, { probe.pixel(x, y) == Self.colours[0] }) else {
            throw XvfbServer.StartError(description: "the compositor never painted the marker")
        }
    }

    deinit {
        XDestroyWindow(probe.display, window)
        XSync(probe.display, 0)
    }

    /// Changes the marker's colour and waits until the screen shows it: true once the
    /// compositor has painted every change the server had sent it before this call (the
    /// caller makes sure its own requests reached the server first: an `XSync`).
    public func waitForCompositor(timeout: TimeInterval = 5) -> Bool {
        shown = (shown + 1) % Self.colours.count
        let colour = Self.colours[shown]
        XSetWindowBackground(probe.display, window, UInt(colour))
        XClearWindow(probe.display, window)
        XSync(probe.display, 0)
        return wait(timeout: timeout) { probe.pixel(x, y) == colour }
    }
}
