internal import CX11
internal import Glibc

/// A bounded look at an X server before Xlib connects to it.
///
/// `XOpenDisplay` reads the server's connection setup with blocking reads and no timeout, so a
/// server that accepts and never answers (a stopped or wedged server, a port held by another
/// program) or sends half a setup would hang the program at start with nothing said. Before
/// Xlib connects, X11UI opens the same socket itself, sends a setup request, and waits a bounded
/// time for a whole, well-formed setup answer (accepted or refused: either shows the server is
/// alive). Names it cannot resolve to a socket are left to Xlib, which reports them itself.
enum DisplayProbe {
    /// What the probe learned.
    enum Outcome: Equatable {
        /// The server answered in time (or the name is not one the probe can reach: Xlib will
        /// try, and fail quickly if nothing is there).
        case answered
        /// The server answered the probe's setup (which carries no authorization) with a
        /// refusal, and said why.
        case refused(reason: String)
        /// A connection was made but no complete setup came back in time.
        case timedOut
        /// The server sent something that is not an X setup answer.
        case garbled
        /// The server closed the connection without answering.
        case closed
    }

    /// Connects to the server of `name` and waits up to `timeout` for its setup answer.
    ///
    /// `body` runs (Xlib connects) while the probe's connection is still open: a server that
    /// resets when its last client leaves (Xvfb and a bare Xorg do) would otherwise drop
    /// Xlib's connection in the middle of its setup.
    static func check<Result, Failure: Error>(
        _ name: String, timeout: Duration, then body: (Outcome) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let address = DisplayAddress(name) else { return try body(.answered) }
        let deadline = MonotonicInstant.now() + timeout
        while true {
            guard let fd = address.connect(until: deadline) else { return try body(.answered) }
            defer { close(fd) }
            let outcome = answer(on: fd, until: deadline)
            // A server that closes a connection without a word is resetting (its last client
            // just left): it is back within milliseconds, so ask again.
            if outcome == .closed, MonotonicInstant.now() + .milliseconds(10) < deadline {
                var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&pause, nil)
                continue
            }
            return try body(outcome == .closed ? .timedOut : outcome)
        }
    }

    /// Sends a setup request and reads the whole answer.
    static func answer(on fd: Int32, until deadline: MonotonicInstant) -> Outcome {
        // Byte order 'l', protocol 11.0, no authorization: a server that wants some refuses,
        // which is an answer too.
        let request: [UInt8] = [0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        var closed = false
        guard send(fd, request, until: deadline, closed: &closed) else { return closed ? .closed : .timedOut }
        guard let header = receive(fd, count: 8, until: deadline, closed: &closed) else {
            return closed ? .closed : .timedOut
        }
        // Status 0 refused, 1 accepted, 2 authenticate; refusals and acceptances name 11.
        guard header[0] <= 2, header[0] == 2 || (header[2] == 11 && header[3] == 0) else { return .garbled }
        let remaining = (Int(header[6]) | Int(header[7]) << 8) * 4
        guard let body = receive(fd, count: remaining, until: deadline, closed: &closed) else { return .timedOut }
        if header[0] == 0 {
            // A refusal: its reason's length is in the header, the reason begins the body.
            let reason = String(decoding: body.prefix(Int(header[1])), as: UTF8.self)
            return .refused(reason: reason)
        }
        return .answered
    }

    /// Sends `bytes`; false when the deadline passes or the connection ends first (`closed`
    /// then says so).
    ///
    /// A resetting server closes the connections it accepted but had not set up yet: when the
    /// probe's thread runs late (a busy machine), that close comes before the request is sent,
    /// and the send fails with EPIPE (or ECONNRESET) instead of the read seeing the end. It is
    /// the same close, and the probe asks again.
    private static func send(
        _ fd: Int32, _ bytes: [UInt8], until deadline: MonotonicInstant, closed: inout Bool
    ) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return false }
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR || errno == EAGAIN { continue }
            guard sent > 0 else {
                closed = sent < 0 && (errno == EPIPE || errno == ECONNRESET)
                return false
            }
            offset += sent
        }
        return true
    }

    /// Reads `count` bytes; nil when the deadline passes or the connection ends first
    /// (`closed` then says so).
    private static func receive(
        _ fd: Int32, count: Int, until deadline: MonotonicInstant, closed: inout Bool
    ) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            guard wait(fd, for: Int16(POLLIN), until: deadline) else { return nil }
            let got = bytes[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0, errno == EINTR || errno == EAGAIN { continue }
            guard got > 0 else {
                closed = true
                return nil
            }
            offset += got
        }
        return bytes
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
/// host name is TCP port 6000 + the display number.
struct DisplayAddress: Equatable {
    /// The host; nil for a local socket.
    var host: String?
    /// The display number.
    var number: Int

    /// Parses `[protocol/][host]:number[.screen]`; nil for what the probe does not handle
    /// (socket paths, DECnet's `::`, IPv6 literals).
    init?(_ name: String) {
        var rest = Substring(name)
        var tcpOnly = false
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") {
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
        } else {
            self.host = String(host)
        }
    }

    /// A connected, non-blocking socket to the server, or nil when nothing could be reached
    /// before the deadline.
    func connect(until deadline: MonotonicInstant) -> Int32? {
        guard let host else {
            let path = "/tmp/.X11-unix/X\(number)"
            return connectLocal(path, abstract: true, until: deadline)
                ?? connectLocal(path, abstract: false, until: deadline)
        }
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
            DisplayProbe.wait(fd, for: Int16(POLLOUT), until: deadline)
        else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }
}

/// Standard error captured while a C library writes to it directly.
enum StandardErrorCapture {
    /// Runs `body` with file descriptor 2 pointing into a pipe; returns what was written.
    ///
    /// The pipe does not block a writer when full (whatever does not fit is dropped), and
    /// file descriptor 2 is restored before this returns. When no pipe can be made, `body`
    /// runs with standard error as it is.
    static func during(_ body: () -> Void) -> String {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            body()
            return ""
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
            return ""
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
}
