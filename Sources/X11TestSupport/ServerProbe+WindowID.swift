import X11UI

/// The probe's look-ups by X11UI's typed window id; a window not created yet (nil) has no
/// attributes, properties or resources.
extension ServerProbe {
    /// Attributes of one window; nil when it is gone or was never created.
    public func info(_ window: X11WindowID?) -> WindowInfo? {
        window.flatMap { info($0.rawValue) }
    }

    /// A text property of one window (see `string(_:_:)` by number).
    public func string(_ window: X11WindowID?, _ property: String) -> String? {
        window.flatMap { string($0.rawValue, property) }
    }

    /// A format-32 property of one window (see `longs(_:_:)` by number).
    public func longs(_ window: X11WindowID?, _ property: String) -> [Int]? {
        window.flatMap { longs($0.rawValue, property) }
    }

    /// Server resources of the client owning `window` (none for a window never created).
    public func resourceCounts(ofClientOwning window: X11WindowID?) -> [String: Int] {
        window.map { resourceCounts(ofClientOwning: $0.rawValue) } ?? [:]
    }
}
