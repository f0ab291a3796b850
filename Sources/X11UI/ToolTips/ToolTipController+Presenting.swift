/// The machine's effects that show a tooltip: the questions to the delegates, and the shows,
/// updates and early preparations through the presenter.
extension ToolTipController {
    /// Woken a moment before `deadline`: when it is a hover tooltip's show and its text is
    /// already known (the delegate answered when the pointer came), the hidden tooltip window
    /// is made ready for it, so that at the deadline the show is a configure and a map and
    /// the work it took is done. The state machine hears nothing: the show still happens at
    /// the deadline, through the same path, and anything that happens before then (the
    /// pointer moves on, a key, a click) decides as it would have; a prepared window that is
    /// not shown after all stays unmapped.
    func prepareShow(due deadline: MonotonicInstant) {
        // Only on the wake just before this deadline: a timer armed for an earlier one (the
        // pointer moved on to another source since) wakes long before it.
        guard deadline - scheduler.now <= scheduler.earlyWake * 2, !presenter.isShown, machine.showing == nil,
            machine.question == nil, let pending = machine.pending, pending.deadline == deadline,
            pending.source.anchor != .focus,
            let answer = resolvedAnswer, case .text = answer.configuration.content, answer.configuration.hasContent,
            let interaction = answer.interaction.value, interaction.id == pending.source.interaction,
            let view = interaction.view, let window = view.window, window.isVisible, view.isVisibleInWindow,
            interaction.isEnabled
        else { return }
        window.layoutIfNeeded()
        guard let origin = window.screenOrigin,
            let region = Self.region(of: answer.configuration, in: view.bounds)
        else { return }
        var source = pending.source
        source.region = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
        presenter.prepare(
            request(
                for: source, configuration: answer.configuration, interaction: interaction, view: view,
                window: window, origin: origin, pointer: router.pointer?.root,
                cursor: shownCursor(at: router.pointer?.root)))
    }

    /// Asks the delegate for the tooltip of `source` (once per show: the answer given when the
    /// pointer entered the region is used if nothing happened since that could change it) and
    /// tells the machine. Inputs the delegate causes while answering are queued before the
    /// answer, so they decide first.
    func ask(_ source: ToolTipStateMachine.Source, again: Bool) {
        guard !isTornDown, let interaction = known[source.interaction]?.value, let view = interaction.view,
            let window = view.window, window.isVisible, view.isVisibleInWindow
        else {
            feed(.answer(.none))
            return
        }
        window.layoutIfNeeded()
        guard let origin = window.screenOrigin else {
            feed(.answer(.none))
            return
        }
        let previous = shown?.interaction.value === interaction ? shown : nil
        let configuration: ToolTipConfiguration?
        let point: Point
        if !again, source.anchor != .focus, let cached = resolvedAnswer, cached.interaction.value === interaction {
            (point, configuration) = (cached.point, cached.configuration)
        } else {
            point = askingPoint(
                for: source, view: view, window: window, origin: origin, previous: again ? previous : nil)
            configuration = interaction.configuration(at: point)
        }
        resolvedAnswer = nil
        guard let configuration, configuration.hasContent, let region = Self.region(of: configuration, in: view.bounds),
            // The delegate may have removed or hidden the view, or disabled the interaction.
            view.isVisibleInWindow, view.window === window, window.isVisible, interaction.isEnabled,
            interaction.view === view
        else {
            answered = nil
            feed(.answer(.none))
            return
        }
        let screenRegion = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
        let unchanged =
            again && !relayoutPending && (previous?.configuration.hasSameContent(as: configuration) ?? false)
            && previous?.shortcut == view.keyboardShortcut
        relayoutPending = false
        answered = Answered(interaction: WeakInteraction(interaction), point: point, configuration: configuration)
        feed(.answer(.content(region: screenRegion, unchanged: unchanged)))
    }

    /// The point the delegate is asked about: where the pointer is for hover and click
    /// tooltips (if it is still over the view), the middle of the region otherwise; the same
    /// point again for an update.
    private func askingPoint(
        for source: ToolTipStateMachine.Source, view: View, window: Window, origin: Point, previous: Shown?
    ) -> Point {
        if let previous { return previous.point }
        if source.anchor != .focus, let pointer = router.pointer, pointer.window.value === window {
            let local = view.convertFromWindow(pointer.location)
            if view.bounds.contains(local) { return local }
        }
        return view.convertFromWindow(Point(x: source.region.midX - origin.x, y: source.region.midY - origin.y))
    }

    /// Shows (or re-renders in place) the tooltip of `source` with the content just answered.
    func present(_ source: ToolTipStateMachine.Source, inPlace: Bool) {
        guard !isTornDown, let answer = answered, let interaction = answer.interaction.value,
            interaction.id == source.interaction, let view = interaction.view, let window = view.window,
            window.isVisible, view.isVisibleInWindow, let origin = window.screenOrigin
        else {
            feed(.dismissAll)
            return
        }
        answered = nil
        let configuration = answer.configuration
        // Hover tooltips keep away from the pointer where it was when they showed; keyboard
        // and click ones from where it was last seen (an update keeps the first placement's).
        let pointerOnScreen: Point?
        let cursor: CursorInk
        if inPlace, let previous = shown, previous.interaction.value === interaction {
            pointerOnScreen = previous.pointer
            cursor = previous.cursor
        } else {
            pointerOnScreen = router.pointer?.root
            cursor = shownCursor(at: pointerOnScreen)
        }
        // Browsing from one tooltip to the next shows each at once; the first one fades in.
        let entrance: ToolTipPresenter.Entrance =
            inPlace ? .update : machine.browses(source, now: scheduler.now) ? .atOnce : .fade
        presenter.present(
            touchPlaced(
                request(
                    for: source, configuration: configuration, interaction: interaction, view: view, window: window,
                    origin: origin, pointer: pointerOnScreen, cursor: cursor)),
            entrance: entrance)
        guard presenter.isShown, let geometry = presenter.geometry else {
            feed(.dismissAll)  // the display went away: nothing is on the screen
            return
        }
        shown = Shown(
            interaction: WeakInteraction(interaction), point: answer.point, configuration: configuration,
            pointer: pointerOnScreen, cursor: cursor, shortcut: view.keyboardShortcut)
        feed(.placed(geometry.visualFrame))
        application.inspector?.toolTip(
            shown: true, source: view.identifier, text: presenter.text, frame: geometry.windowFrame)
        application.accessibility?.toolTipDidChange(source: view)
    }

    /// What the presenter is given to show `configuration` for `source`: a whole-view
    /// tooltip lines up with what the view looks like (a button's body), one for a part of
    /// the view points at that part and keeps clear of the rest.
    func request(
        for source: ToolTipStateMachine.Source, configuration: ToolTipConfiguration, interaction: ToolTipInteraction,
        view: View, window: Window, origin: Point, pointer: Point?, cursor: CursorInk,
        keepsEdge: ToolTipPlacement.Edge? = nil
    ) -> ToolTipPresenter.Request {
        let placement = interaction.resolvedPlacement
        if let expansion = configuration.expansion {
            // Over the cut text itself, wherever the pointer is.
            return ToolTipPresenter.Request(
                content: configuration.content, style: interaction.style ?? style, placement: placement,
                source: view.convertToWindow(view.bounds).offsetBy(dx: origin.x, dy: origin.y), pointer: pointer,
                cursor: cursor, owner: window.windowID,
                expansion: ToolTipPresenter.Expansion(
                    text: BytewiseString(expansion.text), font: expansion.font, wrapWidth: expansion.wrapWidth,
                    anchor: view.convertToWindow(expansion.anchor).offsetBy(dx: origin.x, dy: origin.y)),
                ownContent: expansion.own)
        }
        let wholeView = configuration.sourceRect == nil
        let anchor =
            wholeView ? view.convertToWindow(view.alignmentRect).offsetBy(dx: origin.x, dy: origin.y) : source.region
        return ToolTipPresenter.Request(
            content: configuration.content, style: interaction.style ?? style, placement: placement, source: anchor,
            pointer: pointer, cursor: cursor,
            followsPointer: source.anchor == .pointer && placement.anchor.usesPointer,
            avoiding: wholeView ? nil : view.convertToWindow(view.bounds).offsetBy(dx: origin.x, dy: origin.y),
            owner: window.windowID, keepsEdge: keepsEdge, shortcut: view.keyboardShortcut?.description)
    }

    /// The cursor the user sees at `pointer` (none for a tooltip without one): the
    /// application reads it back once after each change of the cursor, so a prepare and the
    /// show that follows it, or the next show under the same cursor, cost no round trip.
    func shownCursor(at pointer: Point?) -> CursorInk {
        pointer == nil ? .standard : application.shownCursorInk()
    }
}
