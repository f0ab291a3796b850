internal import CX11

/// Finds the AT-SPI2 accessibility bus the way GTK 4, Qt and AccessKit do:
/// `AT_SPI_BUS_ADDRESS`, else `org.a11y.Bus.GetAddress` on the session bus, else the root
/// window's `AT_SPI_BUS` property (set by at-spi-bus-launcher for programs without a session
/// bus). Nothing is loaded or connected when none of them is there.
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
                let address = reply?.arguments.first?.stringValue
                guard let application else { return }
                found(address.flatMap { $0.isEmpty ? nil : $0 } ?? rootWindowAddress(application))
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
        guard atom != 0, let value = connection.stringProperty(connection.root, UInt(atom)) else { return nil }
        let address = String(value.unicodeScalars.filter { $0.value > 0x20 })
        return address.isEmpty ? nil : address
    }
}
