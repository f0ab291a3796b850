internal import CX11

/// Finds the AT-SPI2 accessibility bus the way GTK 4, Qt and AccessKit do:
/// `AT_SPI_BUS_ADDRESS`, else `org.a11y.Bus.GetAddress` on the session bus, else the root
/// window's `AT_SPI_BUS` property (set by at-spi-bus-launcher for programs without a session
/// bus). Nothing is loaded or connected when none of them is there. An address from another
/// process is taken only when it is a local socket's.
@MainActor
enum AccessibilityBus {
    /// Calls `found` with the bus address, or nil when there is none (at once or through the
    /// run loop; never blocking on a bus).
    static func findAddress(for application: Application, found: @escaping (String?) -> Void) {
        if let address = Environment.value("AT_SPI_BUS_ADDRESS"), !address.isEmpty {
            found(address)
            return
        }
        // The application's session-bus connection, kept for its life (it reads the desktop's
        // appearance on it too), asks: no second connection.
        if let bus = application.sessionBus,
            let call = bus.methodCall(
                destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress")
        {
            bus.call(call, timeout: .seconds(3)) { [weak application] reply in
                let address = reply?.arguments.first?.stringValue.flatMap(socketAddress)
                guard let application else { return }
                found(address ?? rootWindowAddress(application))
            }
            return
        }
        found(rootWindowAddress(application))
    }

    /// The root window's `AT_SPI_BUS` property, if at-spi-bus-launcher set one.
    private static func rootWindowAddress(_ application: Application) -> String? {
        let connection = application.connection
        guard connection.isUsable else { return nil }
        let atom = XInternAtom(connection.display, "AT_SPI_BUS", 1)  // only if it exists: no new atom
        guard atom != 0, let value = connection.property(connection.root, UInt(atom), maxItems: 1024),
            value.format == 8
        else { return nil }
        let text = String(decoding: value.items.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
        return socketAddress(String(text.unicodeScalars.filter { $0.value > 0x20 }))
    }

    /// `address` when each of its entries is a local socket's (`unix:path=…` or
    /// `unix:abstract=…`, as at-spi-bus-launcher writes them), else nil with a warning. An
    /// address another process gives (any X client can set the root window's property, any
    /// session-bus client can own `org.a11y.Bus`) must not make the program run a command
    /// (`unixexec:`), start a bus (`autolaunch:`) or wait on a remote host (`tcp:`).
    static func socketAddress(_ address: String) -> String? {
        guard !address.isEmpty else { return nil }
        let entries = address.split(separator: ";", omittingEmptySubsequences: true)
        let local =
            address.utf8.count <= 1024 && !entries.isEmpty
            && entries.allSatisfy { entry in
                guard entry.hasPrefix("unix:") else { return false }
                let keys = entry.dropFirst(5).split(separator: ",").map { $0.split(separator: "=").first ?? "" }
                return keys.allSatisfy { ["path", "abstract", "guid"].contains($0) }
                    && keys.contains { $0 == "path" || $0 == "abstract" }
            }
        guard local else {
            Log.warning("the accessibility bus's address \"\(address.prefix(64))\" is not a local socket's; ignored")
            return nil
        }
        return address
    }
}
