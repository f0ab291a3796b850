internal import CX11

/// A C library opened with `dlopen` the first time X11UI needs it, never linked, and kept for
/// the process's life: its functions, found by the shim's loader for it.
///
/// Each library the first window does not need is one less for the dynamic loader to map and
/// relocate at every start. When one is missing at run time, a one-line warning says what is
/// lost and the feature it serves degrades.
final class LoadedLibrary<Functions>: @unchecked Sendable {
    /// The table of functions (the shim's `cx11_…` struct), filled once and never changed.
    let functions: Functions

    /// Opens `soname` with `load`, the shim's loader; nil when the library or one of its
    /// functions is missing.
    init?(
        _ soname: String, empty: Functions,
        load: (UnsafeMutablePointer<Functions>, UnsafePointer<CChar>) -> Int32
    ) {
        var functions = empty
        guard soname.withCString({ load(&functions, $0) }) != 0 else { return nil }
        self.functions = functions
    }

    /// Opens `soname`, or warns (`consequence`: what is lost without it) and returns nil.
    static func open(
        _ soname: String, empty: Functions, load: (UnsafeMutablePointer<Functions>, UnsafePointer<CChar>) -> Int32,
        missing consequence: String
    ) -> LoadedLibrary? {
        guard let library = LoadedLibrary(soname, empty: empty, load: load) else {
            Log.warning("\(soname) cannot be loaded: \(consequence)")
            return nil
        }
        return library
    }
}

/// The X extension libraries, loaded when the extensions are first asked for (after the first
/// window shows, or when a tooltip needs its monitor before that).
enum ExtensionLibraries {
    /// libXrandr: the monitors and their changes. Without it the screen is one monitor.
    static let randr = LoadedLibrary.open(
        "libXrandr.so.2", empty: cx11_randr(), load: cx11_randr_load,
        missing: "the screen counts as one monitor and its changes are not followed")

    /// libXfixes: the compositor's selection-owner events. Without it a compositor that starts
    /// or stops after the first tooltip is not noticed.
    static let xfixes = LoadedLibrary.open(
        "libXfixes.so.3", empty: cx11_xfixes(), load: cx11_xfixes_load,
        missing: "a compositor that starts or stops later is not noticed")

    /// libXi: XInput 2.2's touch events. Without it a touchscreen reaches X11UI as the pointer
    /// the server emulates from it (no long press for tooltips).
    static let xi = LoadedLibrary.open(
        "libXi.so.6", empty: cx11_xi(), load: cx11_xi_load,
        missing: "touches arrive as an emulated pointer (no long press for tooltips)")
}
