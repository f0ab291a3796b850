import Foundation
import Testing
import X11TestSupport
import X11UI

/// Long use leaks nothing: 10,000 show/hide cycles over several interactions (text of varying length,
/// items, rich views, hover and click) leave the X server's resources for the client and the
/// process's memory flat.
///
/// The cycles run in a process of their own (an exit test): the resident set of the test
/// process is shared with the suites that run beside it, whose allocations raised it by up to
/// 3.5 MB during the cycles in loaded runs and made the memory check say nothing about X11UI.
@Suite(.serialized)
struct SoakTests {
    @Test func tenThousandShowHideCyclesLeakNothing() async {
        // The child reports what it found on standard error and exits normally; a crash fails
        // the exit expectation itself.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let failures = await MainActor.run { SoakRun.run() }
            for failure in failures { FileHandle.standardError.write(Data("soak: \(failure)\n".utf8)) }
        }
        let failures = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            .split(separator: "\n").filter { $0.hasPrefix("soak: ") }
        #expect(result != nil && failures.isEmpty, "\(failures.joined(separator: "; "))")
    }

    /// The detection the RSS check relies on must agree with the build, in both directions, or
    /// the check would be skipped (or kept) by mistake: with what `make test` and `make
    /// sanitize` say they built (X11UI_EXPECT_ASAN), and in any run with the memory the runtime
    /// maps once it runs (its shadow of the low addresses covers 0x7fff8000 on x86-64).
    @Test func theSanitizerDetectionAgreesWithTheBuild() throws {
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("libswiftCore"), "the maps were read")
        // The runtime maps its low shadow from a page below 0x7fff8000 (seen: 7fff7000-8fff7000).
        let shadow = maps.split(separator: "\n").contains { line in
            let range = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt64($0, radix: 16) }
            return range.count == 2 && range[0] <= 0x7fff_8000 && 0x7fff_8000 < range[1] && line.contains(" rw-p ")
        }
        #expect(Sanitizers.addressSanitizerActive == shadow)
        if let expected = ProcessInfo.processInfo.environment["X11UI_EXPECT_ASAN"] {
            #expect(Sanitizers.addressSanitizerActive == (expected == "1"))
        }
    }
}

/// The soak itself, in the exit test's process: the failures it finds, as lines.
@MainActor
enum SoakRun {
    static var rssKB: Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
    }

    static func run() -> [String] {
        let harness: Harness
        do { harness = try Harness() } catch { return ["no display: \(error)"] }
        var failures: [String] = []
        let short = ToolTipInteraction(defaultToolTip: "Short")
        let long = ToolTipInteraction(
            defaultToolTip: String(repeating: "A longer tooltip that wraps onto several lines. ", count: 6))
        let items = ToolTipInteraction(
            trigger: .click, items: [ToolTipItem(icon: Image.asset("heart"), title: "6"), ToolTipItem(title: "31")])
        let rich = ToolTipInteraction(trigger: .click, placement: .trailing) {
            HStack(spacing: 6) {
                Label("Rich"); Circle(color: .green, diameter: 10)
            }
        }
        var counter = 0
        let dynamic = ToolTipInteraction()
        let delegate = ScriptedDelegate { _, _ in
            counter += 1
            return ToolTipConfiguration(toolTip: "Dynamic \(counter % 97)")
        }
        dynamic.delegate = delegate
        let interactions = [short, long, items, rich, dynamic]
        let sources = interactions.map { interaction -> View in
            let view = block(90, 40)
            view.addInteraction(interaction)
            return view
        }
        let window = harness.show(
            VStack(spacing: 30, padding: 60) {
                HStack(spacing: 30) {
                    sources[0]; sources[1]; sources[2]
                }
                HStack(spacing: 30) {
                    sources[3]; sources[4]
                }
            })
        let probe = harness.probe
        func cycle(_ count: Int) {
            for i in 0..<count {
                let interaction = interactions[i % interactions.count]
                interaction.present()
                if i % 50 == 0 { harness.app.processPending() }
                interaction.dismiss()
            }
            harness.app.sync()
            harness.wait(5)
        }
        // Warm up: every kind shown once (fonts, glyphs, pixmaps made).
        cycle(500)
        let resourcesBefore = probe.resourceCounts(ofClientOwning: window.windowID)
        let rssBefore = rssKB
        cycle(10_000)
        let resourcesAfter = probe.resourceCounts(ofClientOwning: window.windowID)
        let rssAfter = rssKB
        if resourcesBefore.isEmpty { failures.append("the server reported no resources for the client") }
        for (type, count) in resourcesAfter where count > (resourcesBefore[type] ?? 0) {
            failures.append("\(type): \(resourcesBefore[type] ?? 0) → \(count)")
        }
        // Under AddressSanitizer the quarantine of freed memory grows the resident set by design
        // (see Sanitizers); memory is judged by the uninstrumented run of the same test.
        if !Sanitizers.addressSanitizerActive, rssAfter - rssBefore >= 2048 {
            failures.append("RSS grew by \(rssAfter - rssBefore) kB over 10,000 cycles (at most 2048)")
        }
        if delegate.calls <= 1000 { failures.append("the delegate was asked \(delegate.calls) times") }
        return failures
    }
}
