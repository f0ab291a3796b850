import Foundation
import X11TestSupport

// Tours the demo on a private Xvfb: hovers and clicks every scene with XTest, as a user would,
// and writes a screenshot of each tooltip (cropped around the tooltip and its source) plus an
// overview. `make demo` runs it when there is no display (into .build/screenshots, the
// default); `make screenshots` runs it into assets/screenshots for the README's gallery.

struct Options {
    var output = ".build/screenshots"
    var composited = false
    /// Xft.dpi for the tour (96 is the plain one); the screen grows with it.
    var dpi = 96
    /// The demo's `--appearance` (light when nil, as on a desktop that says nothing).
    var appearance: String?
}

func fail(_ message: String) -> Never {
    ChildProcess.exitFailing("demo-tour", message)
}

var options = Options()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--output": options.output = arguments.popFirst() ?? options.output
    case "--composited": options.composited = true
    case "--dpi": options.dpi = Int(arguments.popFirst() ?? "") ?? 96
    case "--appearance": options.appearance = arguments.popFirst()
    default: fail("usage: demo-tour [--output DIR] [--composited] [--dpi N] [--appearance dark|high-contrast|…]")
    }
}
try? FileManager.default.createDirectory(atPath: options.output, withIntermediateDirectories: true)

/// One tour on one server: plain, or with a compositor (translucent tooltips with shadows).
@MainActor func tour(composited: Bool, dpi: Int = 96, appearance: String? = nil) throws {
    let scale = Double(dpi) / 96
    let server = try XvfbServer(width: Int(1280 * scale), height: Int(800 * scale))
    var compositor: ChildProcess?
    if composited {
        compositor = try ChildProcess(
            "/usr/bin/xcompmgr", ["-d", server.display], environment: ["DISPLAY": server.display])
        usleep(300_000)
    }
    let probe = try ServerProbe(display: server.display)
    if dpi != 96 { probe.setResources("Xft.dpi:\t\(dpi)\n") }
    let demo = try ProgramProcess(
        "tooltip-demo", arguments: appearance.map { ["--appearance", $0] } ?? [], display: server.display)
    defer {
        demo.stop()
        compositor?.stop()
        server.stop()
    }
    guard demo.waitForView("flip-trailing") != nil,
        wait(timeout: 10, { demo.windows.allSatisfy { probe.info($0)?.isMapped == true } })
    else { fail("the demo did not start: \(demo.standardError)") }
    usleep(100_000)
    let frames = demo.frames()
    let suffix =
        (composited ? "-composited" : "") + (dpi != 96 ? "-\(dpi)dpi" : "") + (appearance.map { "-\($0)" } ?? "")
    let park = (server.width - 2, server.height / 2)

    func tooltip(timeout: TimeInterval = 3) -> ServerProbe.WindowInfo? {
        var tip: ServerProbe.WindowInfo?
        wait(timeout: timeout) {
            tip = probe.mappedPopups().last
            return tip != nil
        }
        usleep(150_000)  // let the compositor catch up
        return tip
    }

    func shoot(_ name: String, around id: String, tip: ServerProbe.WindowInfo?) throws {
        guard let source = frames[id] else { fail("no view \(id)") }
        var x0 = source.x
        var y0 = source.y
        var x1 = source.maxX
        var y1 = source.maxY
        if let tip {
            x0 = min(x0, tip.frame.x)
            y0 = min(y0, tip.frame.y)
            x1 = max(x1, tip.frame.x + tip.frame.width)
            y1 = max(y1, tip.frame.y + tip.frame.height)
        }
        let margin = 24
        x0 = max(0, x0 - margin)
        y0 = max(0, y0 - margin)
        x1 = min(server.width, x1 + margin)
        y1 = min(server.height, y1 + margin)
        let path = "\(options.output)/\(name)\(suffix).png"
        try probe.screenshot(to: path, x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        print(path)
    }

    func hover(_ id: String, at point: ((Frame) -> (Int, Int))? = nil, name: String) throws {
        guard let frame = frames[id] else { fail("no view \(id)") }
        probe.movePointer(to: park.0, park.1)
        _ = wait(timeout: 2) { probe.mappedPopups().isEmpty }
        usleep(600_000)  // out of browse mode
        let (x, y) = point?(frame) ?? (frame.midX, frame.midY)
        probe.movePointer(to: x, y)
        try shoot(name, around: id, tip: tooltip())
    }

    func click(_ id: String, name: String) throws {
        guard let frame = frames[id] else { fail("no view \(id)") }
        // The tooltip shown before is gone first: under a compositor it fades out, and while
        // it is still mapped it would be taken for the clicked one and widen the shot.
        probe.movePointer(to: park.0, park.1)
        _ = wait(timeout: 2) { probe.mappedPopups().isEmpty }
        probe.movePointer(to: frame.midX, frame.midY)
        usleep(50_000)
        probe.click()
        try shoot(name, around: id, tip: tooltip())
        probe.click()  // toggles it off again
        _ = wait(timeout: 2) { probe.mappedPopups().isEmpty }
    }

    probe.movePointer(to: park.0, park.1)
    usleep(300_000)
    if !composited {
        try probe.screenshot(to: "\(options.output)/overview\(suffix).png")
        print("\(options.output)/overview\(suffix).png")
    }
    try hover("default-view", name: "sample-default-view")
    try hover("buy-button", name: "sample-buy-button")
    try hover("color-view", name: "sample-color-view")
    try hover("region-view", at: { ($0.midX, $0.y + 8) }, name: "sample-region-top")
    try hover("cart-button", name: "sample-cart-button")
    try hover("checkout-button", name: "sample-checkout-disabled")  // disabled, saying why
    // An item in the cart: Check Out says what it buys, and its keyboard shortcut.
    if let cart = frames["cart-button"] {
        probe.movePointer(to: cart.midX, cart.midY)
        probe.click()
    }
    try hover("checkout-button", name: "sample-checkout-shortcut")
    try click("icon-home", name: "icons-home")
    try click("icon-video", name: "icons-video")
    if appearance != nil {
        // In another appearance, also a click tooltip with a button in it, and a placement.
        try click("korean-label", name: "placements-korean-label")
        try click("place-bottom-center", name: "placement-bottom-center")
    }
    if composited || dpi != 96 || appearance != nil { return }
    for edge in ["top", "bottom", "leading", "trailing"] {
        for alignment in ["start", "center", "end"] {
            try click("place-\(edge)-\(alignment)", name: "placement-\(edge)-\(alignment)")
        }
    }
    for id in [
        "items-button", "items-likes", "korean-label", "rtl-label", "shaped-label", "flip-top", "shift-end",
        "flip-bottom", "flip-trailing",
    ] {
        try click(id, name: "placements-\(id)")
    }
    // Cut text shown whole over itself: a label, and a button with a tooltip of its own.
    try hover("truncated-label", at: { ($0.x + 40, $0.midY) }, name: "expansion-truncated-label")
    try hover("truncated-button", name: "expansion-truncated-button")
    // A tooltip that follows the pointer along the bar, saying where it is.
    if let bar = frames["follow-shape"] {
        try hover("follow-shape", at: { ($0.x + 20, $0.midY) }, name: "follow-shape-start")
        for x in stride(from: bar.x + 24, through: bar.x + bar.width * 3 / 4, by: 4) {
            probe.movePointer(to: x, bar.midY)
            usleep(5_000)
        }
        usleep(100_000)
        try shoot("follow-shape-moved", around: "follow-shape", tip: tooltip())
    }
    // Select a word in the text view by double-clicking, then hover the selection.
    if let text = frames["text-view"] {
        probe.movePointer(to: text.x + 40, text.y + 16)
        probe.click()
        probe.click()
        usleep(100_000)
        probe.movePointer(to: text.x + 41, text.y + 17)
        try shoot("sample-text-selection", around: "text-view", tip: tooltip())
    }
}

ChildProcess.stopChildrenOnTermination()  // killing this tool leaves no Xvfb behind
do {
    if options.dpi != 96 || options.appearance != nil {
        try tour(composited: false, dpi: options.dpi, appearance: options.appearance)
        exit(0)
    }
    try tour(composited: false)
    if options.composited || FileManager.default.isExecutableFile(atPath: "/usr/bin/xcompmgr") {
        try tour(composited: true)
    }
} catch {
    fail("\(error)")
}
