/// The id of an X window, as Xlib's `Window` type holds it.
///
/// X11UI hands ids out (`Window.windowID`, `ToolTipController.windowID`) and takes them in
/// (`Window(embeddedIn:frame:content:application:)`, `ForeignWindow(windowID:application:)`)
/// as this type rather than as a bare integer. Pass `rawValue` to Xlib, and wrap an Xlib
/// `Window` with `X11WindowID(rawValue:)`:
///
/// ```swift
/// let foreign = ForeignWindow(windowID: X11WindowID(rawValue: hostWindow), application: app)
/// XMoveWindow(display, window.windowID!.rawValue, 10, 10)
/// ```
public struct X11WindowID: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// The id as Xlib's `Window` (an `unsigned long`).
    public let rawValue: UInt

    /// Wraps an Xlib window id.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The id in hexadecimal, as `xwininfo` and `xprop` write it (`0x1a00003`).
    public var description: String { "0x" + String(rawValue, radix: 16) }
}
