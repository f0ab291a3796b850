import CXTest
import Foundation
import Synchronization

/// A proxy between X clients and an X server that counts what crosses it and, optionally,
/// delays it (to imitate a remote X connection).
///
/// Counting: the client-to-server stream is parsed request by request (the 2-byte length of
/// each request, or the 4-byte one of BIG-REQUESTS); the server-to-client stream message by
/// message (32-byte events and errors; replies and generic events with their extra length).
/// Xlib blocks for every reply; replies that come back together, with no request from the
/// client between them (`XInternAtoms` sends its requests first, then reads every reply), are
/// one wait: `roundTrips` counts those waits.
public final class XProxy: @unchecked Sendable {
    /// What crossed the proxy.
    public struct Counts: Sendable {
        public var requests = 0
        public var replies = 0
        /// Synchronous round trips: runs of replies with no client request between them.
        public var roundTrips = 0
        public var events = 0
        public var errors = 0
        public var bytesUp = 0
        public var bytesDown = 0
        /// Connections the proxy accepted.
        public var connections = 0
        /// Requests by major opcode (extensions' majors are assigned by the server).
        public var opcodes: [UInt8: Int] = [:]

        /// What crossed between two snapshots.
        public static func - (a: Counts, b: Counts) -> Counts {
            var opcodes = a.opcodes
            for (op, n) in b.opcodes { opcodes[op, default: 0] -= n }
            return Counts(
                requests: a.requests - b.requests, replies: a.replies - b.replies,
                roundTrips: a.roundTrips - b.roundTrips, events: a.events - b.events,
                errors: a.errors - b.errors, bytesUp: a.bytesUp - b.bytesUp, bytesDown: a.bytesDown - b.bytesDown,
                connections: a.connections - b.connections, opcodes: opcodes.filter { $0.value != 0 })
        }
    }

    /// The display clients connect to (`:N` over a Unix socket, or `127.0.0.1:N` over TCP).
    public let display: String
    private let listener: Int32
    private let serverSocketPath: String
    private let latencyNanoseconds: UInt64
    private let counts = Mutex(Counts())
    /// Broadcast after each change of the counts, for `wait(timeout:until:)`.
    private let countsChanged = NSCondition()
    /// The counts when a client's first MapWindow request crossed (nil: none yet).
    private let firstMap = Mutex<Counts?>(nil)
    private let stopFlag = Atomic<Bool>(false)
    /// Written by `stop()` to wake the forwarding thread out of its poll.
    private let wake: (read: Int32, write: Int32)
    /// Signalled by the forwarding thread when it has closed every descriptor and returns.
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private let unixPath: String?
    private let lockPath: String

    /// Listens as a free display number and forwards to the server's socket of `serverDisplay`.
    ///
    /// The number is claimed the way X servers claim theirs: by creating its lock file
    /// (`/tmp/.X<n>-lock`) exclusively, so two proxies, or a proxy and an Xvfb starting with
    /// `-displayfd`, never take the same one; it is not guessed from which files exist.
    ///
    /// - Parameters:
    ///   - firstDisplay: the first number tried; the next ones are tried in turn.
    ///   - latency: the delay added in each direction.
    ///   - tcp: listen on TCP port 6000 + the number (a remote display), not a Unix socket.
    public init(serverDisplay: Int, firstDisplay: Int = 600, latency: Duration = .zero, tcp: Bool = false) throws {
        serverSocketPath = "/tmp/.X11-unix/X\(serverDisplay)"
        latencyNanoseconds = UInt64(max(0, latency.nanoseconds))
        var claimed: (number: Int, fd: Int32)?
        for number in firstDisplay..<(firstDisplay + 200) {
            guard let lock = XProxy.claimLock(number) else { continue }
            guard let fd = XProxy.boundSocket(display: number, tcp: tcp) else {
                unlink(lock)
                continue
            }
            claimed = (number, fd)
            break
        }
        guard let claimed else {
            throw ProxyError(description: "no free display number from \(firstDisplay) on")
        }
        lockPath = XProxy.lockPath(claimed.number)
        unixPath = tcp ? nil : XProxy.socketPath(claimed.number)
        display = tcp ? "127.0.0.1:\(claimed.number)" : ":\(claimed.number)"
        listener = claimed.fd
        listen(listener, 16)
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe2(&pipeEnds, O_CLOEXEC) == 0 else {
            close(listener)
            if let unixPath { unlink(unixPath) }
            unlink(lockPath)
            throw ProxyError(description: "no pipe for the forwarding thread")
        }
        wake = (pipeEnds[0], pipeEnds[1])
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    deinit {
        stop()
    }

    /// The core protocol's MapWindow request.
    static let mapWindowOpcode: UInt8 = 8

    /// Stops listening and forwarding, and removes the socket: returns once the forwarding
    /// thread has closed its connections and the listener (or after 5 s, should it be stuck).
    public func stop() {
        guard !stopFlag.exchange(true, ordering: .relaxed) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        _ = finished.wait(timeout: .now() + 5)
        close(wake.write)
        if let unixPath { unlink(unixPath) }
        unlink(lockPath)
    }

    /// The counts so far.
    public var snapshot: Counts { counts.withLock { $0 } }

    /// Waits until `condition` holds for the counts, woken by each message that crosses the
    /// proxy; returns whether it held within `timeout` seconds.
    public func wait(timeout: TimeInterval, until condition: (Counts) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        countsChanged.lock()
        defer { countsChanged.unlock() }
        while !condition(snapshot) {
            guard countsChanged.wait(until: deadline) else { return condition(snapshot) }
        }
        return true
    }

    /// The counts when the first MapWindow request since `resetFirstMap()` crossed the proxy:
    /// its `replies` are the round trips a program waited for before it mapped a window.
    public var countsAtFirstMap: Counts? { firstMap.withLock { $0 } }

    /// Forgets the first MapWindow seen, to time the next program's.
    public func resetFirstMap() { firstMap.withLock { $0 = nil } }

    /// Why the proxy could not listen.
    public struct ProxyError: Error, CustomStringConvertible { public let description: String }

    /// Calls `body` (bind, connect) with a socket address as the `sockaddr` pointer and length
    /// the socket calls take.
    private static func lockPath(_ number: Int) -> String { "/tmp/.X\(number)-lock" }
    private static func socketPath(_ number: Int) -> String { "/tmp/.X11-unix/X\(number)" }

    /// Creates the lock file of display `number` if no one holds it (with this process's id,
    /// as X servers write theirs); returns its path, or nil when the number is taken.
    private static func claimLock(_ number: Int) -> String? {
        let path = lockPath(number)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o444)
        guard fd >= 0 else { return nil }
        let text = Array(String(format: "%10d\n", getpid()).utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    /// A listening socket for display `number`, whose lock this process holds (so a socket
    /// file left there is a dead server's and goes); nil when the address cannot be bound.
    private static func boundSocket(display number: Int, tcp: Bool) -> Int32? {
        let fd: Int32
        let bound: Int32
        if tcp {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(6000 + number).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            bound = UnixSocket.withSocketAddress(&address) { bind(fd, $0, $1) }
        } else {
            let path = socketPath(number)
            unlink(path)
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            bound = UnixSocket.bind(fd, to: path)
        }
        guard fd >= 0, bound == 0 else {
            if fd >= 0 { close(fd) }
            return nil
        }
        return fd
    }

    // MARK: - Forwarding

    /// One direction of one connection: bytes waiting to be written, with their release time,
    /// and the parser's state.
    private final class Stream {
        let from: Int32
        let to: Int32
        let upstream: Bool
        var pending: [(due: UInt64, data: [UInt8])] = []
        var parser: MessageParser
        /// Whether the client sent a request since the last reply: the next reply starts a new
        /// round trip. Shared by the two directions of one connection.
        let requestedSinceReply: Flag
        init(from: Int32, to: Int32, upstream: Bool, requestedSinceReply: Flag) {
            self.from = from
            self.to = to
            self.upstream = upstream
            self.requestedSinceReply = requestedSinceReply
            parser = MessageParser(clientToServer: upstream)
        }
    }

    private final class Flag {
        var value = false
    }

    private func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private func run() {
        var streams: [Stream] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !stopFlag.load(ordering: .relaxed) {
            let polled = streams.count  // streams accepted below wait for the next poll
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            for stream in streams { fds.append(pollfd(fd: stream.from, events: Int16(POLLIN), revents: 0)) }
            fds.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0))
            let due = streams.compactMap { $0.pending.first?.due }.min()
            // Nothing to write later: sleep until a descriptor is ready (`stop()` writes one).
            let timeout: Int32 = due.map { Int32(max(0, (Int64($0) - Int64(now()) + 999_999) / 1_000_000)) } ?? -1
            _ = poll(&fds, nfds_t(fds.count), timeout)
            if stopFlag.load(ordering: .relaxed) { break }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    counts.withLock { $0.connections += 1 }
                    countsChanged.lock()
                    countsChanged.broadcast()
                    countsChanged.unlock()
                    let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                    if UnixSocket.connect(server, to: serverSocketPath) == 0 {
                        var noDelay: Int32 = 1
                        setsockopt(
                            client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
                        let flag = Flag()
                        streams.append(Stream(from: client, to: server, upstream: true, requestedSinceReply: flag))
                        streams.append(Stream(from: server, to: client, upstream: false, requestedSinceReply: flag))
                    } else {
                        close(client)
                        close(server)
                    }
                }
            }
            var closed: Set<Int32> = []
            for (index, stream) in streams.prefix(polled).enumerated() where fds[index + 1].revents != 0 {
                let n = read(stream.from, &buffer, buffer.count)
                if n <= 0 {
                    closed.insert(stream.from)
                    closed.insert(stream.to)
                    continue
                }
                let data = Array(buffer[0..<n])
                let tally = stream.parser.feed(data)
                let flag = stream.requestedSinceReply
                var newRoundTrip = false
                if stream.upstream, tally.requests > 0 { flag.value = true }
                if !stream.upstream, tally.replies > 0, flag.value {
                    flag.value = false
                    newRoundTrip = true
                }
                defer {
                    countsChanged.lock()
                    countsChanged.broadcast()
                    countsChanged.unlock()
                }
                counts.withLock { c in
                    if stream.upstream {
                        c.requests += tally.requests
                        for op in tally.opcodes { c.opcodes[op, default: 0] += 1 }
                        c.bytesUp += n
                        if tally.opcodes.contains(XProxy.mapWindowOpcode) {
                            firstMap.withLock { if $0 == nil { $0 = c } }
                        }
                    } else {
                        c.replies += tally.replies
                        if newRoundTrip { c.roundTrips += 1 }
                        c.events += tally.events
                        c.errors += tally.errors
                        c.bytesDown += n
                    }
                }
                stream.pending.append((now() + latencyNanoseconds, data))
            }
            let t = now()
            for stream in streams where !closed.contains(stream.to) {
                while let first = stream.pending.first, first.due <= t {
                    stream.pending.removeFirst()
                    var offset = 0
                    while offset < first.data.count {
                        let written = first.data[offset...].withUnsafeBytes {
                            write(stream.to, $0.baseAddress, $0.count)
                        }
                        if written <= 0 { break }
                        offset += written
                    }
                }
            }
            if !closed.isEmpty {
                for fd in closed { close(fd) }
                streams.removeAll { closed.contains($0.from) || closed.contains($0.to) }
            }
        }
        for stream in streams { close(stream.from) }
        close(listener)
        close(wake.read)
        finished.signal()
    }
}

/// Splits an X protocol byte stream into messages and counts them (little-endian clients).
public struct MessageParser {
    /// Whether this parses the client's requests (else the server's replies, events, errors).
    public let clientToServer: Bool
    private var buffer: [UInt8] = []
    private var setupDone = false

    public init(clientToServer: Bool) {
        self.clientToServer = clientToServer
    }

    /// The complete messages one `feed` finished.
    public struct Tally: Equatable {
        /// The requests' major opcodes, in order.
        public var opcodes: [UInt8] = []
        public var requests = 0
        public var replies = 0
        /// Synchronous round trips: runs of replies with no client request between them.
        public var roundTrips = 0
        public var events = 0
        public var errors = 0

        /// Nothing counted.
        public init() {}
    }

    private func u16(_ i: Int) -> Int { Int(buffer[i]) | Int(buffer[i + 1]) << 8 }
    private func u32(_ i: Int) -> Int {
        Int(buffer[i]) | Int(buffer[i + 1]) << 8 | Int(buffer[i + 2]) << 16 | Int(buffer[i + 3]) << 24
    }

    /// Adds bytes; returns what complete messages they finished.
    public mutating func feed(_ bytes: [UInt8]) -> Tally {
        buffer += bytes
        var tally = Tally()
        var offset = 0
        while true {
            let available = buffer.count - offset
            let length: Int
            if !setupDone {
                if clientToServer {
                    // byte order, pad, major, minor, name length, data length, pad; then both, padded.
                    guard available >= 12 else { break }
                    let n = u16(offset + 6)
                    let d = u16(offset + 8)
                    length = 12 + (n + 3) / 4 * 4 + (d + 3) / 4 * 4
                } else {
                    guard available >= 8 else { break }
                    length = 8 + u16(offset + 6) * 4
                }
                guard available >= length else { break }
                setupDone = true
            } else if clientToServer {
                guard available >= 4 else { break }
                let units = u16(offset + 2)
                if units == 0 {  // BIG-REQUESTS
                    guard available >= 8 else { break }
                    length = u32(offset + 4) * 4
                } else {
                    length = units * 4
                }
                guard length >= 4, available >= length else { break }
                tally.requests += 1
                tally.opcodes.append(buffer[offset])
            } else {
                guard available >= 32 else { break }
                let type = buffer[offset] & 0x7f
                switch type {
                case 0:
                    length = 32
                    tally.errors += 1
                case 1:
                    length = 32 + u32(offset + 4) * 4
                    tally.replies += 1
                case 35:
                    length = 32 + u32(offset + 4) * 4
                    tally.events += 1
                default:
                    length = 32
                    tally.events += 1
                }
                guard available >= length else {
                    if type == 0 {
                        tally.errors -= 1
                    } else if type == 1 {
                        tally.replies -= 1
                    } else {
                        tally.events -= 1
                    }
                    break
                }
            }
            offset += length
        }
        buffer.removeFirst(offset)
        return tally
    }
}
