/// Whether the compositor animates tooltip windows itself, so that X11UI's own fade would be a
/// second one after it: KWin's "fading popups" effect fades every tooltip window, and picom or
/// xcompmgr with fading on fade every window. X11UI then shows and hides its tooltips at once
/// and lets the compositor fade them: one fade, the compositor's.
///
/// The user says so, or X11UI recognises the compositor:
/// - `X11UI_COMPOSITOR_FADES` in the environment: `1` (or `true`, `yes`, `on`) for a compositor
///   that fades tooltips, `0` (or `false`, `no`, `off`) for one that does not; it wins over
///   everything else.
/// - The X resource `X11UI.compositorFadesPopups` (or `<program>.compositorFadesPopups`),
///   `true` or `false` the same way.
/// - Otherwise KWin, recognised by name: the window manager's (`_NET_SUPPORTING_WM_CHECK`'s
///   window's `_NET_WM_NAME`) or that of the window owning the compositing manager selection.
enum CompositorFades {
    /// The environment variable that says whether the compositor fades tooltips.
    static let environmentVariable = "X11UI_COMPOSITOR_FADES"
    /// The X resource attribute that says the same.
    static let resourceAttribute = "compositorFadesPopups"

    /// The decision; `badValue` is called with the text of a setting that is not a yes or no
    /// (which then counts as unsaid).
    static func decide(
        environment: String?, resource: String?, windowManagerName: String?, compositorName: String?,
        badValue: (String) -> Void = { _ in }
    ) -> Bool {
        for setting in [environment, resource] {
            guard let setting else { continue }
            if let answer = yesOrNo(setting) { return answer }
            badValue(setting)
        }
        return [windowManagerName, compositorName].contains { $0.map(isKWin) ?? false }
    }

    /// KWin by its own names ("KWin", "kwin_x11", "kwin_wayland").
    static func isKWin(_ name: String) -> Bool {
        name.trimmingWhitespace.lowercased().hasPrefix("kwin")
    }

    /// `true` for yes, `false` for no, nil for anything else.
    static func yesOrNo(_ text: String) -> Bool? {
        switch text.trimmingWhitespace.lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off": false
        default: nil
        }
    }
}
