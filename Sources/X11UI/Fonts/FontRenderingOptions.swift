internal import CX11

/// How glyphs are rendered, as the desktop asks (its XSETTINGS `Xft/Antialias`, `Xft/Hinting`,
/// `Xft/HintStyle` and `Xft/RGBA`): each nil where it says nothing.
///
/// They go into every font request ahead of fontconfig's configuration, as the first value of
/// each element: a rule of the configuration that appends (Debian's `10-hinting-slight.conf`,
/// `10-yes-antialias.conf`) then leaves them first, where Xft reads, and one the user wrote to
/// assign a value still wins. What the desktop leaves nil is decided as before: by the
/// configuration, then by the `Xft.*` X resources, which Xft adds where nothing else did.
struct FontRenderingOptions: Hashable, Sendable {
    var antialias: Bool?
    var hinting: Bool?
    /// fontconfig's `hintstyle`: `FC_HINT_NONE` … `FC_HINT_FULL` (0–3).
    var hintStyle: Int32?
    /// fontconfig's `rgba`: `FC_RGBA_RGB` … `FC_RGBA_NONE` (1–5).
    var subpixelOrder: Int32?

    /// The fontconfig values of the desktop's names (`hintslight`, `rgb`); unknown names are nil.
    init(antialias: Bool? = nil, hinting: Bool? = nil, hintStyle: String? = nil, subpixelOrder: String? = nil) {
        self.antialias = antialias
        self.hinting = hinting
        let styles: [String: Int32] = ["hintnone": 0, "hintslight": 1, "hintmedium": 2, "hintfull": 3]
        self.hintStyle = hintStyle.flatMap { styles[$0] }
        let orders: [String: Int32] = ["rgb": 1, "bgr": 2, "vrgb": 3, "vbgr": 4, "none": 5]
        self.subpixelOrder = subpixelOrder.flatMap { orders[$0] }
    }

    /// Adds the options that are set to a font request.
    func apply(to pattern: OpaquePointer) {
        if let antialias { FcPatternAddBool(pattern, "antialias", antialias ? 1 : 0) }
        if let hinting { FcPatternAddBool(pattern, "hinting", hinting ? 1 : 0) }
        if let hintStyle { FcPatternAddInteger(pattern, "hintstyle", hintStyle) }
        if let subpixelOrder { FcPatternAddInteger(pattern, "rgba", subpixelOrder) }
    }
}
