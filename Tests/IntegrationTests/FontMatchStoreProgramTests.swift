import Foundation
import Testing
import X11TestSupport

/// The demo started again in the same environment opens its fonts without loading fontconfig's
/// configuration and draws the same pixels; a configuration that changes is loaded again and
/// its new choice shows.
///
/// Fontconfig says when it loads its configuration: with `FC_DEBUG=1024` it writes each file it
/// reads to standard output (here a file). The configuration is a private one
/// (`FONTCONFIG_FILE`): Debian's, and a folder of the test's own that a file is added to.
@Suite(.serialized)
struct FontMatchStoreProgramTests {
    @Test func aSecondStartLoadsNoConfigurationAndDrawsTheSameAndAChangeIsSeen() throws {
        let folder = NSTemporaryDirectory() + "x11ui-font-store-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The configuration's folders are watched: what the test writes goes elsewhere.
        let configFolder = folder + "/config/conf.d"
        try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let configuration = folder + "/config/fonts.conf"
        try """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <include>/etc/fonts/fonts.conf</include>
          <include ignore_missing="yes">\(configFolder)</include>
        </fontconfig>
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        let cache = folder + "/cache"
        var run = 0

        let storeFolder = cache + "/x11ui"
        func stored() -> String? {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: storeFolder)) ?? []
            return names.first { $0.hasPrefix("font-matches-") && !$0.hasSuffix(".tmp") }.flatMap {
                try? String(contentsOfFile: storeFolder + "/" + $0, encoding: .utf8)
            }
        }

        /// Starts the sample scene; returns whether fontconfig wrote that it loaded its
        /// configuration while the program opened its fonts, and the window's pixels once drawn
        /// (the same in two reads in a row). With `until`, the program runs until that holds
        /// too (the answers are written after the first paint: under AddressSanitizer, after the
        /// pixels have settled).
        func start(until condition: (() -> Bool)? = nil) throws -> (loadedConfiguration: Bool, pixels: [UInt32]) {
            run += 1
            let output = folder + "/out/stdout-\(run)"
            let session = try ProgramSession(
                arguments: ["--scene", "sample"], readyView: "text-view",
                environment: ["FONTCONFIG_FILE": configuration, "XDG_CACHE_HOME": cache, "FC_DEBUG": "1024"],
                stdout: .file(output))
            let window = try #require(session.program.windows.first)
            let frame = try #require(session.probe.info(window)).frame
            var pixels: [UInt32] = []
            let stable = wait(timeout: 10) {
                let now = session.probe.windowPixels(window, width: frame.width, height: frame.height)
                defer { pixels = now }
                return !now.isEmpty && now == pixels
            }
            #expect(stable, "run \(run): the window's pixels settled")
            if let condition { #expect(wait(timeout: 30, condition), "run \(run): the answers were written") }
            // Loading the configuration writes more than stdio's buffer (a dozen files, 8 KB
            // and more): written to the file before the window showed.
            let written = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            return (written > 0, pixels)
        }

        let first = try start(until: { stored() != nil })
        let firstLoaded = first.loadedConfiguration
        #expect(firstLoaded, "the first start asks fontconfig")
        let firstAnswers = stored()

        let second = try start()
        let secondLoaded = second.loadedConfiguration
        #expect(!secondLoaded, "the second start opens its fonts from the stored answers")
        let sameAsFirst = second.pixels == first.pixels
        #expect(sameAsFirst, "and draws the same pixels")

        // A configuration file added to a watched folder: sans-serif is DejaVu Serif now.
        try """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <match target="pattern">
            <test name="family"><string>sans-serif</string></test>
            <edit name="family" mode="prepend" binding="strong"><string>DejaVu Serif</string></edit>
          </match>
        </fontconfig>
        """.write(toFile: configFolder + "/99-serif.conf", atomically: true, encoding: .utf8)
        let third = try start(until: { stored() != firstAnswers })
        let thirdLoaded = third.loadedConfiguration
        #expect(thirdLoaded, "a changed configuration is loaded again")
        let changed = third.pixels != first.pixels
        #expect(changed, "and its choice of font shows")

        let fourth = try start()
        let fourthLoaded = fourth.loadedConfiguration
        #expect(!fourthLoaded)
        let sameAsThird = fourth.pixels == third.pixels
        #expect(sameAsThird)
    }
}
