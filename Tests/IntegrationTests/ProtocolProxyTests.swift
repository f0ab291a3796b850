import CX11
import Foundation
import Testing
import X11TestSupport

/// The counting proxy the benchmark measures requests and round trips with, between a real
/// Xlib client and a private Xvfb: a known sequence of calls gives the counts it must.
@Suite(.serialized)
final class ProtocolProxyTests {
    let server: XvfbServer

    init() throws {
        // Large enough for the sample scene's window: one larger than its screen is made to fit
        // it, which asks the window manager's work area first (a round trip before the map).
        server = try XvfbServer(width: 1280, height: 800)
    }

    deinit { server.stop() }

    @Test func aKnownSequenceOfXlibCallsIsCountedExactly() throws {
        let proxy = try XProxy(serverDisplay: server.number, firstDisplay: 640)
        defer { proxy.stop() }
        let display = try #require(XOpenDisplay(proxy.display))
        defer { XCloseDisplay(display) }
        // The proxy counts what it reads before it forwards it: once a reply is back, every
        // request before it and the reply itself are counted, with no wait.
        XSync(display, 0)
        let start = proxy.snapshot

        // Three requests without replies, flushed: no round trip.
        let root = XDefaultRootWindow(display)
        let window = XCreateSimpleWindow(display, root, 0, 0, 50, 50, 0, 0, 0)
        XMapWindow(display, window)
        XStoreName(display, window, "counted")
        XFlush(display)
        #expect(wait(timeout: 5) { (proxy.snapshot - start).requests >= 3 })
        let flushed = proxy.snapshot - start
        #expect(flushed.requests == 3)
        #expect(flushed.replies == 0)
        #expect(flushed.roundTrips == 0)
        #expect(flushed.opcodes == [1: 1, 8: 1, 18: 1])  // CreateWindow, MapWindow, ChangeProperty

        // Each call that needs an answer is one request and one reply: one round trip each.
        _ = XInternAtom(display, "X11UI_PROXY_TEST_ATOM", 0)
        XSync(display, 0)  // GetInputFocus, answered
        let waited = proxy.snapshot - start
        #expect(waited.requests == 5)
        #expect(waited.replies == 2)
        #expect(waited.roundTrips == 2)
        #expect(waited.errors == 0)

        // XInternAtoms sends its requests, then reads the replies: five replies, one wait.
        var names = (1...5).map { strdup("X11UI_PROXY_BATCH_\($0)") }
        defer { names.forEach { free($0) } }
        var atoms = [UInt](repeating: 0, count: names.count)
        _ = XInternAtoms(display, &names, Int32(names.count), 0, &atoms)
        let batched = proxy.snapshot - start
        #expect(batched.requests == 10)
        #expect(batched.replies == 7)
        #expect(batched.roundTrips == 3)
        #expect(!atoms.contains(0))
    }

    /// The demo maps its window before it asks for the extensions, the compositor's presence
    /// and the keyboard mapping (each a round trip that would delay the window), and asks for
    /// them once the window shows, before any tooltip needs them.
    @Test func theFirstWindowMapsBeforeTheWorkThatCanWait() throws {
        let proxy = try XProxy(serverDisplay: server.number, firstDisplay: 660)
        defer { proxy.stop() }
        let demo = try ProgramProcess("tooltip-demo", arguments: ["--scene", "sample"], display: proxy.display)
        defer { demo.stop() }
        #expect(demo.waitForView("text-view") != nil)
        let getSelectionOwner: UInt8 = 23
        let queryExtension: UInt8 = 98
        wait(timeout: 5) { proxy.snapshot.opcodes[getSelectionOwner] != nil }
        wait(timeout: 5) { proxy.snapshot.opcodes[getSelectionOwner] == 2 }
        let atMap = try #require(proxy.countsAtFirstMap)
        let started = proxy.snapshot
        // The settings manager is asked for before the map (its answer shares Xft's round
        // trip); the compositor's presence after it.
        #expect(atMap.opcodes[getSelectionOwner] == 1, "the compositor's presence was asked before the map")
        #expect(started.opcodes[getSelectionOwner] == 2, "the compositor's presence is asked once the window shows")
        // Shape, RandR and XFixes are asked after the map.
        #expect((started.opcodes[queryExtension] ?? 0) - (atMap.opcodes[queryExtension] ?? 0) >= 3)
        #expect(atMap.roundTrips < started.roundTrips)
        // Before the map: XOpenDisplay's 3 (BIG-REQUESTS query and enable, RESOURCE_MANAGER;
        // XKEYBOARD waits), the atoms with the RENDER check 1, Xft's RENDER formats 1.
        #expect(atMap.roundTrips <= 5, "\(atMap.roundTrips) round trips before the first map")
    }

    /// Under a settings manager the demo reads its settings before its first window (so that
    /// the window opens at the manager's scale): one round trip more before the map, the
    /// property's; without one, none (the owner's answer comes with Xft's round trip).
    @Test func theSettingsManagerCostsOneRoundTripBeforeTheMapOnlyWhenOneRuns() throws {
        var beforeMap: [Int] = []
        var propertiesRead: [Int] = []
        for manager in [false, true] {
            let settings = try manager ? XSettingsManager(display: server.display, settings: ["Xft/DPI": 98304]) : nil
            defer { settings?.stop() }
            let proxy = try XProxy(serverDisplay: server.number, firstDisplay: 680)
            defer { proxy.stop() }
            let demo = try ProgramProcess("tooltip-demo", arguments: ["--scene", "sample"], display: proxy.display)
            defer { demo.stop() }
            #expect(demo.waitForView("text-view") != nil)
            // The inspector reports the layout before the window maps: the map request may
            // still be on its way through the proxy.
            wait(timeout: 5) { proxy.countsAtFirstMap != nil }
            let atMap = try #require(proxy.countsAtFirstMap)
            let getProperty: UInt8 = 20
            propertiesRead.append(atMap.opcodes[getProperty] ?? 0)
            beforeMap.append(atMap.roundTrips)
        }
        #expect(propertiesRead[1] == propertiesRead[0] + 1, "the settings property read before the map")
        #expect(beforeMap[0] <= 5, "without a manager: \(beforeMap[0]) round trips before the map")
        #expect(beforeMap[1] == beforeMap[0] + 1, "with one: \(beforeMap[1])")
        print("round trips before the first map: \(beforeMap[0]) without a settings manager, \(beforeMap[1]) with one")
    }
}
