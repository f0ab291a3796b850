internal import Glibc

/// Writes JSON lines about layouts and tooltips to the file named by `X11UI_INSPECT` (`-` is
/// standard error), for debugging and for test tools. Nothing is computed when it is unset.
///
/// It knows records, not windows, views or tooltips: the layers that have the data make the
/// records (Views/Inspector+Views.swift walks a window's views; the tooltip coordinator reports
/// what it shows).
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

    /// A view the inspector lists: its identifier, its type's name, its frame on the screen.
    struct ViewRecord {
        var identifier: String
        var type: String
        var frame: Rect
    }

    /// `{"event":"layout", …}` with the identified views of a window (the window layer gathers
    /// them: see `Inspector.windowDidLayout(_:)` in Views/Inspector+Views.swift).
    func layout(window: UInt, title: String, views: [ViewRecord]) {
        let list = views.map {
            "{\"id\":\(JSON.string($0.identifier)),\"type\":\(JSON.string($0.type)),\"frame\":\(JSON.rect($0.frame))}"
        }
        write(
            "{\"event\":\"layout\",\"window\":\(window),\"title\":\(JSON.string(title)),\"views\":[\(list.joined(separator: ","))]}"
        )
    }

    /// `{"event":"tooltip","state":"shown"|"hidden", …}`; `source` is the identifier of the
    /// tooltip's view.
    func toolTip(shown: Bool, source: String?, text: String, frame: Rect?) {
        let id = source.map(JSON.string) ?? "null"
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
