import X11UI

#if canImport(Glibc)
    import Glibc
#endif

/// Prints one line to standard error and exits with status 1.
func die(_ message: String) -> Never {
    var bytes = Array("tooltip-demo: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let usage = """
    usage: tooltip-demo [--scene all|sample|icons|placements] [--display NAME]
    """

var sceneName = "all"
var displayName: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--scene": sceneName = arguments.popFirst() ?? ""
    case "--display":
        // An empty name would fall back to $DISPLAY: a missing value is an error, not a default.
        guard let name = arguments.popFirst(), !name.isEmpty, !name.hasPrefix("--") else {
            die("--display needs a display name (\":0\")")
        }
        displayName = name
    case "-h", "--help":
        print(usage)
        exit(0)
    default: die("unknown argument \"\(argument)\"\n\(usage)")
    }
}

let app: Application
do {
    app = try Application(displayName: displayName)
} catch {
    die("\(error)")
}

guard let demo = DemoWindow(scene: sceneName) else { die("unknown scene \"\(sceneName)\"\n\(usage)") }
demo.window.show()
do {
    try app.run()
} catch {
    die("\(error)")
}
app.close()
