/// The appearance in force: the program's choice, else the desktop's, else light.
///
/// Views never read a setting themselves: they draw with named colours (``Color/label``,
/// ``Color/windowBackground`` …) that the window's paint resolves in ``Application/appearance``,
/// so a change reaches them as one repaint of every window, in the turn it happens.
///
/// ```swift
/// app.preferredAppearance = .dark          // the program's choice; nil follows the desktop
/// app.onAppearanceChange = { appearance in log("now \(appearance)") }
/// ```
extension Application {
    /// The appearance windows and tooltips are drawn in: ``preferredAppearance`` when the
    /// program set one (with the desktop's accent when it names none), else the desktop's.
    public var appearance: Appearance { appearanceState.inForce }

    /// The program's own appearance, overriding the desktop's; nil (the default) follows the
    /// desktop. Windows and a shown tooltip repaint in the new appearance in the same turn.
    public var preferredAppearance: Appearance? {
        get { appearanceState.preferred }
        set {
            appearanceState.preferred = newValue
            updateAppearance()
        }
    }

    /// Called after the appearance in force changed (the program's choice or the desktop's),
    /// with the new one, once every window has been asked to repaint in it.
    public var onAppearanceChange: ((Appearance) -> Void)? {
        get { appearanceState.onChange }
        set { appearanceState.onChange = newValue }
    }

    /// The desktop's appearance changed (or was read at start): the input of a reader of the
    /// desktop's settings.
    func desktopAppearanceDidChange(_ appearance: Appearance) {
        appearanceState.desktop = appearance
        updateAppearance()
    }

    /// The portal's settings changed (or were read): its appearance, and its motion setting
    /// merged into the desktop's settings (``DesktopSettings/enableAnimations``).
    func desktopPortalDidChange(_ settings: PortalAppearanceSettings) {
        desktopAppearanceDidChange(settings.appearance)
        guard settings.reducesMotion != appearanceState.portalReducesMotion else { return }
        appearanceState.portalReducesMotion = settings.reducesMotion
        desktopSettingsDidChange(appearanceState.managerSettings)
    }

    /// Whether the appearance in force may still change with the portal's first readings: the
    /// desktop's is followed and they are awaited. A window made meanwhile waits for its first
    /// frame before it takes a background (`Window.takeBackgroundPixel()`).
    var isReadingDesktopAppearance: Bool {
        appearanceState.preferred == nil && desktopPortal?.isReading == true
    }

    /// Takes the merged appearance; when it changed, every window X11UI paints takes its new
    /// background pixel and repaints (its views told first), and the program is told.
    private func updateAppearance() {
        let merged = Appearance.inForce(preferred: appearanceState.preferred, desktop: appearanceState.desktop)
        guard merged != appearanceState.inForce else { return }
        appearanceState.inForce = merged
        guard !isClosed else { return }
        for case let window as Window in targets.values { window.appearanceDidChange() }
        appearanceState.onChange?(merged)
    }
}

/// What the application knows of appearances.
struct AppearanceState {
    /// What the desktop says (light until a reader of its settings says otherwise).
    var desktop = Appearance.light
    /// The program's choice.
    var preferred: Appearance?
    /// The merge of the two.
    var inForce = Appearance.light
    var onChange: ((Appearance) -> Void)?
    /// What the settings manager (XSETTINGS) said last, before the portal's motion setting is
    /// merged in.
    var managerSettings = DesktopSettings()
    /// Whether the settings portal asks for reduced motion.
    var portalReducesMotion = false
    /// The session bus's reconnection after a loss (Application+SessionBus.swift).
    var busRetry = SessionBusRetry()
}

extension Appearance {
    /// The appearance in force: the program's choice, keeping the desktop's accent when the
    /// choice has none; the desktop's without a choice.
    static func inForce(preferred: Appearance?, desktop: Appearance) -> Appearance {
        guard var chosen = preferred else { return desktop }
        if chosen.accent == nil { chosen.accent = desktop.accent }
        return chosen
    }
}
