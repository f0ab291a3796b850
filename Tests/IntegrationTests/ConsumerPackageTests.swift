import Foundation
import Testing
import X11TestSupport

/// A newcomer's package (the README's `Package.swift` and first program, depending on this
/// package by path), built without a warning as the README says, debug and release, and run on
/// Xvfb.
@Suite(.serialized)
struct ConsumerPackageTests {
    let consumer = ConsumerPackage(folder: "consumer-package")

    @Test(.timeLimit(.minutes(10)))
    func theReadmesFirstProgramBuildsAndRunsInItsOwnPackage() throws {
        try consumer.write()
        let (status, output) = try consumer.build("swift build", scratch: "build", timeout: 540)
        #expect(status == 0, "\(output)")
        // No warning from the consumer's code (X11UI's own files are not the newcomer's).
        let warnings = output.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("/Shop/") }
        #expect(warnings.isEmpty, "\(warnings)")
        guard status == 0 else { return }
        try consumer.runShop(consumer.work.appendingPathComponent("build/debug/Shop").path)
    }

    /// The README's release build, the one it recommends: the Swift runtime linked statically
    /// (no shared Swift or Foundation library to find at run time), and it runs.
    @Test(.timeLimit(.minutes(20)))
    func theReadmesReleaseBuildLinksTheSwiftRuntimeStatically() throws {
        try consumer.write()
        let command = try consumer.line(startingWith: "swift build -c release", in: "README.md")
        #expect(command == "swift build -c release --static-swift-stdlib", "\(command)")
        let (status, output) = try consumer.build(command, scratch: "release-build", timeout: 1_140)
        #expect(status == 0, "\(output)")
        guard status == 0 else { return }
        let executable = consumer.work.appendingPathComponent("release-build/release/Shop").path
        let needed = try consumer.neededLibraries(executable)
        for runtime in ["libswiftCore", "libswift_Concurrency", "libFoundation", "libdispatch"] {
            #expect(!needed.contains(runtime), "\(runtime) in\n\(needed)")
        }
        #expect(needed.contains("libX11"))
        let resident = try consumer.runShop(executable)
        print("Shop, --static-swift-stdlib: \(resident) KB resident with its window up")
    }
}
