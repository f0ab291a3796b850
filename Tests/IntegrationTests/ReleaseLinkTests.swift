import Foundation
import Testing
import X11TestSupport

/// X11UI's own release link (tools/release-link), the optional one: a consumer's package linked
/// with it as its README says, and the fallback when the standard library cannot be split.
///
/// `make test` leaves these out (a fragile link must not stop the two commands); CI runs them
/// with `make release-link-test`.
@Suite(.serialized)
struct ReleaseLinkTests {
    let consumer = ConsumerPackage(folder: "release-link-package")

    /// The flags' script, run as a shell command would: its standard output and error.
    func flags(environment: [String: String] = [:]) throws -> (flags: String, messages: String) {
        let out = consumer.work.appendingPathComponent("flags.out").path
        let err = consumer.work.appendingPathComponent("flags.err").path
        try FileManager.default.createDirectory(at: consumer.work, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let script = consumer.root.appendingPathComponent("tools/release-link/release-flags.sh").path
        let child = try ChildProcess(script, [], environment: env, stdout: .file(out), stderr: .file(err))
        #expect(child.wait(timeout: 600) == 0)
        return (
            (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        )
    }

    /// The package linked as tools/release-link/README.md says, as X11UI's installed programs
    /// are: no shared Swift, C++ or libgcc runtime, packed relocations, X11UI's start-up code in
    /// the recorded order, the standard library split; and it runs.
    @Test(.timeLimit(.minutes(20)))
    func theConsumersPackageIsLinkedAsTheInstalledDemoIs() throws {
        try consumer.write()
        let command = try consumer.line(
            startingWith: "swift build -c release $(", in: "tools/release-link/README.md")
        #expect(command == "swift build -c release $(../X11UI/tools/release-link/release-flags.sh)", "\(command)")
        let (status, output) = try consumer.build(command, scratch: "release-build", timeout: 1_140)
        #expect(status == 0, "\(output)")
        guard status == 0 else { return }
        let executable = consumer.work.appendingPathComponent("release-build/release/Shop").path

        let needed = try consumer.neededLibraries(executable)
        for runtime in ["libswiftCore", "libswift_Concurrency", "libstdc++", "libgcc_s", "libFoundation"] {
            #expect(!needed.contains(runtime), "\(runtime) in\n\(needed)")
        }
        #expect(needed.contains("libX11"))
        let dynamic = try consumer.run("/usr/bin/readelf", ["-d", "-W", executable])
        #expect(dynamic.contains("(RELR)"), "packed relative relocations")

        // The start-up functions X11UI lists come in the executable in the list's order: X11UI's
        // own, that is. A specialization or metadata accessor of a standard library type for
        // X11UI's types (`$ss...5X11UI...`) is emitted by every module that uses it, the
        // linker keeps one copy (maybe the consumer's, where that module's code sits), and a
        // merged function (`...Tm`) is one module's choice.
        let list = try consumer.document("tools/release-link/startup-order.txt").split(separator: "\n")
        let order = list.filter { $0.hasPrefix("$s5X11UI") && !$0.hasSuffix("Tm") }
        var addresses: [String: UInt] = [:]
        for line in try consumer.run("/usr/bin/nm", [executable]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, let address = UInt(fields[0], radix: 16) { addresses[String(fields[2])] = address }
        }
        let placed = order.compactMap { addresses[String($0)] }.prefix(200)
        #expect(placed.count >= 100, "\(placed.count) of X11UI's listed functions found")
        #expect(zip(placed, placed.dropFirst()).filter { $0 >= $1 }.count <= placed.count / 20, "in order")

        // Every function has a section of its own, the standard library's split out of its
        // objects (its private functions get symbols), so all the functions listed lie
        // together, where they were spread over 5.7 MB when the library's internal functions
        // shared one section.
        #expect(addresses.keys.contains { $0.hasPrefix("Swift.private.") }, "the split standard library")
        let listed = list.compactMap { addresses[String($0)] }
        if let low = listed.min(), let high = listed.max() {
            #expect(high - low < 0x18_0000, "\(listed.count) listed functions over \((high - low) / 1024) KB")
        }

        let resident = try consumer.runShop(executable)
        print("Shop, the release link: \(resident) KB resident with its window up")
    }

    /// Where the split cannot be made (another architecture or toolchain; here asked for with
    /// X11UI_RELEASE_SPLIT=0), the script says so in one line and leaves its linker out, and
    /// the remaining flags build a program that runs.
    @Test(.timeLimit(.minutes(10)))
    func withoutTheSplitTheFlagsStillBuildAProgramThatRuns() throws {
        let (flags, messages) = try flags(environment: ["X11UI_RELEASE_SPLIT": "0"])
        #expect(messages.split(separator: "\n").count == 1, "\(messages)")
        #expect(messages.contains("not split"), "\(messages)")
        #expect(!flags.contains("--ld-path"), "\(flags)")
        #expect(flags.contains("--static-swift-stdlib"), "\(flags)")

        let package = consumer.work.appendingPathComponent("Fallback")
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("Sources/Fallback"), withIntermediateDirectories: true)
        try """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(name: "Fallback", targets: [.executableTarget(name: "Fallback")])

        """.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try """
        let words = ["the", "fallback", "runs"].map { $0.uppercased() }
        print(words.joined(separator: " "), [3, 1, 2].sorted())

        """.write(to: package.appendingPathComponent("Sources/Fallback/main.swift"), atomically: true, encoding: .utf8)
        let log = consumer.work.appendingPathComponent("fallback.log").path
        let scratch = consumer.work.appendingPathComponent("fallback-build").path
        let build = try ChildProcess(
            "/bin/sh",
            [
                "-c",
                "cd '\(package.path)' && swift build -c release \(flags.trimmingCharacters(in: .whitespacesAndNewlines)) --scratch-path '\(scratch)'",
            ], stdout: .file(log), stderr: .file(log))
        let status = build.wait(timeout: 540)
        #expect(status == 0, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        guard status == 0 else { return }
        let output = try consumer.run(scratch + "/release/Fallback", [])
        #expect(output == "THE FALLBACK RUNS [1, 2, 3]\n", "\(output)")
        #expect(!(try consumer.neededLibraries(scratch + "/release/Fallback")).contains("libswiftCore"))
    }
}
