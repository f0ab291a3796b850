import CX11
import Foundation
import Testing
import X11TestSupport

/// A newcomer's package: the README's `Package.swift` and first program, in a separate SwiftPM
/// package that depends on this one by path, built without a warning and run on Xvfb.
///
/// The package and its build folder stay under `.build/consumer-package`, so later runs only
/// rebuild what changed (the first build compiles X11UI once more, for the consumer).
@Suite(.serialized)
struct ConsumerPackageTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The body of the first ```swift (or other `language`) block after `heading` in the README.
    func readmeBlock(after heading: String, language: String = "swift") throws -> String {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: heading))
        let start = try #require(readme.range(of: "```\(language)\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    /// Where the package and its builds are.
    var work: URL { root.appendingPathComponent(".build/consumer-package") }
    var package: URL { work.appendingPathComponent("Shop") }

    /// Writes the newcomer's package from the README, beside a clone named X11UI.
    func writePackage() throws {
        let files = FileManager.default
        try files.createDirectory(at: package.appendingPathComponent("Sources/Shop"), withIntermediateDirectories: true)
        // The clone as a newcomer has it: a folder named X11UI (a path dependency's identity
        // is its folder's name) beside their package.
        let clone = work.appendingPathComponent("X11UI")
        if (try? files.destinationOfSymbolicLink(atPath: clone.path)) == nil {
            try files.createSymbolicLink(at: clone, withDestinationURL: root)
        }
        try readmeBlock(after: "### Depending on X11UI").write(
            to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try readmeBlock(after: "## A first program").write(
            to: package.appendingPathComponent("Sources/Shop/main.swift"), atomically: true, encoding: .utf8)
        // The README's view that draws compiles as written.
        try ("import X11UI\n\n" + readmeBlock(after: "### Views that draw")).write(
            to: package.appendingPathComponent("Sources/Shop/Meter.swift"), atomically: true, encoding: .utf8)
        // An embedder's Xlib comes with X11UI: `import CX11` needs no other dependency.
        try """
        import CX11

        /// The display a program would open, as Xlib names it.
        func defaultDisplayName() -> String { String(cString: XDisplayName(nil)) }

        """.write(to: package.appendingPathComponent("Sources/Shop/Xlib.swift"), atomically: true, encoding: .utf8)

    }

    @Test(.timeLimit(.minutes(10)))
    func theReadmesFirstProgramBuildsAndRunsInItsOwnPackage() throws {
        try writePackage()
        let log = work.appendingPathComponent("build.log").path
        try? FileManager.default.removeItem(atPath: log)
        let build = try ChildProcess(
            "/usr/bin/env",
            [
                "swift", "build", "--package-path", package.path, "--scratch-path",
                work.appendingPathComponent("build").path, "-j", "2",
            ], stdout: .file(log), stderr: .file(log))
        let status = build.wait(timeout: 540)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output)")
        // No warning from the consumer's code (X11UI's own files are not the newcomer's).
        let warnings = output.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("/Shop/") }
        #expect(warnings.isEmpty, "\(warnings)")
        guard status == 0 else { return }
        try runShop(work.appendingPathComponent("build/debug/Shop").path)
    }

    /// Runs the built program: the Shop window maps, with its tooltips' images found, and the
    /// window manager's close ends `app.run()`; nothing is logged. Returns its resident set
    /// (KB) once its window is up.
    @discardableResult
    func runShop(_ executable: String) throws -> Int {
        let files = FileManager.default
        let server = try XvfbServer()
        defer { server.stop() }
        let probe = try ServerProbe(display: server.display)
        let errors = work.appendingPathComponent("run.log").path
        try? files.removeItem(atPath: errors)
        let shop = try ChildProcess(
            executable, [],
            environment: ["DISPLAY": server.display, "PATH": "/usr/bin:/bin"], stdout: .file(errors),
            stderr: .file(errors))
        defer { shop.stop() }
        var window: ServerProbe.WindowInfo?
        #expect(
            wait(timeout: 10) {
                window = probe.window(named: "Shop")
                return window?.isMapped == true
            })
        let shopWindow = try #require(window)
        let status = procFile("status", ofProcess: shop.pid) ?? ""
        let resident =
            status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = shopWindow.id
        event.xclient.message_type = probe.atom("WM_PROTOCOLS")
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(probe.atom("WM_DELETE_WINDOW"))
        XSendEvent(probe.display, shopWindow.id, 0, 0, &event)
        probe.sync()
        #expect(shop.wait(timeout: 5) == 0)
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(!stderr.contains("X11UI:"), "\(stderr)")
        return resident
    }

    /// The README's release build of the package (`scripts/release-flags.sh`) is linked as
    /// X11UI's own installed programs are: no shared Swift, C++ or libgcc runtime, packed
    /// relocations, X11UI's start-up code in the recorded order; and it runs.
    @Test(.timeLimit(.minutes(20)))
    func theReadmesReleaseBuildIsLinkedAsTheInstalledDemoIs() throws {
        try writePackage()
        let command = try readmeBlock(after: "**Release builds.**", language: "sh")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(command.hasPrefix("swift build -c release $(../X11UI/scripts/release-flags.sh)"), "\(command)")
        let scratch = work.appendingPathComponent("release-build").path
        let log = work.appendingPathComponent("release-build.log").path
        try? FileManager.default.removeItem(atPath: log)
        // Run as the README says, in the package's folder beside the clone.
        let build = try ChildProcess(
            "/bin/sh", ["-c", "cd '\(package.path)' && \(command) --scratch-path '\(scratch)' -j 2"],
            stdout: .file(log), stderr: .file(log))
        let status = build.wait(timeout: 1_140)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(output)")
        guard status == 0 else { return }
        let executable = scratch + "/release/Shop"

        let dynamic = try run("/usr/bin/readelf", ["-d", "-W", executable])
        let needed = dynamic.split(separator: "\n").filter { $0.contains("(NEEDED)") }.joined(separator: "\n")
        for runtime in ["libswiftCore", "libswift_Concurrency", "libstdc++", "libgcc_s", "libFoundation"] {
            #expect(!needed.contains(runtime), "\(runtime) in\n\(needed)")
        }
        #expect(needed.contains("libX11"))
        #expect(dynamic.contains("(RELR)"), "packed relative relocations")

        // The start-up functions X11UI lists come in the executable in the list's order: X11UI's
        // own, that is. A specialization or metadata accessor of a standard library type for
        // X11UI's types (`$ss...5X11UI...`) is emitted by every module that uses it, the
        // linker keeps one copy (maybe the consumer's, where that module's code sits), and a
        // merged function (`...Tm`) is one module's choice.
        let order = try String(
            contentsOf: root.appendingPathComponent("scripts/startup-order.txt"), encoding: .utf8
        ).split(separator: "\n").filter { $0.hasPrefix("$s5X11UI") && !$0.hasSuffix("Tm") }
        var addresses: [String: UInt] = [:]
        for line in try run("/usr/bin/nm", [executable]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, let address = UInt(fields[0], radix: 16) { addresses[String(fields[2])] = address }
        }
        let placed = order.compactMap { addresses[String($0)] }.prefix(200)
        #expect(placed.count >= 100, "\(placed.count) of X11UI's listed functions found")
        #expect(zip(placed, placed.dropFirst()).filter { $0 >= $1 }.count <= placed.count / 20, "in order")

        // Every function has a section of its own, the standard library's split out of its
        // objects (scripts/split-stdlib.sh: its private functions get symbols), so all the
        // functions listed lie together: the demo's within 0.9 MB, where they were spread over
        // 5.7 MB when the library's internal functions shared one section.
        #expect(addresses.keys.contains { $0.hasPrefix("Swift.private.") }, "the split standard library")
        let listed = try String(
            contentsOf: root.appendingPathComponent("scripts/startup-order.txt"), encoding: .utf8
        ).split(separator: "\n").compactMap { addresses[String($0)] }
        if let low = listed.min(), let high = listed.max() {
            #expect(high - low < 0x18_0000, "\(listed.count) listed functions over \((high - low) / 1024) KB")
        }

        let resident = try runShop(executable)
        print("Shop, release flags: \(resident) KB resident with its window up")
    }

    /// A tool's standard output.
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let file = work.appendingPathComponent("tool.out").path
        try? FileManager.default.removeItem(atPath: file)
        let child = try ChildProcess(tool, arguments, stdout: .file(file))
        #expect(child.wait(timeout: 60) == 0, "\(tool) \(arguments)")
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }
}
