import Foundation
import X11TestSupport

/// Memory and first paint in the fonts users have and the builds they get, in one run: the CI
/// font set (what `make deps` installs: DejaVu, Noto Color Emoji, NanumGothic, ...) and a
/// desktop set (the same with Noto Sans CJK, through a fontconfig configuration of the bench's
/// own, `scripts/desktop-fonts.sh`), each for the installed build (`make release`'s flags,
/// `tools/release-link/release-flags.sh`) and a plain `swift build -c release`, what a program depending on
/// X11UI gets when it adds no flag.
@MainActor
struct FontSetMemory {
    let bench: Bench
    /// The sample scene and the whole demo, in the installed build.
    let sample: Subject
    let demo: Subject
    /// `FONTCONFIG_FILE` of the desktop set.
    let desktopFonts: String
    /// The plain build's `tooltip-demo`, if built.
    let plainDemo: String?
    let floor: Subject?
    let shows: Int
    let startupRuns: Int
    /// Another build of `tooltip-demo`, whose sample scene starts in turns with this one's
    /// (`--other-demo`: two builds compared in one run, under the same load).
    var otherDemo: String? = nil

    func run() throws {
        let sets: [(name: String, environment: [String: String])] = [
            ("ci_fonts", [:]), ("desktop_fonts", ["FONTCONFIG_FILE": desktopFonts]),
        ]
        var builds: [(name: String, path: String?)] = [("installed", nil)]
        if let plainDemo { builds.append(("plain_build", plainDemo)) }
        for set in sets {
            for build in builds {
                let label = "\(set.name).\(build.name)"
                let sample = sample.variant(
                    name: "x11ui_sample.\(label)", path: build.path, environment: set.environment)
                let demo = demo.variant(
                    name: "x11ui.\(label)", path: build.path, environment: set.environment)
                try measure(sample: sample, demo: demo)
            }
            try firstPaint(in: set)
        }
    }

    /// Start-up of the sample scene in a font set (the installed build), beside the floor's
    /// in the same set, started in turns.
    private func firstPaint(in set: (name: String, environment: [String: String])) throws {
        let ours = sample.variant(name: "x11ui_sample.\(set.name)", environment: set.environment)
        // Fontconfig asked every time, as on a first start (no answers kept from an earlier
        // run, `FontMatchStore`); the first of `ours` runs is one too, the others are not.
        let firstStart = sample.variant(
            name: "x11ui_sample_first_start.\(set.name)",
            environment: set.environment.merging(["X11UI_FONT_MATCHES": "0"]) { $1 })
        var subjects = [ours, firstStart]
        if let floor { subjects.insert(floor.variant(name: "floor.\(set.name)", environment: set.environment), at: 0) }
        if let otherDemo {
            subjects.append(
                sample.variant(name: "x11ui_sample_other.\(set.name)", path: otherDemo, environment: set.environment))
        }
        try bench.startup(subjects, runs: startupRuns)
        for stage in ["mapped", "painted"] {
            let mine = bench.figures["\(ours.name).startup_\(stage)_median"]?.value
            let first = bench.figures["\(firstStart.name).startup_\(stage)_median"]?.value
            if let theirs = bench.figures["floor.\(set.name).startup_\(stage)_median"]?.value, theirs > 0 {
                if let mine { bench.report("\(ours.name).startup_\(stage)_ratio_to_floor", mine / theirs, "x") }
                if let first {
                    bench.report("\(firstStart.name).startup_\(stage)_ratio_to_floor", first / theirs, "x")
                }
            }
            if let other = bench.figures["x11ui_sample_other.\(set.name).startup_\(stage)_median"]?.value, let mine,
                other > 0
            {
                bench.report("\(ours.name).startup_\(stage)_ratio_to_other", mine / other, "x")
            }
        }
    }

    /// The sample scene after start and with its tooltip; the whole demo after start and after
    /// `shows` click tooltips shown and hidden.
    private func measure(sample: Subject, demo: Subject) throws {
        // A first start keeps fontconfig's answers (`FontMatchStore`): the figures are those of
        // the starts after it, as a user has them every day.
        try bench.start(sample).stop()
        try bench.start(demo).stop()
        let scene = try bench.start(sample)
        bench.report("\(sample.name).rss_after_start", Double(ProcStats(pid: scene.pid).rssKB) / 1024, "MB")
        let comparison = Comparison(
            bench: bench, subjects: [], floor: nil, startupRuns: 0, remote: false, serverNumber: bench.server.number)
        if let rss = comparison.rssWithToolTip(sample, pid: scene.pid) {
            bench.report("\(sample.name).rss_with_tooltip", rss, "MB")
        }
        scene.stop()
        reportPlainBuildExcess(sample.name, figures: ["rss_after_start", "rss_with_tooltip"])
        let whole = try bench.start(demo)
        let stats = ProcStats(pid: whole.pid)
        bench.report("\(demo.name).rss_after_start", Double(stats.rssKB) / 1024, "MB")
        _ = bench.cycles(demo, count: shows)
        bench.report("\(demo.name).rss_after_\(shows)_shows", Double(stats.rssKB) / 1024, "MB")
        whole.stop()
        reportPlainBuildExcess(demo.name, figures: ["rss_after_start", "rss_after_\(shows)_shows"])
    }

    /// For a plain build's figures: how much more they are than the installed build's.
    private func reportPlainBuildExcess(_ name: String, figures: [String]) {
        guard name.hasSuffix(".plain_build") else { return }
        let installed = name.replacingOccurrences(of: ".plain_build", with: ".installed")
        for figure in figures {
            if let plain = bench.figures["\(name).\(figure)"]?.value,
                let theirs = bench.figures["\(installed).\(figure)"]?.value
            {
                bench.report("\(name).\(figure)_over_installed", plain - theirs, "MB")
            }
        }
    }
}
