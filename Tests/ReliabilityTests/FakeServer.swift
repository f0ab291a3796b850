import Foundation
import Synchronization
import X11TestSupport

/// A socket that poses as an X server on a display number and answers every connection in one
/// scripted way: never, half a setup, garbage, a refusal with a reason, or a real setup followed
/// by silence. It listens on the display's local socket, or on its TCP port on the loopback
/// address.
final class FakeServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Accepts and never answers.
        case silent
        /// Sends the first 8 bytes of an accepting setup that announces more, then nothing.
        case partialSetup
        /// Answers with something that is not X (an HTTP error page) and keeps the connection.
        case garbage
        /// Answers with something that is not X and closes the connection.
        case garbageThenClose
        /// Refuses the connection with this reason, after reading the setup request, and closes.
        case refuse(String)
        /// Refuses with this reason as soon as it accepts, before reading anything, and keeps
        /// the connection open.
        case refuseAtOnce(String)
        /// Answers the setup request with these bytes (a real server's accepting setup), then
        /// reads requests and answers none.
        case setupThenSilence([UInt8])
    }

    let number: Int
    /// The display name: `:N`, or `127.0.0.1:N` for a server on TCP.
    let display: String
    private let listener: Int32
    private let path: String?
    private let stopped = Mutex(false)
    private let connections = Mutex(0)
    private var held: [Int32] = []

    /// Where the next server's search for a free display number starts.
    private static let nextNumber = Mutex(41000 + Int(getpid() % 400) * 40)

    /// How many connections the server accepted.
    var connectionCount: Int { connections.withLock { $0 } }

    init(_ behaviour: Behaviour, tcp: Bool = false) throws {
        // Display numbers far above those XvfbServer picks, distinct per process and never
        // handed out twice in one (tests run in parallel: a number a stopped server left free
        // must not come back as another test's server while the first test still names it); a
        // TCP port is 6000 + the number.
        var number = Self.nextNumber.withLock { next in
            let first = next
            next += 40
            return first
        }
        var fd: Int32 = -1
        var path: String?
        for _ in 0..<40 {
            // A TCP server's number has no local socket either: libxcb tries `:N` there first.
            if tcp, !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
                fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var reuse: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(6000 + number).bigEndian
                address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                if bound == 0 { break }
            } else if !tcp {
                let candidate = "/tmp/.X11-unix/X\(number)"
                if !FileManager.default.fileExists(atPath: candidate) {
                    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                    if UnixSocket.bind(fd, to: candidate) == 0 {
                        path = candidate
                        break
                    }
                }
            }
            if fd >= 0 { close(fd) }
            fd = -1
            number += 1
        }
        guard fd >= 0 else { throw XvfbServer.StartError(description: "no free display for a fake server") }
        listen(fd, 64)
        self.number = number
        self.path = path
        display = tcp ? "127.0.0.1:\(number)" : ":\(number)"
        listener = fd
        let thread = Thread { [self] in serve(behaviour) }
        thread.start()
    }

    deinit { stop() }

    func stop() {
        guard
            !stopped.withLock({
                let was = $0
                $0 = true
                return was
            })
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        if let path { unlink(path) }
    }

    /// The accepting setup answer of a real server (Xvfb) to a client without authorization.
    static func setupAnswer(of server: XvfbServer) throws -> [UInt8] {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        guard UnixSocket.connect(fd, to: "/tmp/.X11-unix/X\(server.number)") == 0 else {
            throw XvfbServer.StartError(description: "cannot reach \(server.display)")
        }
        let request: [UInt8] = [0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var header = [UInt8](repeating: 0, count: 8)
        guard recv(fd, &header, 8, Int32(MSG_WAITALL)) == 8, header[0] == 1 else {
            throw XvfbServer.StartError(description: "no setup from \(server.display)")
        }
        var body = [UInt8](repeating: 0, count: (Int(header[6]) | Int(header[7]) << 8) * 4)
        guard recv(fd, &body, body.count, Int32(MSG_WAITALL)) == body.count else {
            throw XvfbServer.StartError(description: "half a setup from \(server.display)")
        }
        return header + body
    }

    private func serve(_ behaviour: Behaviour) {
        while !stopped.withLock({ $0 }) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) >= 0 else { return }
            guard descriptor.revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            connections.withLock { $0 += 1 }
            if case .refuseAtOnce(let reason) = behaviour {
                write(Self.refusal(reason), to: client)
                held.append(client)
                continue
            }
            var request = [UInt8](repeating: 0, count: 12)
            _ = recv(client, &request, 12, Int32(MSG_WAITALL))
            switch behaviour {
            case .silent, .refuseAtOnce: break
            case .partialSetup: write([1, 0, 11, 0, 0, 0, 0x40, 0], to: client)
            case .garbage, .garbageThenClose: write(Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8), to: client)
            case .refuse(let reason): write(Self.refusal(reason), to: client)
            case .setupThenSilence(let setup):
                write(setup, to: client)
                drain(client)
            }
            switch behaviour {
            case .refuse, .garbageThenClose: close(client)
            default: held.append(client)  // kept open: the client waits for the rest
            }
        }
        for fd in held { close(fd) }
    }

    /// A refusal (status 0) with a reason.
    private static func refusal(_ reason: String) -> [UInt8] {
        let bytes = Array(reason.utf8)
        let padded = bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
        return [0, UInt8(bytes.count), 11, 0, 0, 0, UInt8(padded.count / 4), 0] + padded
    }

    private func write(_ bytes: [UInt8], to fd: Int32) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads and drops what the client sends, on a thread of its own, until it closes.
    private func drain(_ fd: Int32) {
        let duplicate = dup(fd)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while recv(duplicate, &buffer, buffer.count, 0) > 0 {}
            close(duplicate)
        }.start()
    }
}
