/// A hover tooltip that follows the pointer (``ToolTipPlacement/Anchor/followsPointer``): the
/// state machine says when it moves (at most once a frame, never for a pointer that stood
/// still); here it moves, its delegate asked again at the new point so that its text can say
/// where the pointer is, in the same configure.
extension ToolTipController {
    /// Moves the shown tooltip to the pointer at `point` (root coordinates).
    func follow(to point: Point) {
        guard !isTornDown, presenter.isShown, var current = shown, let interaction = current.interaction.value,
            let source = machine.shown, source.interaction == interaction.id, let view = interaction.view,
            let window = view.window, window.isVisible, view.isVisibleInWindow, let origin = window.screenOrigin
        else { return }
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
                for: source, configuration: configuration, interaction: interaction, view: view, window: window,
                origin: origin, pointer: point, cursor: current.cursor, keepsEdge: presenter.geometry?.edge))
        guard presenter.isShown, let geometry = presenter.geometry else { return }
        current.point = local
        current.configuration = configuration
        current.pointer = point
        shown = current
        follows += 1
        feed(.placed(geometry.visualFrame))
        if presenter.text != textBefore { application.accessibility?.toolTipDidChange(source: view) }
    }
}
