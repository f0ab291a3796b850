internal import Glibc

/// How much X11UI reports on standard error.
///
/// The library never writes to standard output. Warnings (an X protocol error that is not a known
/// harmless race, a font that could not be opened) go to standard error by default; debug lines
/// (races such as `BadWindow` on a window another client destroyed) only at `.debug`. The
/// level starts as `X11UI_LOG` says (`debug`, `warning`, `silent`) and a program sets it with
/// `Application.logLevel`:
///
/// ```swift
/// Application.logLevel = .silent
/// ```
public enum LogLevel: Int, Sendable, Comparable {
    /// Details useful while developing X11UI itself.
    case debug = 0
    /// Something went wrong and X11UI recovered.
    case warning = 1
    /// Nothing is reported.
    case silent = 2

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The library's only way to report on standard error.
enum Log {
    /// The threshold: first from `X11UI_LOG` (`debug`, `warning`, `silent`), then as
    /// `Application.logLevel` sets it.
    nonisolated(unsafe) static var level: LogLevel = {
        switch Environment.value("X11UI_LOG") {
        case "debug": return .debug
        case "silent", "none": return .silent
        default: return .warning
        }
    }()

    static func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
    static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }

    private static func write(_ lineLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard lineLevel >= level, level != .silent else { return }
        var line = Array(("X11UI: " + message().escapingControlCharacters + "\n").utf8)
        _ = line.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

extension Application {
    /// How much X11UI reports on standard error, for every application in the process; it
    /// starts as the `X11UI_LOG` environment variable says (`.warning` when it is unset).
    public static var logLevel: LogLevel {
        get { Log.level }
        set { Log.level = newValue }
    }
}

/// Access to the process environment without Foundation.
enum Environment {
    /// The value of an environment variable, or nil when it is unset.
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}

extension String {
    /// The text with every character that could break a line or steer a terminal written as an
    /// escape (`\n`, `\t`, `\u{1B}`): C0 and C1 controls, DEL, the line and paragraph
    /// separators and the bidirectional overrides. Messages built from what a user, a program
    /// or a server supplied (a display name, a resource value, a failure reason) stay one line
    /// and cannot move the cursor, recolour the terminal or reorder what follows.
    var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if Self.needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7f...0x9f, 0x2028, 0x2029, 0x202a...0x202e, 0x2066...0x2069: return true
        default: return false
        }
    }
}
