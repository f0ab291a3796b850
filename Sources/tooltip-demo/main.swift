import X11UI

#if canImport(Glibc)
    import Glibc
#endif

/// Prints one line to standard error and exits with status 1.
func die(_ message: String) -> Never {
    warn(message)
    exit(1)
}

/// Prints one line to standard error and goes on.
func warn(_ message: String) {
    var bytes = Array("tooltip-demo: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

let usage = """
    usage: tooltip-demo [--scene all|sample|icons|placements] [--display NAME]
                        [--stream-cart [MS]] [--stream-items N]
                        [--appearance light|dark|high-contrast|high-contrast-dark]
      --stream-cart   an async task fills the cart, one item every MS milliseconds (1000)
      --stream-items  how many items the stream brings (10)
      --appearance    the program's own appearance instead of the desktop's
    """

var sceneName = "all"
var displayName: String?
var cartStreamInterval: Duration?
var cartStreamCount = 10
var appearance: Appearance?
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
    case "--stream-cart":
        if let next = arguments.first, let milliseconds = Int(next), milliseconds > 0 {
            arguments.removeFirst()
            cartStreamInterval = .milliseconds(milliseconds)
        } else {
            cartStreamInterval = .seconds(1)
        }
    case "--stream-items":
        guard let next = arguments.popFirst(), let count = Int(next), count > 0 else {
            die("--stream-items needs a positive number of items")
        }
        cartStreamCount = count
    case "--appearance":
        let names: [String: Appearance] = [
            "light": .light, "dark": .dark, "high-contrast": .highContrast, "high-contrast-dark": .highContrastDark,
        ]
        let name = arguments.popFirst()
        guard let name, let chosen = names[name] else {
            let given = name.map { ", not \"\($0)\"" } ?? ""
            die("--appearance needs light, dark, high-contrast or high-contrast-dark\(given)")
        }
        appearance = chosen
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

app.preferredAppearance = appearance
guard let demo = DemoWindow(scene: sceneName) else { die("unknown scene \"\(sceneName)\"\n\(usage)") }
demo.window.show()
if let cartStreamInterval, !demo.streamCart(every: cartStreamInterval, count: cartStreamCount) {
    die("--stream-cart needs the sample scene")
}
do {
    try app.run()
} catch {
    die("\(error)")
}
app.close()
