import CX11
import Foundation
import Testing
import X11TestSupport

/// A newcomer's package: the README's `Package.swift` and first program, in a separate SwiftPM
/// package that depends on this one by path, as `../X11UI` beside it.
///
/// The package and its builds stay under `.build/<folder>`, so later runs only rebuild what
/// changed (the first build compiles X11UI once more, for the consumer). Each suite has a
/// folder of its own, so suites running at once do not share one.
struct ConsumerPackage {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let work: URL

    init(folder: String) {
        work = root.appendingPathComponent(".build/\(folder)")
    }

    var package: URL { work.appendingPathComponent("Shop") }

    /// The text of a Markdown file of the repository.
    func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The body of the first ```swift (or other `language`) block after `heading` in a document.
    func block(after heading: String, language: String = "swift", in path: String = "README.md") throws -> String {
        let text = try document(path)
        let section = try #require(text.range(of: heading), "\(heading) in \(path)")
        let start = try #require(text.range(of: "```\(language)\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "```\n", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The first line of a document that starts with `prefix` (a command in a code block).
    func line(startingWith prefix: String, in path: String) throws -> String {
        let text = try document(path)
        return try #require(
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix(prefix) }, "a line starting with \(prefix) in \(path)")
    }

    /// Writes the newcomer's package from the README, beside a clone named X11UI.
    func write() throws {
        let files = FileManager.default
        try files.createDirectory(at: package.appendingPathComponent("Sources/Shop"), withIntermediateDirectories: true)
        // The clone as a newcomer has it: a folder named X11UI (a path dependency's identity
        // is its folder's name) beside their package.
        let clone = work.appendingPathComponent("X11UI")
        if (try? files.destinationOfSymbolicLink(atPath: clone.path)) == nil {
            try files.createSymbolicLink(at: clone, withDestinationURL: root)
        }
        try block(after: "### Depending on X11UI").write(
            to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try block(after: "## A first program").write(
            to: package.appendingPathComponent("Sources/Shop/main.swift"), atomically: true, encoding: .utf8)
        // The view that draws, from the article that shows it, compiles as written.
        try ("import X11UI\n\n" + block(after: "### Views that draw", in: ConsumerPackage.viewsThatDraw)).write(
            to: package.appendingPathComponent("Sources/Shop/Meter.swift"), atomically: true, encoding: .utf8)
        // An embedder's Xlib comes with X11UI: `import CX11` needs no other dependency.
        try """
        import CX11

        /// The display a program would open, as Xlib names it.
        func defaultDisplayName() -> String { String(cString: XDisplayName(nil)) }

        """.write(to: package.appendingPathComponent("Sources/Shop/Xlib.swift"), atomically: true, encoding: .utf8)
    }

    /// The document whose "Views that draw" block the package compiles.
    static let viewsThatDraw = "README.md"

    /// Builds the package with a shell command run in its folder (`swift build ...`, as a
    /// document gives it) into `scratch`; the exit status and the build's output.
    func build(_ command: String, scratch: String, timeout: TimeInterval) throws -> (status: Int32?, output: String) {
        let log = work.appendingPathComponent("\(scratch).log").path
        try? FileManager.default.removeItem(atPath: log)
        let build = try ChildProcess(
            "/bin/sh",
            ["-c", "cd '\(package.path)' && \(command) --scratch-path '\(work.path)/\(scratch)' -j 2"],
            stdout: .file(log), stderr: .file(log))
        let status = build.wait(timeout: timeout)
        return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
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

    /// A tool's standard output.
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let file = work.appendingPathComponent("tool.out").path
        try? FileManager.default.removeItem(atPath: file)
        let child = try ChildProcess(tool, arguments, stdout: .file(file))
        #expect(child.wait(timeout: 60) == 0, "\(tool) \(arguments)")
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// The shared libraries an executable names (its `NEEDED` entries), one a line.
    func neededLibraries(_ executable: String) throws -> String {
        try run("/usr/bin/readelf", ["-d", "-W", executable]).split(separator: "\n")
            .filter { $0.contains("(NEEDED)") }.joined(separator: "\n")
    }
}
