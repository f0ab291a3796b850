import CX11
import Foundation
import Testing
import X11TestSupport
import X11UI

/// `make install` into a temporary DESTDIR: the tree listed and validated, the demo started
/// from there as a launcher starts it, and `make uninstall`.
@Suite(.serialized)
@MainActor
struct InstallTests {
    /// The package's root folder (this file is Tests/IntegrationTests/InstallTests.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let iconSizes = [16, 22, 24, 32, 48, 64, 128, 256]

    /// Runs a program to its end; returns its exit status and what it wrote.
    static func run(
        _ path: String, _ arguments: [String], timeout: TimeInterval = 60
    ) throws -> (
        status: Int32?, output: String
    ) {
        let child = try ChildProcess(path, arguments, stdout: .pipe, stderr: .pipe)
        var output = ""
        let deadline = Date().addingTimeInterval(timeout)
        while child.isRunning && Date() < deadline {
            output += ChildProcess.read(child.stdoutFD, timeout: 0.05) + ChildProcess.read(child.stderrFD)
        }
        let status = child.wait(timeout: 1)
        output += ChildProcess.read(child.stdoutFD) + ChildProcess.read(child.stderrFD)
        return (status, output)
    }

    /// Runs `make target` in the package with PREFIX=/usr, DESTDIR and the debug demo.
    static func make(_ target: String, destdir: String) throws -> (status: Int32?, output: String) {
        try run(
            "/usr/bin/make",
            [
                "--no-print-directory", "-C", packageRoot, target, "PREFIX=/usr", "DESTDIR=\(destdir)",
                "INSTALL_BINARY=\(ProgramProcess.executablePath("tooltip-demo"))",
            ])
    }

    /// Every file under `root`, relative to it, sorted.
    static func files(under root: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// The width and height in a PNG file's header.
    static func pngSize(_ path: String) -> (Int, Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 24,
            data.prefix(8) == Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        else { return nil }
        let bytes = [UInt8](data[16..<24])
        let width = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        return (width, height)
    }

    /// The `key=value` lines of the desktop entry's main group.
    static func desktopEntry(_ path: String) throws -> [String: String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var entry: [String: String] = [:]
        var inMain = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") { inMain = line == "[Desktop Entry]" }
            guard inMain, let equals = line.firstIndex(of: "=") else { continue }
            entry[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return entry
    }

    @Test func installValidateRunAndUninstall() throws {
        let destdir = NSTemporaryDirectory() + "x11ui-install-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let installed = try Self.make("install-files", destdir: destdir)
        #expect(installed.status == 0, "\(installed.output)")

        // The tree, exactly.
        let assets = try FileManager.default.contentsOfDirectory(atPath: Self.packageRoot + "/assets")
            .filter { $0.hasSuffix(".png") }
        var expected =
            ["usr/bin/tooltip-demo", "usr/share/applications/tooltip-demo.desktop"]
            + Self.iconSizes.map { "usr/share/icons/hicolor/\($0)x\($0)/apps/tooltip-demo.png" }
            + ["usr/share/icons/hicolor/scalable/apps/tooltip-demo.svg"]
            + assets.map { "usr/share/tooltip-demo/assets/\($0)" }
        expected.sort()
        #expect(Self.files(under: destdir) == expected)
        #expect(assets.contains("cart.png") && assets.contains("tooltip-demo-32.png"))
        #expect(FileManager.default.isExecutableFile(atPath: destdir + "/usr/bin/tooltip-demo"))

        // Each theme icon is the size its folder says; the scalable one is an SVG document.
        for size in Self.iconSizes {
            let size2 = Self.pngSize(destdir + "/usr/share/icons/hicolor/\(size)x\(size)/apps/tooltip-demo.png")
            #expect(size2.map { "\($0.0)x\($0.1)" } == "\(size)x\(size)")
        }
        let svg = try String(
            contentsOfFile: destdir + "/usr/share/icons/hicolor/scalable/apps/tooltip-demo.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg") && svg.contains("viewBox=\"0 0 256 256\""))

        // The desktop entry passes desktop-file-validate without a word, and says what it must.
        let entryPath = destdir + "/usr/share/applications/tooltip-demo.desktop"
        let validation = try Self.run("/usr/bin/desktop-file-validate", [entryPath])
        #expect(validation.status == 0 && validation.output.isEmpty, "\(validation.output)")
        let entry = try Self.desktopEntry(entryPath)
        #expect(entry["Type"] == "Application")
        #expect(entry["Exec"] == "/usr/bin/tooltip-demo")
        #expect(entry["Icon"] == "tooltip-demo")
        #expect(entry["StartupNotify"] == "true")
        #expect(entry["Name"]?.isEmpty == false && entry["Comment"]?.isEmpty == false)
        #expect(entry["Categories"]?.hasSuffix(";") == true)

        try runInstalledDemo(destdir: destdir, startupWMClass: try #require(entry["StartupWMClass"]))

        // Uninstalling removes every file it installed.
        let removed = try Self.make("uninstall", destdir: destdir)
        #expect(removed.status == 0, "\(removed.output)")
        #expect(Self.files(under: destdir) == [])
    }

    /// Starts the installed demo from `/` as a launcher does (a startup ID in its environment)
    /// and checks that it reads the installed assets, matches its desktop entry and completes
    /// the launch.
    func runInstalledDemo(destdir: String, startupWMClass: String) throws {
        // Mark the installed copy of one asset, so that the window icon shows which folder the
        // demo read (the source tree's copy would also be found, after the installed one).
        let marker: UInt32 = 0xff12_3456
        let markedIcon = Image(size: Size(width: 16, height: 16)) {
            $0.fill(Rect(x: 0, y: 0, width: 16, height: 16), color: Color(rgb: 0x123456))
        }
        try markedIcon.writePNG(to: destdir + "/usr/share/tooltip-demo/assets/tooltip-demo-16.png")

        let server = try XvfbServer(width: 1280, height: 800)
        defer { server.stop() }
        let probe = try ServerProbe(display: server.display)
        XSelectInput(probe.display, probe.root, PropertyChangeMask)
        probe.sync()
        let startupID = "x11ui-test-launcher-\(getpid())-tooltip-demo_TIME777"
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = server.display
        environment["DESKTOP_STARTUP_ID"] = startupID
        environment["X11UI_ASSETS"] = nil
        let demo = try ChildProcess(
            "/usr/bin/env", ["-C", "/", destdir + "/usr/bin/tooltip-demo"], environment: environment, stdout: .null,
            stderr: .pipe)
        defer { demo.stop() }

        var window: ServerProbe.WindowInfo?
        #expect(
            wait(timeout: 20) {
                window = probe.topLevelWindows().first {
                    $0.isMapped && probe.longs($0.id, "_NET_WM_PID") == [Int(demo.pid)]
                }
                return window != nil
            }, "the installed demo showed no window: \(ChildProcess.read(demo.stderrFD))")
        let id = try #require(window?.id)
        // The class the desktop entry names, so a taskbar groups the window under its entry.
        #expect(probe.string(id, "WM_CLASS") == "tooltip-demo\0\(startupWMClass)\0")
        // The icon came from the installed assets (the marked one) at every size.
        // (Written once the window is painted: the first windows' icons wait for that.)
        var iconProperty: [Int]?
        #expect(
            wait(timeout: 10) {
                iconProperty = probe.longs(id, "_NET_WM_ICON"); return iconProperty != nil
            })
        let icon = DesktopAppTests.iconEntries(try #require(iconProperty))
        #expect(icon.map(\.width) == [16, 24, 32, 48, 64, 128])
        #expect(icon.first?.pixels.allSatisfy { $0 == marker } == true)
        // The launch: its ID on the window, its time as the user time, and `remove` broadcast.
        #expect(probe.string(id, "_NET_STARTUP_ID") == startupID)
        #expect(probe.longs(id, "_NET_WM_USER_TIME") == [777])
        var events: [XClientMessageEvent] = []
        #expect(
            wait(timeout: 5) {
                events += receivedClientMessages(probe)
                return !startupMessagesFor(probe, events).isEmpty
            })
        #expect(startupMessagesFor(probe, events) == ["remove: ID=\(startupID)"])
        // Nothing went missing: no warnings at all.
        let errors = ChildProcess.read(demo.stderrFD, timeout: 0.2)
        #expect(errors.isEmpty, "\(errors)")
    }
}
