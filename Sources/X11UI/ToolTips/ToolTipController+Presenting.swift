/// Driving the state machine: its inputs in order, and its effects (timers, questions to the
/// delegates, showing and hiding the tooltip window).
extension ToolTipController {
    func feed(_ input: ToolTipStateMachine.Input) {
        queuedInputs.append(input)
        guard !isFeeding else { return }
        isFeeding = true
        defer { isFeeding = false }
        while !queuedInputs.isEmpty {
            let next = queuedInputs.removeFirst()
            for effect in machine.reduce(next, now: scheduler.now) { perform(effect) }
        }
    }

    private func perform(_ effect: ToolTipStateMachine.Effect) {
        switch effect {
        case .setTimer(let deadline):
            timer?.cancel()
            timer = nil
            guard !isTornDown else { return }
            timer = deadline.map { scheduler.schedule(at: $0) { [weak self] in self?.feed(.timer) } }
        case .hide:
            guard presenter.isShown else { return }
            let source = shown?.interaction.value?.view
            let text = presenter.text
            presenter.hide()
            shown = nil
            application.inspector?.toolTip(shown: false, source: source?.identifier, text: text, frame: nil)
            application.accessibility?.toolTipDidChange(source: source)
        case .ask(let source):
            ask(source, again: false)
        case .reask(let source):
            ask(source, again: true)
        case .show(let source):
            present(source, inPlace: false)
        case .update(let source):
            present(source, inPlace: true)
        }
    }

    /// Asks the delegate for the tooltip of `source` (once per show: the answer given when the
    /// pointer entered the region is used if nothing happened since that could change it) and
    /// tells the machine. Inputs the delegate causes while answering are queued before the
    /// answer, so they decide first.
    private func ask(_ source: ToolTipStateMachine.Source, again: Bool) {
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
        let unchanged = again && (previous?.configuration.hasSameContent(as: configuration) ?? false)
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
        if source.anchor != .focus, let pointer, pointer.window.value === window {
            let local = view.convertFromWindow(pointer.location)
            if view.bounds.contains(local) { return local }
        }
        return view.convertFromWindow(Point(x: source.region.midX - origin.x, y: source.region.midY - origin.y))
    }

    /// Shows (or re-renders in place) the tooltip of `source` with the content just answered.
    private func present(_ source: ToolTipStateMachine.Source, inPlace: Bool) {
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
        if inPlace, let previous = shown, previous.interaction.value === interaction {
            pointerOnScreen = previous.pointer
        } else {
            pointerOnScreen = pointer?.root
        }
        let viewOnScreen = view.convertToWindow(view.bounds).offsetBy(dx: origin.x, dy: origin.y)
        // A whole-view tooltip lines up with what the view looks like (a button's body).
        let anchor =
            configuration.sourceRect == nil
            ? view.convertToWindow(view.alignmentRect).offsetBy(dx: origin.x, dy: origin.y) : source.region
        let placement = interaction.resolvedPlacement
        presenter.present(
            configuration.content, style: interaction.style ?? style, placement: placement,
            source: anchor, pointer: pointerOnScreen,
            followsPointer: source.anchor == .pointer && placement.anchor == .pointer,
            avoiding: configuration.sourceRect == nil ? nil : viewOnScreen, transientFor: window.windowID)
        guard presenter.isShown, let geometry = presenter.geometry else {
            feed(.dismissAll)  // the display went away: nothing is on the screen
            return
        }
        shown = Shown(
            interaction: WeakInteraction(interaction), point: answer.point, configuration: configuration,
            pointer: pointerOnScreen)
        feed(.placed(geometry.visualFrame))
        application.inspector?.toolTip(
            shown: true, source: view.identifier, text: presenter.text, frame: geometry.windowFrame)
        application.accessibility?.toolTipDidChange(source: view)
    }
}
