/// Tooltips fading in and out under a compositor: the window's `_NET_WM_WINDOW_OPACITY`,
/// stepped once a frame while a fade runs (``ToolTipFade`` says what it is when).
///
/// A fading-out tooltip is hidden for everything but the eye: the state machine, the
/// inspector and assistive technologies heard of the hide when it began, its window takes no
/// pointer (its input region is empty), and a show meanwhile cuts the fade and shows the new
/// tooltip at once, at full opacity, in the same window. Between fades the window has no
/// opacity property and its outline as input region, so that a show without a fade is what
/// it is without a compositor: no request more.
extension ToolTipPresenter {
    /// The fade under way, if any.
    struct Fading {
        var fade: ToolTipFade?
        /// The wake for the next frame.
        var timer: EventTimer?
        /// Whether the window's input region is empty (while it fades out).
        var inputCleared = false

        var isFadingOut: Bool { fade?.direction == .disappearing }
    }

    /// How the next show appears.
    enum Entrance {
        /// Faded in, where fades are wanted.
        case fade
        /// At once, at full opacity (browse mode; a tooltip replacing another): a fade under
        /// way is cut.
        case atOnce
        /// Re-rendered in place: a fade under way goes on.
        case update
    }

    /// Whether this tooltip window fades: see ``ToolTipFade/isWanted``.
    var fadesAreWanted: Bool {
        guard let host else { return false }
        return ToolTipFade.isWanted(
            composited: host.isTranslucent, animations: application.desktopSettings.enableAnimations,
            inputShapes: application.connection.extensions.hasShape,
            compositorFades: host.isTranslucent && application.compositorFadesToolTips)
    }

    /// Whether the window is on the screen while fading out (hidden as far as anything but the
    /// eye knows).
    var isFadingOut: Bool { fading.isFadingOut }

    private var clock: any ToolTipScheduler { application.toolTips.scheduler }

    // MARK: - Showing

    /// Stops a fade-out where it is, for a show: returns whether the window is still on the
    /// screen (the show then paints the new tooltip into it and calls `showAtFullOpacity`).
    func interruptFadeOut() -> Bool {
        guard fading.isFadingOut else { return false }
        stopFade()
        return true
    }

    /// The window, still mapped after an interrupted fade-out and now holding the new tooltip,
    /// is fully opaque and takes the pointer again.
    func showAtFullOpacity() {
        host?.native?.deleteProperty(\.netWMWindowOpacity)
        restoreInput()
    }

    /// Before the map of a show: a fade-in starts, where one is wanted, with the window at
    /// the first frame's opacity when it maps.
    func beginFadeIn(_ entrance: Entrance) {
        guard entrance == .fade, fadesAreWanted, let native = host?.native else { return }
        let now = clock.now
        let fade = ToolTipFade.appearing(at: now)
        setOpacity(fade.opacity(at: now), of: native)
        run(fade)
    }

    /// A show of another tooltip while this one fades in: it is at full opacity at once.
    func finishFadeIn() {
        guard fading.fade?.direction == .appearing else { return }
        stopFade()
        host?.native?.deleteProperty(\.netWMWindowOpacity)
    }

    // MARK: - Hiding

    /// Begins a fade-out where one is wanted, from the opacity the tooltip has; returns false
    /// when the window is to be unmapped now instead.
    func beginFadeOut() -> Bool {
        guard fadesAreWanted, let host, let native = host.native, let mask, application.connection.isUsable else {
            if fading.fade != nil {
                stopFade()
                host?.native?.deleteProperty(\.netWMWindowOpacity)
            }
            return false
        }
        let now = clock.now
        let fade = ToolTipFade.disappearing(at: now, after: fading.fade)
        stopFade()
        if !fading.inputCleared {
            mask.clearInput(of: native.id)
            fading.inputCleared = true
        }
        host.toolTipDidHide()
        setOpacity(fade.opacity(at: now), of: native)
        run(fade)
        return true
    }

    /// Stops any fade without a request (the window is going, or gone).
    func stopFade() {
        fading.timer?.cancel()
        fading.timer = nil
        fading.fade = nil
    }

    // MARK: - Frames

    private func run(_ fade: ToolTipFade) {
        fading.fade = fade
        scheduleFrame(after: clock.now)
    }

    private func scheduleFrame(after now: MonotonicInstant) {
        fading.timer?.cancel()
        guard let fade = fading.fade, let next = fade.nextFrame(after: now) else {
            fading.timer = nil
            return
        }
        fading.timer = clock.schedule(at: next) { [weak self] in self?.frame() }
    }

    /// One frame: the opacity now; at the end of a fade-in the property goes (full opacity),
    /// at the end of a fade-out the window unmaps and gets its input region back.
    private func frame() {
        fading.timer = nil
        guard let fade = fading.fade, let host, let native = host.native, application.connection.isUsable else {
            stopFade()
            return
        }
        let now = clock.now
        if fade.isFinished(at: now) {
            stopFade()
            if fade.direction == .disappearing { host.hide() }
            native.deleteProperty(\.netWMWindowOpacity)
            restoreInput()
        } else {
            setOpacity(fade.opacity(at: now), of: native)
            scheduleFrame(after: now)
        }
        application.connection.flush()
    }

    private func setOpacity(_ opacity: Double, of native: NativeWindow) {
        native.setLongProperty(\.netWMWindowOpacity, type: \.cardinal, [ToolTipFade.cardinal(opacity)])
    }

    private func restoreInput() {
        guard fading.inputCleared else { return }
        fading.inputCleared = false
        if let mask, let native = host?.native { mask.restoreInput(of: native.id) }
    }
}
