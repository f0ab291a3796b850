import CX11
import Foundation

/// A private Xvfb with an X11UI program on it and a probe looking from outside; torn down in
/// the right order (program, probe, server) when released.
public final class ProgramSession: @unchecked Sendable {
    public let server: XvfbServer
    public let probe: ServerProbe
    public let program: ProgramProcess
    private var compositor: ChildProcess?
    /// The desktop's settings manager, when `xsettings` started one.
    public let settingsManager: XSettingsManager?
    /// The identified views of the program's window, from its inspector.
    public private(set) var frames: [String: Frame] = [:]

    /// Starts a server (with a compositor when `composited`, and a settings manager with
    /// `xsettings` when given, and X resources when given, as `"*browseTimeout: 0\n"`), then
    /// the program, and waits until its window lists `readyView`.
    public init(
        _ program: String = "tooltip-demo", arguments: [String] = [], readyView: String,
        alsoReady: [String] = [], composited: Bool = false,
        width: Int = 1280, height: Int = 800, serverArguments: [String] = [], environment: [String: String] = [:],
        xsettings: [String: XSettingsManager.Value]? = nil, resources: String? = nil,
        stdout: ChildProcess.Output = .null
    ) throws {
        server = try XvfbServer(width: width, height: height, extraArguments: serverArguments)
        let display = server.display
        settingsManager = try xsettings.map { try XSettingsManager(display: display, settings: $0) }
        if composited {
            compositor = try ChildProcess(
                "/usr/bin/xcompmgr", ["-d", server.display], environment: ["DISPLAY": server.display])
        }
        let probe = try ServerProbe(display: server.display)
        self.probe = probe
        if let resources { probe.setResources(resources) }
        if composited {
            _ = wait(timeout: 5) { probe.selectionOwner("_NET_WM_CM_S0") != 0 }
        }
        self.program = try ProgramProcess(
            program, arguments: arguments, display: server.display, environment: environment, stdout: stdout)
        guard self.program.waitForView(readyView) != nil, alsoReady.allSatisfy({ self.program.waitForView($0) != nil })
        else {
            throw XvfbServer.StartError(
                description: "\(program) did not show \(readyView): \(self.program.standardError)")
        }
        // A layout is written before the window maps: wait until the server shows every window,
        // or pointer events could reach the root window instead.
        let program = self.program
        guard wait(timeout: 10, { program.windows.allSatisfy { probe.info($0)?.isMapped == true } }) else {
            throw XvfbServer.StartError(description: "\(program) windows never mapped")
        }
        // Each window has handled what the server sent it up to its map (its configuration, its
        // first exposure): two pings answered, the second in a later turn of the program's loop
        // than the first, so that the turn that handled those events is over (its drawing sent,
        // its layout written).
        for window in program.windows where probe.ping(window) == false || probe.ping(window) == false {
            throw XvfbServer.StartError(description: "\(program) did not answer a ping on \(window)")
        }
        frames = program.frames()
        park()
    }

    deinit {
        program.stop()
        compositor?.stop()
        settingsManager?.stop()
        server.stop()
    }

    /// Reads the frames again (after a relayout).
    public func refreshFrames() { frames = program.frames() }

    /// The program's memory map (`/proc/PID/maps`: the libraries it has loaded); nil when it
    /// cannot be read.
    public func memoryMap() -> String? {
        X11TestSupport.memoryMap(ofProcess: program.process.pid)
    }

    /// A view the program's inspector did not list.
    public struct MissingView: Error, CustomStringConvertible {
        public let description: String
    }

    /// The frame of an identified view.
    public func frame(_ id: String) throws -> Frame {
        guard let frame = frames[id] else { throw MissingView(description: "no view \(id) in \(frames.keys.sorted())") }
        return frame
    }

    /// Moves the pointer out of the way (the screen's right edge).
    public func park() {
        probe.movePointer(to: server.width - 1, server.height / 2)
    }

    /// The topmost mapped popup (the tooltip), waiting up to `timeout` for one.
    public func waitForToolTip(timeout: TimeInterval = 3) -> ServerProbe.WindowInfo? {
        var tip: ServerProbe.WindowInfo?
        wait(timeout: timeout) {
            tip = probe.mappedPopups().last
            return tip != nil
        }
        return tip
    }

    /// Waits until a tooltip named `text` is mapped.
    public func waitForToolTip(named text: String, timeout: TimeInterval = 3) -> ServerProbe.WindowInfo? {
        var tip: ServerProbe.WindowInfo?
        wait(timeout: timeout) {
            tip = probe.mappedPopups().last { probe.string($0.id, "_NET_WM_NAME") == text }
            return tip != nil
        }
        return tip
    }

    /// Waits until no popup is mapped.
    @discardableResult
    public func waitForNoToolTip(timeout: TimeInterval = 3) -> Bool {
        wait(timeout: timeout) { probe.mappedPopups().isEmpty }
    }

    /// The name of the mapped tooltip, if any.
    public var toolTipText: String? {
        probe.mappedPopups().last.flatMap { probe.string($0.id, "_NET_WM_NAME") }
    }
}

extension ServerProbe.WindowInfo {
    /// The frame as a `Frame`.
    public var rect: Frame { Frame(x: frame.x, y: frame.y, width: frame.width, height: frame.height) }
}

/// A process's memory map (`/proc/PID/maps`, this process's when `pid` is nil: the libraries
/// it has loaded), read to its end; nil when it cannot be read or lists no libX11 (every
/// process the tests look at has Xlib).
///
/// /proc files report no size and hand out a page or so per read; a reader that stops at the
/// first short read (`String(contentsOfFile:)` does) sees only the first 4 KB, which under
/// AddressSanitizer is its shadow memory's mappings, not the libraries.
public func memoryMap(ofProcess pid: Int32? = nil) -> String? {
    guard let maps = procFile("maps", ofProcess: pid) else { return nil }
    return maps.contains("libX11") ? maps : nil
}

/// A file of a process's /proc directory (`maps`, `smaps`, `status`), read to its end; nil
/// when it cannot be read.
public func procFile(_ name: String, ofProcess pid: Int32? = nil) -> String? {
    let path = pid.map { "/proc/\($0)/\(name)" } ?? "/proc/self/\(name)"
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? file.close() }
    return (try? file.readToEnd()).map { String(decoding: $0, as: UTF8.self) }
}
