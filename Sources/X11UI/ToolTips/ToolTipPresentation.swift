/// What the tooltip shows, and why: the delegate's answer kept from when the pointer came to
/// its region, the answer to the state machine's last question, the tooltip on the screen, and
/// the presenter (`ToolTipPresenter`) that puts it there.
///
/// The controller performs the machine's effects through it — a question to a delegate, a
/// show, an update in place, a move with the pointer, a hide, a window made ready ahead of a
/// show — and feeds the machine what each returns. It never drives the machine itself, and it
/// hears nothing of the machine but the sources the controller hands it.
@MainActor
final class ToolTipPresentation {
    private unowned let application: Application
    /// Lays out, places, paints and fades the tooltip, in the display's one tooltip window.
    private(set) lazy var presenter = ToolTipPresenter(application: application)
    /// The delegate's answer when the pointer entered the region under it: a hover tooltip
    /// shows it rather than asking again, unless a click, a key or `setNeedsUpdate()` came
    /// between.
    private var resolvedAnswer: Answered?
    /// The answer to the last question, for the show or update that follows.
    private var answered: Answered?
    /// The shown tooltip.
    private var shown: Shown?
    /// Set when the shown tooltip must be laid out again whatever its delegate answers.
    private var relayoutPending = false
    /// Set once the application closes: nothing shows any more.
    private var isClosed = false

    init(application: Application) {
        self.application = application
    }

    // MARK: - The shown tooltip

    /// The interaction whose tooltip is shown.
    var shownInteraction: ToolTipInteraction? { shown?.interaction.value }

    /// Whether the shown tooltip's views take pointer and keyboard events: a click tooltip's
    /// do; hover and focus tooltips are not interactive, and a press on one goes through it.
    var shownIsInteractive: Bool { presenter.isShown && shownInteraction?.trigger == .click }

    /// The shown tooltip as assistive technologies are told of it: nil when none shows, and
    /// when an expansion tooltip shows alone (its text is the view's accessible name already,
    /// which a screen reader would read twice); the view's own tooltip when an expansion
    /// tooltip shows it below the full text.
    var accessibleText: String? {
        guard presenter.isShown else { return nil }
        guard let expansion = shown?.configuration.expansion else { return presenter.text }
        return expansion.own.map { ToolTipConfiguration(content: $0).plainText }
    }

    // MARK: - The answer kept from when the pointer came

    /// The delegate of `interaction` answered `configuration` at `point` (its view's
    /// coordinates) as the pointer entered the region: a hover tooltip's show uses it.
    func keep(_ configuration: ToolTipConfiguration, of interaction: ToolTipInteraction, at point: Point) {
        resolvedAnswer = Answered(interaction: WeakInteraction(interaction), point: point, configuration: configuration)
    }

    /// A click or a key may change what a delegate answers: the answer kept is not used.
    func forgetResolvedAnswer() {
        resolvedAnswer = nil
    }

    /// `interaction` asked to be asked again: the answer kept from its delegate is not used.
    func forgetResolvedAnswer(of interaction: ToolTipInteraction) {
        if resolvedAnswer?.interaction.value === interaction { resolvedAnswer = nil }
    }

    // MARK: - The machine's effects

    /// A moment before the show of `pending` is due: when it is a hover tooltip's and its text
    /// is already known (the delegate answered when the pointer came), the hidden tooltip
    /// window is made ready for it, so that at the deadline the show is a configure and a map
    /// and the work it took is done. A prepared window that is not shown after all stays
    /// unmapped.
    func prepare(_ pending: ToolTipStateMachine.Source, style: ToolTipStyle, pointer: Point?) {
        guard !presenter.isShown, pending.anchor != .focus,
            let answer = resolvedAnswer, case .text = answer.configuration.content, answer.configuration.hasContent,
            let interaction = answer.interaction.value, interaction.id == pending.interaction,
            let view = interaction.view, let window = view.window, window.isVisible, view.isVisibleInWindow,
            interaction.isEnabled
        else { return }
        window.layoutIfNeeded()
        guard let origin = window.screenOrigin, let region = answer.configuration.region(in: view.bounds) else {
            return
        }
        var source = pending
        source.region = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
        presenter.prepare(
            request(
                for: source, configuration: answer.configuration, interaction: interaction, style: style,
                view: view, window: window, origin: origin, pointer: pointer, cursor: shownCursor(at: pointer)))
    }

    /// Asks the delegate of `interaction` for the tooltip of `source` (once per show: the
    /// answer given when the pointer entered the region is used if nothing happened since
    /// that could change it) and returns the machine's answer. Inputs the delegate causes
    /// while answering are fed before that answer, so they decide first.
    func ask(
        _ source: ToolTipStateMachine.Source, of interaction: ToolTipInteraction?, again: Bool,
        pointer: ToolTipEventRouter.Pointer?
    ) -> ToolTipStateMachine.Answer {
        guard !isClosed, let interaction, let view = interaction.view, let window = view.window, window.isVisible,
            view.isVisibleInWindow
        else { return .none }
        window.layoutIfNeeded()
        guard let origin = window.screenOrigin else { return .none }
        let previous = shown?.interaction.value === interaction ? shown : nil
        let configuration: ToolTipConfiguration?
        let point: Point
        if !again, source.anchor != .focus, let cached = resolvedAnswer, cached.interaction.value === interaction {
            (point, configuration) = (cached.point, cached.configuration)
        } else {
            point = askingPoint(
                for: source, view: view, window: window, origin: origin, pointer: pointer,
                previous: again ? previous : nil)
            configuration = interaction.configuration(at: point)
        }
        resolvedAnswer = nil
        guard let configuration, configuration.hasContent, let region = configuration.region(in: view.bounds),
            // The delegate may have removed or hidden the view, or disabled the interaction.
            view.isVisibleInWindow, view.window === window, window.isVisible, interaction.isEnabled,
            interaction.view === view
        else {
            answered = nil
            return .none
        }
        let screenRegion = view.convertToWindow(region).offsetBy(dx: origin.x, dy: origin.y)
        let unchanged =
            again && !relayoutPending && (previous?.configuration.hasSameContent(as: configuration) ?? false)
            && previous?.shortcut == view.keyboardShortcut
        relayoutPending = false
        answered = Answered(interaction: WeakInteraction(interaction), point: point, configuration: configuration)
        return .content(region: screenRegion, unchanged: unchanged)
    }

    /// The point the delegate is asked about: where the pointer is for hover and click
    /// tooltips (if it is still over the view), the middle of the region otherwise; the same
    /// point again for an update.
    private func askingPoint(
        for source: ToolTipStateMachine.Source, view: View, window: Window, origin: Point,
        pointer: ToolTipEventRouter.Pointer?, previous: Shown?
    ) -> Point {
        if let previous { return previous.point }
        if source.anchor != .focus, let pointer, pointer.window.value === window {
            let local = view.convertFromWindow(pointer.location)
            if view.bounds.contains(local) { return local }
        }
        return view.convertFromWindow(Point(x: source.region.midX - origin.x, y: source.region.midY - origin.y))
    }

    /// Shows the tooltip of `source` with the content just answered, or re-renders it in
    /// place (`entrance` `.update`); a new tooltip keeps away from `pointer` (root
    /// coordinates), and one a long press showed (`byTouch`) from the finger there. Returns
    /// what the machine hears: where the tooltip is, or that none shows.
    func present(
        _ source: ToolTipStateMachine.Source, entrance: ToolTipPresenter.Entrance, style: ToolTipStyle,
        pointer: Point?, byTouch: Bool = false
    ) -> ToolTipStateMachine.Input {
        guard !isClosed, let answer = answered, let interaction = answer.interaction.value,
            interaction.id == source.interaction, let view = interaction.view, let window = view.window,
            window.isVisible, view.isVisibleInWindow, let origin = window.screenOrigin
        else { return .dismissAll }
        answered = nil
        let configuration = answer.configuration
        // Hover tooltips keep away from the pointer where it was when they showed; keyboard
        // and click ones from where it was last seen (an update keeps the first placement's).
        let pointerOnScreen: Point?
        let cursor: CursorInk
        if entrance == .update, let previous = shown, previous.interaction.value === interaction {
            pointerOnScreen = previous.pointer
            cursor = previous.cursor
        } else {
            pointerOnScreen = pointer
            cursor = shownCursor(at: pointerOnScreen)
        }
        var request = request(
            for: source, configuration: configuration, interaction: interaction, style: style, view: view,
            window: window, origin: origin, pointer: pointerOnScreen, cursor: cursor)
        if byTouch { request = request.placedClearOfFinger(scale: application.scale) }
        presenter.present(request, entrance: entrance)
        guard presenter.isShown, let geometry = presenter.geometry else {
            return .dismissAll  // the display went away: nothing is on the screen
        }
        shown = Shown(
            interaction: WeakInteraction(interaction), point: answer.point, configuration: configuration,
            pointer: pointerOnScreen, cursor: cursor, shortcut: view.keyboardShortcut)
        application.inspector?.toolTip(
            shown: true, source: view.identifier, text: presenter.text, frame: geometry.windowFrame)
        application.accessibility?.toolTipDidChange(source: view)
        return .placed(geometry.visualFrame)
    }

    /// Moves the shown tooltip of `source`, one that follows the pointer, to the pointer at
    /// `point` (root coordinates), its delegate asked again at the new point so that its text
    /// can say where the pointer is, in the same configure. Returns where the tooltip is now,
    /// or nil when it did not move.
    func follow(_ source: ToolTipStateMachine.Source, to point: Point, style: ToolTipStyle) -> Rect? {
        guard !isClosed, presenter.isShown, var current = shown, let interaction = current.interaction.value,
            source.interaction == interaction.id, let view = interaction.view, let window = view.window,
            window.isVisible, view.isVisibleInWindow, let origin = window.screenOrigin
        else { return nil }
        let local = view.convertFromWindow(Point(x: point.x - origin.x, y: point.y - origin.y))
        var configuration = current.configuration
        if interaction.delegate != nil, let asked = interaction.configuration(at: local), asked.hasContent,
            // The delegate may have closed the window or hidden the view while answering.
            view.isVisibleInWindow, window.isVisible, presenter.isShown
        {
            configuration = asked
        }
        let textBefore = presenter.text
        presenter.present(
            request(
                for: source, configuration: configuration, interaction: interaction, style: style, view: view,
                window: window, origin: origin, pointer: point, cursor: current.cursor,
                keepsEdge: presenter.geometry?.edge))
        guard presenter.isShown, let geometry = presenter.geometry else { return nil }
        current.point = local
        current.configuration = configuration
        current.pointer = point
        shown = current
        if presenter.text != textBefore { application.accessibility?.toolTipDidChange(source: view) }
        return geometry.visualFrame
    }

    /// Hides the shown tooltip, and tells the inspector and assistive technologies.
    func hide() {
        guard presenter.isShown else { return }
        let source = shown?.interaction.value?.view
        let text = presenter.text
        presenter.hide()
        shown = nil
        application.inspector?.toolTip(shown: false, source: source?.identifier, text: text, frame: nil)
        application.accessibility?.toolTipDidChange(source: source)
    }

    // MARK: - The fonts, and the end

    /// The fonts or the scale changed (the desktop's settings). Returns the interaction of the
    /// shown tooltip, to be updated: it is laid out again in place, at its source's new place,
    /// even though its content is the same.
    func fontsDidChange() -> ToolTipInteraction? {
        presenter.fontsDidChange()
        guard presenter.isShown, let interaction = shown?.interaction.value else { return nil }
        relayoutPending = true
        return interaction
    }

    /// The application closes: the tooltip window is destroyed, and nothing shows any more.
    func close() {
        isClosed = true
        presenter.destroy()
    }

    // MARK: - What the presenter is given

    /// What the presenter is given to show `configuration` for `source`: a whole-view
    /// tooltip lines up with what the view looks like (a button's body), one for a part of
    /// the view points at that part and keeps clear of the rest. `style` is the application's,
    /// for an interaction that sets none.
    private func request(
        for source: ToolTipStateMachine.Source, configuration: ToolTipConfiguration, interaction: ToolTipInteraction,
        style: ToolTipStyle, view: View, window: Window, origin: Point, pointer: Point?, cursor: CursorInk,
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
    private func shownCursor(at pointer: Point?) -> CursorInk {
        pointer == nil ? .standard : application.shownCursorInk()
    }
}

/// A delegate's answer, kept from the question to the show.
@MainActor
private struct Answered {
    var interaction: WeakInteraction
    /// Where (in the view) the delegate was asked.
    var point: Point
    var configuration: ToolTipConfiguration
}

/// The tooltip on the screen: its interaction, the point (its view's coordinates) it was asked
/// at, its content, and the pointer it was placed away from.
@MainActor
private struct Shown {
    var interaction: WeakInteraction
    var point: Point
    var configuration: ToolTipConfiguration
    var pointer: Point?
    /// The cursor shown at `pointer` when the tooltip showed (a tooltip that follows the
    /// pointer keeps clear of it without reading it again).
    var cursor: CursorInk = .standard
    /// The source view's keyboard shortcut the tooltip shows.
    var shortcut: KeyboardShortcut?
}
