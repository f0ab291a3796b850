internal import CX11
internal import CX11Internal
internal import Glibc

/// Opens a display with Xlib within a deadline.
///
/// `XOpenDisplay` connects, reads the server's setup answer and waits for two replies with
/// blocking calls and no timeout: a server that accepts and never answers, sends half a setup,
/// or answers the setup and then falls silent would hang the program at start with nothing
/// said. `cx11_open_display` (Sources/CX11Internal/open.c) bounds the connection Xlib itself
/// makes: past the deadline a watchdog thread shuts that socket down, which ends Xlib's wait.
/// There is one connection, Xlib's own, and nothing of it is left behind but a few kilobytes
/// when a server fails after its setup.
enum DisplayOpener {
    /// An open display, and whether XKEYBOARD's set-up was skipped on it (see
    /// `DisplayConnection.useDeferredKeyboardExtension()`).
    struct Opened {
        var display: OpaquePointer
        var keyboardExtensionDeferred: Bool
    }

    /// How long a server that closes the connection during or just after its setup without a
    /// word (one resetting as its last client left, which takes milliseconds, a few hundred on
    /// a loaded machine) is asked again.
    static let resetAllowance = Duration.milliseconds(500)

    /// Opens `name`, or throws the one-line error that says why not.
    ///
    /// Xlib writes a server's refusal ("No protocol specified", or whatever a hostile server
    /// sends) raw to standard error; in a process of one thread it is held back and becomes part
    /// of the error. In a process of several, standard error stays as it is (another thread
    /// writing meanwhile would lose its words, and two opens at once could leave it pointing
    /// elsewhere): Xlib's words go out as they would in any Xlib program, and X11UI asks the
    /// server itself why it refused.
    static func open(_ name: String, timeout: Duration) throws(X11UIError) -> Opened {
        let address = DisplayAddress(name)
        let deadline = MonotonicInstant.now() + timeout
        var firstClose: MonotonicInstant?
        while true {
            let left = deadline - MonotonicInstant.now()
            guard left > .zero else { throw X11UIError.displayNotAnswering(name: name, timeout: timeout) }
            var result = cx11_open_result()
            var display: OpaquePointer?
            let captured = StandardErrorCapture.during {
                display = DisplayAddress.withServer(address) { server in
                    cx11_open_display(name, max(1, Int(left.nanoseconds / 1_000_000)), server, 1, &result)
                }
            }
            let said = captured?.trimmingWhitespace ?? ""
            if let display {
                if !said.isEmpty { Log.warning(said) }
                return Opened(display: display, keyboardExtensionDeferred: result.xkb_deferred != 0)
            }
            if result.failure == Int32(CX11_OPEN_TIMED_OUT.rawValue) {
                throw X11UIError.displayNotAnswering(name: name, timeout: timeout)
            }
            let lost = result.failure == Int32(CX11_OPEN_LOST.rawValue)
            if lost, !said.isEmpty {
                Log.warning(said)  // what was said is not lost
                throw X11UIError.cannotOpenDisplay(name: name)
            }
            if !lost, !said.isEmpty || captured == nil {
                // libxcb wrote a refusal to standard error (or may have, uncaptured): the server
                // is asked again, by X11UI, and its own words are the reason (what Xlib's
                // authorization got may differ: it is kept as a warning).
                let asked = address?.refusal(until: min(deadline, MonotonicInstant.now() + .seconds(1)))
                switch asked {
                case .refused(let reason):
                    if !said.isEmpty, !said.contains(reason) { Log.warning(said) }
                    throw X11UIError.connectionRefused(name: name, reason: String(reason.prefix(256)))
                case .unreachable, .notRefused, nil:
                    // No server, one that does not refuse (garbage, or an acceptance), or a name
                    // X11UI cannot reach itself: what was written is no refusal X11UI heard,
                    // but it is not lost. Nothing captured: as if nothing was said, unless the
                    // server kept silent to X11UI too until the deadline.
                    if !said.isEmpty {
                        Log.warning(said)
                        throw X11UIError.cannotOpenDisplay(name: name)
                    }
                    if asked == .notRefused, MonotonicInstant.now() >= deadline {
                        throw X11UIError.displayNotAnswering(name: name, timeout: timeout)
                    }
                }
            }
            // Nothing said: no server there, or one that closed the connection without a word,
            // during its setup or just after it (a connection the server accepted as its last
            // client was leaving is closed by its reset, before or after the setup answer). A
            // server that is there (a bare connect reaches it; one that never set up does not
            // count as a client whose leaving could reset it) is resetting: it is back within
            // milliseconds, more on a loaded machine.
            let now = MonotonicInstant.now()
            let first = firstClose ?? now
            firstClose = first
            guard now - first < resetAllowance, now + .milliseconds(10) < deadline, let address,
                address.isReachable(until: min(deadline, now + .milliseconds(100)))
            else { throw X11UIError.cannotOpenDisplay(name: name) }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// Waits for `events` on `fd`; false when the deadline passes first.
    static func wait(_ fd: Int32, for events: Int16, until deadline: MonotonicInstant) -> Bool {
        while true {
            let left = (deadline - MonotonicInstant.now()).nanoseconds
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            var span = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
            let ready = ppoll(&descriptor, 1, &span, nil)
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }
}

/// Where a display name's server listens, as Xlib (libxcb) would look for it: a local name
/// (`:1`, `unix:1`) is the abstract socket `@/tmp/.X11-unix/X1`, then the file of that name; a
/// host name is TCP port 6000 + the display number. A bare local name (`:1`, no protocol) that
/// reaches neither socket is then tried on TCP at localhost, as libxcb does.
struct DisplayAddress: Equatable {
    /// The host; nil for a local socket.
    var host: String?
    /// The display number.
    var number: Int
    /// Whether a local name falls back to TCP port 6000 + the number on localhost when neither
    /// local socket answers (a name without a protocol and without a host: `:1`, not `unix:1`).
    var fallsBackToTCP = false

    /// Parses `[protocol/][host]:number[.screen]`; nil for what the probe does not handle
    /// (socket paths, DECnet's `::`, IPv6 literals).
    init?(_ name: String) {
        var rest = Substring(name)
        var tcpOnly = false
        var hasProtocol = false
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") {
            hasProtocol = true
            let scheme = rest[..<slash]
            guard ["unix", "local", "tcp", "inet", "inet6"].contains(scheme) else { return nil }
            tcpOnly = scheme != "unix" && scheme != "local"
            rest = rest[rest.index(after: slash)...]
        }
        guard !rest.hasPrefix("/"), let colon = rest.lastIndex(of: ":") else { return nil }
        let host = rest[..<colon]
        guard !host.contains(":") else { return nil }
        let digits = rest[rest.index(after: colon)...].prefix { $0 != "." }
        guard !digits.isEmpty, digits.count <= 5, let number = Int(digits) else { return nil }
        self.number = number
        if host.isEmpty || host == "unix" {
            self.host = tcpOnly ? "localhost" : nil
            fallsBackToTCP = host.isEmpty && !hasProtocol
        } else {
            self.host = String(host)
        }
    }

    /// The socket path libxcb connects to for a local name (and, after a NUL, its abstract
    /// name).
    var localPath: String { "/tmp/.X11-unix/X\(number)" }

    /// Calls `body` with the address as `cx11_open_display` takes it (nil for none: a name the
    /// parser does not handle, when any new socket may be Xlib's).
    static func withServer<R>(_ address: DisplayAddress?, _ body: (UnsafePointer<cx11_server_address>?) -> R) -> R {
        guard let address else { return body(nil) }
        return address.localPath.withCString { path in
            let local = address.host == nil
            let tcp = !local || address.fallsBackToTCP
            var server = cx11_server_address(
                unix_path: local ? path : nil, tcp_port: tcp ? Int32(6000 + address.number) : 0)
            return body(&server)
        }
    }

    /// Whether something accepts connections there before the deadline (connected and closed
    /// at once, without a setup: a server does not count it as a client).
    func isReachable(until deadline: MonotonicInstant) -> Bool {
        guard let fd = connect(until: deadline) else { return false }
        close(fd)
        return true
    }

    /// What a server answers a connection without authorization.
    enum Refusal: Equatable {
        /// Nothing could be reached.
        case unreachable
        /// A refusal, and its reason.
        case refused(String)
        /// Anything else: an acceptance, no answer before the deadline, garbage.
        case notRefused
    }

    /// Asks the server for a connection without authorization, to hear whether it refuses.
    func refusal(until deadline: MonotonicInstant) -> Refusal {
        guard let fd = connect(until: deadline) else { return .unreachable }
        defer { close(fd) }
        // Byte order 'l', protocol 11.0, no authorization.
        let request: [UInt8] = [0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        guard DisplayOpener.wait(fd, for: Int16(POLLOUT), until: deadline),
            request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count,
            let header = Self.receive(fd, count: 8, until: deadline), header[0] == 0, header[2] == 11
        else { return .notRefused }
        // A refusal: its reason's length is in the header, the reason begins the body.
        let body = Self.receive(fd, count: (Int(header[6]) | Int(header[7]) << 8) * 4, until: deadline) ?? []
        let reason = String(decoding: body.prefix(Int(header[1])), as: UTF8.self).trimmingWhitespace
        return reason.isEmpty ? .notRefused : .refused(reason)
    }

    /// Reads `count` bytes; nil when the deadline passes or the connection ends first.
    private static func receive(_ fd: Int32, count: Int, until deadline: MonotonicInstant) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            guard DisplayOpener.wait(fd, for: Int16(POLLIN), until: deadline) else { return nil }
            let got = bytes[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0, errno == EINTR || errno == EAGAIN { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    /// A connected, non-blocking socket to the server, or nil when nothing could be reached
    /// before the deadline.
    func connect(until deadline: MonotonicInstant) -> Int32? {
        guard let host else {
            let path = localPath
            return connectLocal(path, abstract: true, until: deadline)
                ?? connectLocal(path, abstract: false, until: deadline)
                ?? (fallsBackToTCP ? connectTCP("localhost", until: deadline) : nil)
        }
        return connectTCP(host, until: deadline)
    }

    private func connectTCP(_ host: String, until deadline: MonotonicInstant) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(6000 + number), &hints, &list) == 0 else { return nil }
        defer { freeaddrinfo(list) }
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { continue }
            if finishConnect(fd, Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen), until: deadline) {
                return fd
            }
            close(fd)
        }
        return nil
    }

    private func connectLocal(_ path: String, abstract: Bool, until deadline: MonotonicInstant) -> Int32? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let length = withUnsafeMutableBytes(of: &address.sun_path) { raw -> Int in
            let start = abstract ? 1 : 0  // an abstract name starts with a NUL byte
            guard start + bytes.count < raw.count else { return -1 }
            for (index, byte) in bytes.enumerated() { raw[start + index] = byte }
            return start + bytes.count
        }
        guard length > 0 else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
        let size = socklen_t(MemoryLayout<sa_family_t>.size + length + (abstract ? 0 : 1))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, size) }
        }
        if finishConnect(fd, result, until: deadline) { return fd }
        close(fd)
        return nil
    }

    /// Completes a non-blocking connect.
    private func finishConnect(_ fd: Int32, _ result: Int32, until deadline: MonotonicInstant) -> Bool {
        if result == 0 { return true }
        guard errno == EINPROGRESS || errno == EAGAIN,
            DisplayOpener.wait(fd, for: Int16(POLLOUT), until: deadline)
        else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }
}

/// Standard error captured while a C library writes to it directly.
enum StandardErrorCapture {
    /// Runs `body` with file descriptor 2 pointing into a pipe; returns what was written, or nil
    /// when standard error was left as it is.
    ///
    /// Only in a process of one thread: file descriptors are the whole process's, so another
    /// thread's writes would land in the pipe, and two captures at once could restore each
    /// other's pipe for good. The pipe does not block a writer when full (whatever does not fit
    /// is dropped), and file descriptor 2 is restored before this returns. When no pipe can be
    /// made, `body` runs with standard error as it is.
    static func during(_ body: () -> Void) -> String? {
        var ends: [Int32] = [-1, -1]
        guard threadCount() == 1, pipe(&ends) == 0 else {
            body()
            return nil
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let saved = dup(2)
        guard saved >= 0, dup2(ends[1], 2) >= 0 else {
            close(ends[0])
            close(ends[1])
            if saved >= 0 { close(saved) }
            body()
            return nil
        }
        body()
        dup2(saved, 2)
        close(saved)
        close(ends[1])
        var captured: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while captured.count < 65536 {
            let got = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            captured += buffer[0..<got]
        }
        close(ends[0])
        return String(decoding: captured, as: UTF8.self)
    }

    /// How many threads this process runs (`/proc/self/stat`'s 20th field); 0 when unknown.
    static func threadCount() -> Int {
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        // "pid (comm) state ppid …": the command may hold spaces and parentheses; the fields
        // after its last parenthesis are the third on.
        let text = buffer.prefix(count)
        guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return 0 }
        let fields = text[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 17 else { return 0 }
        return Int(String(decoding: fields[17], as: UTF8.self)) ?? 0
    }
}
