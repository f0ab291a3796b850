/// The errors X11UI throws.
///
/// Each names what failed and where, in one line fit for a user's terminal: control characters
/// in a name (a `DISPLAY` holding a newline or terminal escapes) are written as escapes.
public enum X11UIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `$DISPLAY` is unset or empty and no display name was given.
    case noDisplay
    /// The X server could not be reached (bad name, no server, connection refused).
    case cannotOpenDisplay(name: String)
    /// The X server refused the connection and said why (no authorization, too many clients).
    case connectionRefused(name: String, reason: String)
    /// The X server accepted the connection but did not complete its setup in time (a stopped
    /// or wedged server, or something else listening on its socket).
    case displayNotAnswering(name: String, timeout: Duration)
    /// The X server is reachable but X11UI cannot draw on it (no RENDER extension, no
    /// TrueColor visual); `reason` says which.
    case unsupportedDisplay(name: String, reason: String)
    /// The connection to the X server was lost while running.
    case connectionLost(name: String)
    /// No font could be opened for a pattern (fontconfig found nothing at all).
    case fontUnavailable(pattern: String)
    /// An asset name that is not a plain file name (it would leave the assets folder).
    case invalidAssetName(String)
    /// No PNG asset of that name was found in any assets folder.
    case assetNotFound(name: String)
    /// A file could not be read as a PNG image.
    case imageUnreadable(path: String)
    /// The X server lacks an extension X11UI needs for this call.
    case missingExtension(String)

    public var description: String {
        // Names come from users, programs and servers: escaped, the message stays one line.
        let text = unescapedDescription
        return text.escapingControlCharacters
    }

    private var unescapedDescription: String {
        switch self {
        case .noDisplay:
            return "cannot open display: DISPLAY is not set"
        case .cannotOpenDisplay(let name):
            return "cannot open display \"\(name)\""
        case .connectionRefused(let name, let reason):
            return "cannot open display \"\(name)\": the X server refused the connection: \(reason)"
        case .displayNotAnswering(let name, let timeout):
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            return "cannot open display \"\(name)\": the X server did not answer within \(seconds.compact) s"
        case .unsupportedDisplay(let name, let reason):
            return "cannot use display \"\(name)\": \(reason)"
        case .connectionLost(let name):
            return "lost the connection to the X server on display \"\(name)\""
        case .fontUnavailable(let pattern):
            return "no font matches \"\(pattern)\""
        case .invalidAssetName(let name):
            return "invalid asset name \"\(name)\" (letters, digits, '-' and '_' only)"
        case .assetNotFound(let name):
            return "no asset named \"\(name)\" (looked in X11UI_ASSETS, next to the program, and in the package)"
        case .imageUnreadable(let path):
            return "cannot read PNG image \"\(path)\""
        case .missingExtension(let name):
            return "the X server lacks the \(name) extension"
        }
    }
}

/// A protocol error X11UI received and did not let stop the program (counted by
/// `Application.protocolErrorCount`, reported on standard error unless it is a known race).
struct XProtocolError: Sendable, CustomStringConvertible {
    /// The X error code (`BadWindow` is 3).
    var errorCode: UInt8
    /// The major opcode of the failed request.
    var requestCode: UInt8
    /// The minor opcode (for extension requests).
    var minorCode: UInt8
    /// The resource the request named.
    var resourceID: UInt
    /// The sequence number of the failed request.
    var serial: UInt
    /// Whether the error is a known harmless race: a window, pixmap or drawable that vanished.
    var isRace: Bool { [3, 4, 9].contains(errorCode) }

    var description: String {
        "X error \(errorCode) on request \(requestCode).\(minorCode), resource 0x\(String(resourceID, radix: 16))"
    }
}
