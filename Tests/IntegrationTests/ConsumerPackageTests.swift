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

    /// The body of the first ```swift block after `heading` in the README.
    func readmeBlock(after heading: String) throws -> String {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: heading))
        let start = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    @Test(.timeLimit(.minutes(10)))
    func theReadmesFirstProgramBuildsAndRunsInItsOwnPackage() throws {
        let files = FileManager.default
        let work = root.appendingPathComponent(".build/consumer-package")
        let package = work.appendingPathComponent("Shop")
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

        let log = work.appendingPathComponent("build.log").path
        try? files.removeItem(atPath: log)
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

        // It runs: the Shop window maps, with its tooltips' images found, and the window
        // manager's close ends `app.run()`.
        let server = try XvfbServer()
        defer { server.stop() }
        let probe = try ServerProbe(display: server.display)
        let errors = work.appendingPathComponent("run.log").path
        try? files.removeItem(atPath: errors)
        let shop = try ChildProcess(
            work.appendingPathComponent("build/debug/Shop").path, [],
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
    }
}
