internal import Glibc

/// Writes JSON lines about layouts and tooltips to the file named by `X11UI_INSPECT` (`-` is
/// standard error), for debugging and for test tools. Nothing is computed when it is unset.
@MainActor
final class Inspector {
    private let file: UnsafeMutablePointer<FILE>
    private let ownsFile: Bool

    private init(file: UnsafeMutablePointer<FILE>, ownsFile: Bool) {
        self.file = file
        self.ownsFile = ownsFile
    }

    isolated deinit {
        if ownsFile { fclose(file) }
    }

    /// The inspector `X11UI_INSPECT` asks for, or nil.
    static func fromEnvironment() -> Inspector? {
        guard let path = Environment.value("X11UI_INSPECT"), !path.isEmpty else { return nil }
        if path == "-" {
            guard let file = fdopen(dup(2), "a") else { return nil }
            return Inspector(file: file, ownsFile: true)
        }
        guard let file = fopen(path, "a") else {
            Log.warning("cannot open X11UI_INSPECT file \"\(path)\"")
            return nil
        }
        return Inspector(file: file, ownsFile: true)
    }

    private func write(_ line: String) {
        _ = (line + "\n").withCString { fputs($0, file) }
        fflush(file)
    }

    /// `{"event":"layout", …}` with every identified view's frame in root coordinates.
    func windowDidLayout(_ window: Window) {
        guard window.native != nil, !(window is PopupWindow) else { return }
        let origin = window.screenOrigin ?? .zero
        var views: [String] = []
        func visit(_ view: View) {
            guard !view.isHidden else { return }
            if let id = view.identifier {
                let f = view.convertToWindow(view.bounds).offsetBy(dx: origin.x, dy: origin.y)
                views.append(
                    "{\"id\":\(JSON.string(id)),\"type\":\(JSON.string(String(describing: type(of: view)))),\"frame\":\(JSON.rect(f))}"
                )
            }
            for subview in view.subviews { visit(subview) }
        }
        visit(window.rootView)
        write(
            "{\"event\":\"layout\",\"window\":\(window.xid),\"title\":\(JSON.string(window.title)),\"views\":[\(views.joined(separator: ","))]}"
        )
    }

    /// `{"event":"tooltip","state":"shown"|"hidden", …}`.
    func toolTip(shown: Bool, source: View?, text: String, frame: Rect?) {
        let id = source?.identifier.map(JSON.string) ?? "null"
        let frameJSON = frame.map(JSON.rect) ?? "null"
        write(
            "{\"event\":\"tooltip\",\"state\":\"\(shown ? "shown" : "hidden")\",\"source\":\(id),\"text\":\(JSON.string(text)),\"frame\":\(frameJSON)}"
        )
    }
}

/// The little JSON the inspector writes.
enum JSON {
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `[x,y,w,h]`; a coordinate that is not a finite number (a NaN frame a program set) is
    /// `null`, so that every line stays valid JSON.
    static func rect(_ r: Rect) -> String {
        "[\(number(r.minX)),\(number(r.minY)),\(number(r.width)),\(number(r.height))]"
    }

    static func number(_ value: Double) -> String { value.isFinite ? value.compact : "null" }
}
