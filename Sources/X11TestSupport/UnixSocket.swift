import Foundation

/// Binding and connecting sockets by address, for the test servers, the proxy and the tests.
public enum UnixSocket {
    /// Binds `fd` to the Unix socket file `path`; the result of `bind` (0 on success), -1 for a
    /// path too long for an address.
    public static func bind(_ fd: Int32, to path: String) -> Int32 {
        guard var address = address(path) else { return -1 }
        return withSocketAddress(&address) { Glibc.bind(fd, $0, $1) }
    }

    /// Connects `fd` to the Unix socket file `path`; the result of `connect`, -1 for a path too
    /// long for an address.
    public static func connect(_ fd: Int32, to path: String) -> Int32 {
        guard var address = address(path) else { return -1 }
        return withSocketAddress(&address) { Glibc.connect(fd, $0, $1) }
    }

    /// Calls `body` with any socket address as a `sockaddr` and its length.
    static func withSocketAddress<Address>(
        _ address: inout Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }

    /// The address of a Unix socket file; nil when the path does not fit (with its NUL).
    private static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}
