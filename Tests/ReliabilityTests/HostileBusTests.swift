import CX11
import Foundation
import Testing
import X11TestSupport

/// What other clients of the session bus, and any X client, can do to a program through D-Bus:
/// name an accessibility bus that never answers, send messages far larger than any X11UI
/// needs, pretend to be the settings portal or the bus. Each on its own Xvfb and private
/// `dbus-daemon`, against the demo; the program must stay responsive (its hover tooltip shows
/// in its normal time) and keep its memory.
@Suite(.serialized)
struct HostileBusTests {
    static let buyText =
        "Click to buy this item. You'll have a chance to change your mind before confirming your purchase."

    /// A Unix socket that takes connections (the kernel completes them) and never speaks.
    final class SilentSocket {
        let path = NSTemporaryDirectory() + "x11ui-silent-\(UUID().uuidString.prefix(8))"
        private let fd: Int32
        private var accepted: [Int32] = []

        init() throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0, UnixSocket.bind(fd, to: path) == 0, listen(fd, 16) == 0 else {
                throw XvfbServer.StartError(description: "no silent socket at \(path)")
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            for client in accepted { close(client) }
            close(fd)
            unlink(path)
        }

        var address: String { "unix:path=\(path)" }

        /// Whether a client connected (it is accepted, and never answered).
        func tookAConnection() -> Bool {
            let client = accept(fd, nil, nil)
            if client >= 0 { accepted.append(client) }
            return !accepted.isEmpty
        }
    }

    /// A Unix socket whose listen queue is full and stays full: it never accepts, and the
    /// connections that filled the queue are kept. A blocking connect to it waits for good.
    final class FullSocket {
        let path = NSTemporaryDirectory() + "x11ui-full-\(UUID().uuidString.prefix(8))"
        private let fd: Int32
        private var fillers: [Int32] = []

        init() throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0, UnixSocket.bind(fd, to: path) == 0, listen(fd, 0) == 0 else {
                throw XvfbServer.StartError(description: "no socket at \(path)")
            }
            while fillers.count < 64 {
                let filler = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
                let connected = UnixSocket.connect(filler, to: path) == 0
                guard connected else {
                    close(filler)
                    break
                }
                fillers.append(filler)
            }
            guard !fillers.isEmpty, fillers.count < 64 else {
                throw XvfbServer.StartError(description: "the listen queue at \(path) did not fill")
            }
        }

        deinit {
            for filler in fillers { close(filler) }
            close(fd)
            unlink(path)
        }

        var address: String { "unix:path=\(path)" }
    }

    /// The demo on its own server, started after `prepare` ran against that server.
    final class Demo {
        let server: XvfbServer
        let probe: ServerProbe
        let program: ProgramProcess

        init(environment: [String: String], prepare: (ServerProbe) -> Void = { _ in }) throws {
            server = try XvfbServer(width: 1280, height: 800)
            probe = try ServerProbe(display: server.display)
            prepare(probe)
            // In-process tests set NO_AT_BRIDGE=1 in this process's environment; the demo here
            // must look for the accessibility bus whatever ran before.
            program = try ProgramProcess(
                "tooltip-demo", arguments: ["--scene", "sample"], display: server.display,
                environment: ["NO_AT_BRIDGE": ""].merging(environment) { $1 })
            let probe = probe
            let program = program
            let mapped = { !program.windows.isEmpty && program.windows.allSatisfy { probe.info($0)?.isMapped == true } }
            guard program.waitForView("buy-button") != nil, wait(timeout: 10, mapped)
            else { throw XvfbServer.StartError(description: "the demo did not start: \(program.standardError)") }
        }

        deinit {
            program.stop()
            server.stop()
        }

        /// Whether hovering the Buy button shows its tooltip within `timeout` (its delay is
        /// about half a second).
        func hoverShowsTheTooltip(timeout: TimeInterval = 3) -> Bool {
            guard let buy = program.frames()["buy-button"] else { return false }
            probe.movePointer(to: 5, 5)
            _ = wait(timeout: 2) { probe.mappedPopups().isEmpty }
            probe.movePointer(to: buy.midX, buy.midY)
            return wait(timeout: timeout) {
                probe.mappedPopups().contains { probe.string($0.id, "_NET_WM_NAME") == HostileBusTests.buyText }
            }
        }
    }

    /// Sets a string property of the root window, as at-spi-bus-launcher sets `AT_SPI_BUS`.
    static func setRootString(_ probe: ServerProbe, _ name: String, _ value: String) {
        let bytes = Array(value.utf8)
        XChangeProperty(
            probe.display, XDefaultRootWindow(probe.display), probe.atom(name), XA_STRING, 8, PropModeReplace, bytes,
            Int32(bytes.count))
        XSync(probe.display, 0)
    }

    /// Any X client can name an accessibility bus on the root window: one that accepts the
    /// connection and never speaks costs the program nothing.
    @Test func aSilentAccessibilityBusNamedOnTheRootWindowFreezesNothing() throws {
        let silent = try SilentSocket()
        let demo = try Demo(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]) {
            Self.setRootString($0, "AT_SPI_BUS", silent.address)
        }
        #expect(wait(timeout: 30) { silent.tookAConnection() }, "the program connected to it")
        #expect(demo.hoverShowsTheTooltip(), "the hover tooltip shows in its normal time")
        #expect(demo.program.process.isRunning)
    }

    /// Any session-bus client can own `org.a11y.Bus` and answer `GetAddress` with a bus that
    /// never speaks: the same.
    @Test func aSilentAccessibilityBusNamedOnTheSessionBusFreezesNothing() throws {
        let silent = try SilentSocket()
        let bus = try TestSessionBus()
        let client = try TestBusClient(bus: bus)
        #expect(client.command("own-a11y \(silent.address)"))
        let demo = try Demo(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(wait(timeout: 30) { silent.tookAConnection() }, "the program connected to it")
        #expect(demo.hoverShowsTheTooltip())
        #expect(demo.program.process.isRunning)
    }

    /// Any X client can name as the accessibility bus a socket whose listen queue it keeps
    /// full, where libdbus's blocking connect would wait for good: the connect is given up
    /// after half a second, with one warning, and the program runs on.
    @Test func anAccessibilityBusThatNeverAcceptsFreezesNothing() throws {
        let full = try FullSocket()
        let demo = try Demo(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]) {
            Self.setRootString($0, "AT_SPI_BUS", full.address)
        }
        #expect(wait(timeout: 30) { demo.program.standardError.contains("did not take the connection") })
        #expect(demo.hoverShowsTheTooltip(), "the hover tooltip shows in its normal time")
        #expect(demo.program.process.isRunning)
        #expect(demo.program.standardError.split(separator: "\n").count == 1, "\(demo.program.standardError)")
    }

    /// The same socket as the session bus: the program starts, and shows its window and its
    /// tooltips, half a second later at most.
    @Test func aSessionBusThatNeverAcceptsFreezesNothing() throws {
        let full = try FullSocket()
        let demo = try Demo(environment: ["DBUS_SESSION_BUS_ADDRESS": full.address])
        #expect(demo.hoverShowsTheTooltip())
        #expect(demo.program.standardError.contains("did not take the connection"), "\(demo.program.standardError)")
    }

    /// An accessibility bus address that would run a command (`unixexec:`) is not a socket's:
    /// one warning, nothing run.
    @Test func anAccessibilityBusAddressThatRunsACommandIsRefused() throws {
        let marker = NSTemporaryDirectory() + "x11ui-unixexec-\(UUID().uuidString.prefix(8))"
        defer { unlink(marker) }
        let demo = try Demo(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]) {
            Self.setRootString($0, "AT_SPI_BUS", "unixexec:path=/usr/bin/touch,argv0=touch,argv1=\(marker)")
        }
        #expect(wait(timeout: 30) { demo.program.standardError.contains("not a local socket") })
        #expect(demo.hoverShowsTheTooltip())
        #expect(!FileManager.default.fileExists(atPath: marker), "the command was not run")
        #expect(demo.program.standardError.split(separator: "\n").count == 1, "\(demo.program.standardError)")
    }

    /// The program's peak resident memory (`VmHWM`), in kB.
    static func peakKB(_ program: ProgramProcess) -> Int {
        let status = procFile("status", ofProcess: program.process.pid) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// A 50 MB signal sent to the program alone (as any client can) is never read: the
    /// connection that carried it is dropped at its header, made again, and the portal read
    /// again; one warning; the program's memory never grows by it.
    @Test func a50MBSignalIsDroppedUnread() throws {
        let bus = try TestSessionBus(maxMessageSize: 64 << 20)
        let portal = try TestPortal(["color-scheme": "uint32 1"], bus: bus)
        let client = try TestBusClient(bus: bus)
        let demo = try Demo(environment: portal.environment)
        let name = try #require(client.uniqueName(ofProcess: demo.program.process.pid))
        #expect(wait(timeout: 5) { portal.calls.count == 1 })
        let before = Self.peakKB(demo.program)
        #expect(client.command("big-signal \(name) 50000000", timeout: 60))
        #expect(demo.hoverShowsTheTooltip())
        #expect(wait(timeout: 30) { portal.calls.count == 2 }, "connected again and read again: \(portal.calls)")
        let grown = Self.peakKB(demo.program) - before
        #expect(grown < 16_384, "the peak grew by \(grown) kB")
        portal.set("color-scheme", "uint32 0")
        #expect(demo.hoverShowsTheTooltip(), "still responsive")
        let lines = demo.program.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("64 KiB"), "\(lines)")
    }

    /// The same on the accessibility bus: the 50 MB signal is never read, the connection that
    /// carried it is dropped, and the program registers again on a new one (a screen reader
    /// that was reading it finds it again); one warning, the program responsive throughout.
    @Test func a50MBSignalOnTheAccessibilityBusIsDroppedAndTheBusConnectedAgain() throws {
        let accessibility = try TestSessionBus(maxMessageSize: 64 << 20)
        let client = try TestBusClient(bus: accessibility)
        let demo = try Demo(environment: [
            "AT_SPI_BUS_ADDRESS": accessibility.address, "DBUS_SESSION_BUS_ADDRESS": "",
        ])
        let pid = demo.program.process.pid
        let first = try #require(client.uniqueName(ofProcess: pid), "the demo on the accessibility bus")
        let before = Self.peakKB(demo.program)
        #expect(client.command("big-signal \(first) 50000000", timeout: 60))
        #expect(demo.hoverShowsTheTooltip())
        var second: String?
        #expect(
            wait(timeout: 30) {
                second = client.uniqueName(ofProcess: pid, timeout: 1)
                return second != nil && second != first
            }, "connected again: \(second ?? "no connection")")
        let grown = Self.peakKB(demo.program) - before
        #expect(grown < 16_384, "the peak grew by \(grown) kB")
        #expect(demo.hoverShowsTheTooltip(), "still responsive")
        let lines = demo.program.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("accessibility bus") && lines[0].contains("64 KiB"), "\(lines)")
    }

    /// A portal whose answers are 10 MB each: never read, and the program connects again at
    /// a growing delay (one, two, four seconds…), with one warning in all, its memory flat.
    @Test func tenMegabytePortalAnswersAreDroppedUnread() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1"], options: ["--pad", "10000000"])
        let demo = try Demo(environment: portal.environment)
        #expect(wait(timeout: 30) { portal.calls.count >= 3 }, "read at start, then at 1 s and 2 s later")
        #expect(Self.peakKB(demo.program) < 200_000, "\(Self.peakKB(demo.program)) kB")
        #expect(demo.hoverShowsTheTooltip())
        #expect(portal.calls.count <= 4, "no storm of readings: \(portal.calls)")
        let lines = demo.program.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(lines)")
    }

    /// A client that owns no name sends `SettingChanged` to the program alone (no match rule
    /// filters a signal sent to one connection): it is not the portal, and changes nothing;
    /// the portal's own signal still does.
    @Test func aSettingChangedFromAnyoneButThePortalChangesNothing() throws {
        let portal = try TestPortal(["color-scheme": "uint32 0"])
        let client = try TestBusClient(bus: portal.bus)
        let session = try ProgramSession(
            arguments: ["--scene", "sample"], readyView: "buy-button", environment: portal.environment)
        let name = try #require(client.uniqueName(ofProcess: session.program.process.pid))
        let light: UInt32 = 0xf2f2f7
        let corner = { () -> UInt32? in
            guard let id = session.program.windows.first, let frame = session.probe.info(id)?.frame else { return nil }
            return session.probe.pixel(frame.x + 2, frame.y + 2)
        }
        #expect(wait(timeout: 5) { portal.calls.count == 1 && corner() == light })
        #expect(client.command("setting-changed \(name) org.freedesktop.appearance color-scheme uint32 1"))
        #expect(client.command("setting-changed \(name) org.freedesktop.appearance contrast uint32 1"))
        #expect(holds(for: 0.5) { corner() == light }, "the forged signals changed nothing")
        portal.set("color-scheme", "uint32 1")
        #expect(wait(timeout: 3) { corner() == 0x1c1c1e }, "the portal's own signal is taken")
    }

    /// 100,000 `NameOwnerChanged` of the portal's name from a client, not the bus: no reading
    /// is asked for any of them, and the program stays responsive.
    @Test func forgedNameOwnerChangesAskForNoReading() throws {
        let portal = try TestPortal(["color-scheme": "uint32 1"])
        let client = try TestBusClient(bus: portal.bus)
        let demo = try Demo(environment: portal.environment)
        let name = try #require(client.uniqueName(ofProcess: demo.program.process.pid))
        #expect(wait(timeout: 5) { portal.calls.count == 1 })
        #expect(client.command("name-owner-changed \(name) 100000", timeout: 120))
        #expect(demo.hoverShowsTheTooltip(timeout: 10))
        #expect(portal.calls.count == 1, "\(portal.calls.count) readings")
        #expect(demo.program.standardError.isEmpty, "\(demo.program.standardError)")
    }
}
