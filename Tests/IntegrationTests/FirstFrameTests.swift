import CX11
import Foundation
import Testing
import X11TestSupport

/// What the server shows of the demo's window from its map on, on a dark desktop whose portal
/// answers at once: never the light background, whether the window was made before the
/// portal answered or after, with and without a compositor. The window is read right after
/// its MapNotify, again and again until it shows the dark background, over many starts.
@Suite(.serialized)
struct FirstFrameTests {
    /// Blocks until the server sends something on the connection (Xlib's queue is empty: the
    /// caller's XPending said so), or until `deadline`.
    static func awaitEvent(_ display: OpaquePointer, until deadline: Date) {
        var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
        let milliseconds = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
        _ = poll(&descriptor, 1, milliseconds)
    }

    static let light: UInt32 = 0xf2f2f7
    static let dark: UInt32 = 0x1c1c1e
    /// The demo, or another build of it beside it (`X11UI_FIRST_FRAME_PROGRAM`), to measure
    /// one against the other.
    static let program = ProcessInfo.processInfo.environment["X11UI_FIRST_FRAME_PROGRAM"] ?? "tooltip-demo"

    /// One start as the server showed it.
    struct Start: CustomStringConvertible {
        /// The first colour read after the map.
        var first: UInt32
        /// How long the light background showed, in milliseconds.
        var light: Double
        /// From the map to the dark background, in milliseconds.
        var untilDark: Double
        var description: String {
            "first \(String(first, radix: 16)), light \(String(format: "%.1f", light)) ms, "
                + "dark after \(String(format: "%.1f", untilDark)) ms"
        }
    }

    /// Starts `program` `count` times on one server and one portal, and reads its window's
    /// corner (under a compositor: the screen's pixel there) from the map on.
    static func starts(count: Int, arguments: [String], composited: Bool) throws -> [Start] {
        let server = try XvfbServer(width: 1280, height: 800)
        defer { server.stop() }
        let portal = try TestPortal(["color-scheme": "uint32 1"])
        var compositor: ChildProcess?
        defer { compositor?.stop() }
        let display = try #require(XOpenDisplay(server.display))
        defer { XCloseDisplay(display) }
        let root = XDefaultRootWindow(display)
        if composited {
            compositor = try ChildProcess(
                "/usr/bin/xcompmgr", ["-d", server.display], environment: ["DISPLAY": server.display])
            let selection = XInternAtom(display, "_NET_WM_CM_S0", 0)
            try #require(wait(timeout: 5) { XGetSelectionOwner(display, selection) != 0 })
        }
        XSelectInput(display, root, SubstructureNotifyMask)
        var result: [Start] = []
        for _ in 0..<count {
            XSync(display, 1)
            let program = try ProgramProcess(
                Self.program, arguments: arguments, display: server.display, environment: portal.environment)
            var mapped: UInt = 0
            let started = Date()
            while mapped == 0, Date().timeIntervalSince(started) < 20 {
                guard XPending(display) > 0 else {
                    Self.awaitEvent(display, until: started + 20)
                    continue
                }
                var event = XEvent()
                XNextEvent(display, &event)
                if event.type == MapNotify, event.xmap.override_redirect == 0 { mapped = event.xmap.window }
            }
            try #require(mapped != 0, "the window mapped")
            let map = Date()
            var x: Int32 = 0
            var y: Int32 = 0
            var child: UInt = 0
            XTranslateCoordinates(display, mapped, root, 2, 2, &x, &y, &child)
            var reads: [(pixel: UInt32, at: Date)] = []
            while reads.last?.pixel != Self.dark, Date().timeIntervalSince(map) < 5 {
                let pixel = composited ? Self.pixel(display, root, x, y) : Self.pixel(display, mapped, 2, 2)
                reads.append((pixel, Date()))
            }
            program.stop()
            _ = program.waitForExit(timeout: 5)
            let last = try #require(reads.last)
            try #require(last.pixel == Self.dark, "the window turned dark")
            var light = 0.0
            for (read, next) in zip(reads, reads.dropFirst()) where read.pixel == Self.light {
                light += next.at.timeIntervalSince(read.at) * 1000
            }
            result.append(Start(first: reads[0].pixel, light: light, untilDark: last.at.timeIntervalSince(map) * 1000))
        }
        return result
    }

    /// The colour of one pixel of `drawable` (24-bit RGB).
    static func pixel(_ display: OpaquePointer, _ drawable: UInt, _ x: Int32, _ y: Int32) -> UInt32 {
        guard let image = XGetImage(display, drawable, x, y, 1, 1, UInt(0xffff_ffff), ZPixmap) else { return 0 }
        defer { _ = image.pointee.f.destroy_image(image) }
        return UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, 0, 0)) & 0xff_ffff
    }

    static func report(_ name: String, _ starts: [Start]) -> String {
        let flashes = starts.filter { $0.light > 0 || $0.first == light }
        let durations = flashes.map(\.light).sorted()
        return "\(name): \(flashes.count) of \(starts.count) starts showed the light background"
            + (durations.isEmpty ? "" : " (\(durations.map { String(format: "%.1f", $0) }.joined(separator: ", ")) ms)")
            + "; dark after " + starts.map { String(format: "%.0f", $0.untilDark) }.joined(separator: ", ") + " ms"
            + "; first seen: "
            + Dictionary(grouping: starts, by: \.first).map { "\(String($0.key, radix: 16)) ×\($0.value.count)" }
            .sorted().joined(separator: ", ")
    }

    @Test(arguments: [(["--scene", "sample"], false), (["--scene", "sample"], true), ([], false)])
    func aDarkDesktopsWindowNeverShowsTheLightBackground(arguments: [String], composited: Bool) throws {
        let starts = try Self.starts(count: 20, arguments: arguments, composited: composited)
        let summary = Self.report(
            (arguments.isEmpty ? "the whole demo" : "the sample scene") + (composited ? " under xcompmgr" : ""), starts)
        print(summary)
        #expect(starts.allSatisfy { $0.first != Self.light && $0.light == 0 }, "\(summary)")
    }

    /// The size the demo's window was created with, and had when it mapped, under a settings
    /// manager saying `dpi` (none when nil).
    static func windowSizes(dpi: Int32?) throws -> (created: Int, mapped: Int, resized: Bool) {
        let server = try XvfbServer(width: 1280, height: 800)
        defer { server.stop() }
        let manager = try dpi.map {
            try XSettingsManager(display: server.display, settings: ["Xft/DPI": .integer($0 * 1024)])
        }
        defer { manager?.stop() }
        let display = try #require(XOpenDisplay(server.display))
        defer { XCloseDisplay(display) }
        XSelectInput(display, XDefaultRootWindow(display), SubstructureNotifyMask)
        XSync(display, 0)
        let program = try ProgramProcess("tooltip-demo", arguments: ["--scene", "sample"], display: server.display)
        defer { program.stop() }
        var created: (window: UInt, width: Int)?
        var resized = false
        let started = Date()
        while Date().timeIntervalSince(started) < 20 {
            guard XPending(display) > 0 else {
                Self.awaitEvent(display, until: started + 20)
                continue
            }
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == CreateNotify, event.xcreatewindow.override_redirect == 0, created == nil {
                created = (event.xcreatewindow.window, Int(event.xcreatewindow.width))
            } else if event.type == ConfigureNotify, event.xconfigure.window == created?.window {
                resized = resized || Int(event.xconfigure.width) != created?.width
            } else if event.type == MapNotify, event.xmap.window == created?.window, let created {
                var attributes = XWindowAttributes()
                XGetWindowAttributes(display, created.window, &attributes)
                return (created.width, Int(attributes.width), resized)
            }
        }
        throw XvfbServer.StartError(description: "the demo's window never mapped")
    }

    /// The manager is read before the first window is made: the window is created at 192 dpi's
    /// size (twice 96 dpi's), and maps at it, never resized on the way.
    @Test func underAManagerAt192DPITheWindowIsMadeAtThatScale() throws {
        let plain = try Self.windowSizes(dpi: nil)
        let scaled = try Self.windowSizes(dpi: 192)
        #expect(scaled.created == 2 * plain.created, "\(scaled), \(plain) at 96 dpi")
        #expect(scaled.mapped == scaled.created && !scaled.resized, "\(scaled)")
    }
}
