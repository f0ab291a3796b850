internal import CX11

/// Who animates tooltips: X11UI, or a compositor that fades tooltip windows itself
/// (``CompositorFades``).
extension Application {
    /// Whether the compositor fades tooltip windows itself: asked the first time a tooltip
    /// could fade (a few round trips, each name at most 256 bytes), again after the compositor
    /// changed.
    var compositorFadesToolTips: Bool {
        if let known = compositorFadesKnown { return known }
        let resource = connection.resources.string(
            names: [Window.programName, CompositorFades.resourceAttribute], classes: ["X11UI", "CompositorFadesPopups"])
        let fades = CompositorFades.decide(
            environment: Environment.value(CompositorFades.environmentVariable), resource: resource,
            windowManagerName: windowManagerName, compositorName: compositorOwnerName,
            badValue: {
                Log.warning("\"\($0.prefix(32))\" does not say whether the compositor fades tooltips (1 or 0)")
            })
        compositorFadesKnown = fades
        return fades
    }

    /// The compositor may be another one: who fades is asked again next time.
    func compositorDidChange() { compositorFadesKnown = nil }

    /// The window manager's name (`_NET_WM_NAME` of the window `_NET_SUPPORTING_WM_CHECK`
    /// names, when that window names itself too: a stale id left by a manager that quit does
    /// not count).
    private var windowManagerName: String? {
        let atoms = connection.atoms
        guard let check = connection.property(connection.root, atoms.netSupportingWMCheck, maxItems: 1)?.items.first,
            check != 0,
            connection.property(UInt(bitPattern: check), atoms.netSupportingWMCheck, maxItems: 1)?.items.first == check
        else { return nil }
        return name(of: UInt(bitPattern: check))
    }

    /// The name of the window that owns the compositing manager selection.
    private var compositorOwnerName: String? {
        guard connection.isUsable else { return nil }
        let owner = XGetSelectionOwner(connection.display, connection.atoms.compositorSelection)
        return owner == 0 ? nil : name(of: owner)
    }

    /// A window's `_NET_WM_NAME`, else its `WM_NAME` (at most 256 bytes).
    private func name(of window: UInt) -> String? {
        for property in [connection.atoms.netWMName, connection.atoms.wmName] {
            if let value = connection.property(window, property, maxItems: 64), value.format == 8 {
                return String(decoding: value.items.prefix(256).map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
            }
        }
        return nil
    }
}
