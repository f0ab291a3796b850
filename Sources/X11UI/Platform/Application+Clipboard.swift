extension Application {
    /// Puts text on the CLIPBOARD selection, where other programs paste it from (Ctrl+V); the
    /// application offers it until another program copies something. At most 1 MiB is offered.
    ///
    /// ```swift
    /// let copy = Button(title: "Copy", style: .plain) { app.copyToClipboard(address) }
    /// ```
    public func copyToClipboard(_ text: String) {
        selections.own(connection.atoms.clipboard, text: text, time: 0)
        connection.flush()
    }
}
