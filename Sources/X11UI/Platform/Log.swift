internal import Glibc
internal import Synchronization

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

    static func debug(_ message: @autoclosure () -> String) {
        guard LogLevel.debug >= level, level != .silent else { return }
        write(line(message()))
    }

    /// Writes a warning, once: the same line again later in the run is not written (see
    /// ``WarningLedger``), so that a peer repeating a bad value cannot flood standard error.
    static func warning(_ message: @autoclosure () -> String) {
        guard LogLevel.warning >= level, level != .silent else { return }
        let text = line(message())
        switch ledger.withLock({ $0.admit(text) }) {
        case .write: write(text)
        case .writeThenStop:
            write(text)
            write("more than \(WarningLedger.capacity) different warnings: the rest are not written")
        case .heldBack: break
        }
    }

    /// The warnings written so far in this run (a display may be opened on any thread).
    static let ledger = Mutex(WarningLedger())

    /// The longest line written, in characters; a longer message is cut (a value quoted in it
    /// is cut far shorter already: ``quoted(_:)``).
    static let longestLine = 400

    /// A message as one line: control characters escaped, at most ``longestLine`` characters.
    private static func line(_ message: String) -> String {
        let text = message.escapingControlCharacters
        return text.count > longestLine ? text.prefix(longestLine) + "…" : text
    }

    private static func write(_ text: String) {
        var bytes = Array(("X11UI: " + text + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    /// The longest part of a value a warning quotes, in characters.
    static let quotedLength = 80

    /// A value from another process or a file as a warning quotes it: in quotes, its first
    /// ``quotedLength`` characters, then "…" when there are more.
    static func quoted(_ value: some StringProtocol) -> String {
        "\"" + (value.count > quotedLength ? value.prefix(quotedLength) + "…" : String(value)) + "\""
    }
}

/// The warnings a run has written, so that each is written once: a program fed the same bad
/// value a thousand times (a settings manager alternating a bad table and a good one) writes one
/// line, not a thousand.
///
/// It keeps a 64-bit hash of each line written, at most ``capacity`` of them (8 bytes each);
/// past that, a new warning is not written at all (one line says so), so that neither the
/// memory kept nor standard error grows without bound, whatever another process sends.
struct WarningLedger {
    /// The different warnings written at most in a run.
    static let capacity = 256

    /// What to do with a warning.
    enum Verdict: Equatable {
        /// Write it: not written before.
        case write
        /// Write it, and say that no more will be: it is the last one there is room for.
        case writeThenStop
        /// Do not write it: written before, or past the capacity.
        case heldBack
    }

    private var seen: Set<UInt64> = []
    /// Warnings not written since the ledger filled, or because they were written before.
    private(set) var heldBack = 0

    /// Whether `line` is to be written; records it.
    mutating func admit(_ line: String) -> Verdict {
        let hash = Self.hash(line)
        guard seen.count < Self.capacity, !seen.contains(hash) else {
            heldBack += 1
            return .heldBack
        }
        seen.insert(hash)
        return seen.count == Self.capacity ? .writeThenStop : .write
    }

    /// FNV-1a over the UTF-8 bytes: the same in every run (Swift's `Hasher` is seeded).
    private static func hash(_ line: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in line.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
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
