internal import Glibc

/// The launch of this program as a desktop announced it (freedesktop.org startup notification).
///
/// A launcher (a panel, a menu, a file manager) that starts a program whose desktop entry says
/// `StartupNotify=true` shows a busy cursor or a "starting…" entry and passes an ID in
/// `DESKTOP_STARTUP_ID`. The program ends the sequence by broadcasting `remove: ID=<id>` once
/// its first window is mapped; until then the launcher waits for its timeout. The ID usually
/// ends in `_TIME<timestamp>`, the X server time of the click that launched the program, which
/// window managers use as the first window's user time (focus stealing prevention).
struct StartupNotification: Equatable {
    /// The startup sequence's ID.
    let id: String

    /// The longest ID accepted; a longer one is not a launcher's (and would take hundreds of
    /// client messages to send back).
    static let maximumLength = 1024

    /// Wraps an ID; nil when it is empty, too long or holds control characters.
    init?(id: String) {
        guard !id.isEmpty, id.utf8.count <= Self.maximumLength,
            !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
        else { return nil }
        self.id = id
    }

    /// Reads `DESKTOP_STARTUP_ID` and removes it from the environment, so that programs this
    /// one starts do not take the sequence for theirs (as GTK and Qt do).
    static func takeFromEnvironment() -> StartupNotification? {
        guard let value = Environment.value("DESKTOP_STARTUP_ID") else { return nil }
        unsetenv("DESKTOP_STARTUP_ID")
        guard let notification = StartupNotification(id: value) else {
            if !value.isEmpty { Log.warning("ignored a malformed DESKTOP_STARTUP_ID") }
            return nil
        }
        return notification
    }

    /// The launch's X server time, from the `_TIME<n>` suffix of the ID; nil when there is none.
    var launchTime: UInt? {
        let bytes = Array(id.utf8)
        let marker = Array("_TIME".utf8)
        guard bytes.count > marker.count else { return nil }
        // The last marker counts, as in GTK: a launcher's prefix may contain the word too.
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1)
        where bytes[start..<start + marker.count].elementsEqual(marker) {
            let digits = bytes[(start + marker.count)...].prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty, let time = UInt32(String(decoding: digits, as: UTF8.self)) else { return nil }
            return UInt(time)
        }
        return nil
    }

    /// The message that ends the sequence.
    var removeMessage: String { "remove: ID=" + Self.escaped(id) }

    /// A value with spaces, quotes and backslashes escaped by backslashes, as the
    /// specification's parsers (libstartup-notification's among them) read them.
    static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            if character == " " || character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// The message as the client messages carry it: UTF-8 with a terminating NUL, in pieces of
    /// 20 bytes (the last one padded with NULs). The first piece goes as
    /// `_NET_STARTUP_INFO_BEGIN`, the others as `_NET_STARTUP_INFO`.
    static func pieces(of message: String) -> [[UInt8]] {
        let bytes = Array(message.utf8.filter { $0 != 0 }) + [0]
        return stride(from: 0, to: bytes.count, by: 20).map { start in
            let piece = bytes[start..<min(start + 20, bytes.count)]
            return Array(piece) + [UInt8](repeating: 0, count: 20 - piece.count)
        }
    }
}
