extension Inspector {
    /// `{"event":"layout", …}` with every identified view's frame in root coordinates.
    func windowDidLayout(_ window: Window) {
        guard let id = window.windowID, !(window is PopupWindow) else { return }
        let origin = window.screenOrigin ?? .zero
        var views: [ViewRecord] = []
        func visit(_ view: View) {
            guard !view.isHidden else { return }
            if let id = view.identifier {
                let frame = view.convertToWindow(view.bounds).offsetBy(dx: origin.x, dy: origin.y)
                views.append(ViewRecord(identifier: id, type: String(describing: type(of: view)), frame: frame))
            }
            for subview in view.subviews { visit(subview) }
        }
        visit(window.rootView)
        layout(window: id.rawValue, title: window.title, views: views)
    }
}
