/// Where a view is in its tree and its window, and what is attached to it.
extension View {
    /// Whether the view is `view` or inside it.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let v = current {
            if v === view { return true }
            current = v.superview
        }
        return false
    }

    /// Whether the view and all its ancestors are shown and in a window.
    public var isVisibleInWindow: Bool {
        var current: View? = self
        while let v = current {
            if v.isHidden { return false }
            if v.superview == nil { return v.window != nil }
            current = v.superview
        }
        return false
    }

    /// The first view in this subtree (depth first, this view included) with an identifier.
    public func view(withIdentifier identifier: String) -> View? {
        if self.identifier == identifier { return self }
        for subview in subviews {
            if let found = subview.view(withIdentifier: identifier) { return found }
        }
        return nil
    }

    // MARK: - Coordinates

    /// A point in this view's coordinates converted to the window's.
    public func convertToWindow(_ point: Point) -> Point {
        var p = point
        var current: View? = self
        while let v = current {
            p = p.offsetBy(dx: v.frame.minX, dy: v.frame.minY)
            current = v.superview
        }
        return p
    }

    /// A rectangle in this view's coordinates converted to the window's.
    public func convertToWindow(_ rect: Rect) -> Rect {
        Rect(origin: convertToWindow(rect.origin), size: rect.size)
    }

    /// A point in the window's coordinates converted to this view's.
    public func convertFromWindow(_ point: Point) -> Point {
        let origin = convertToWindow(Point.zero)
        return Point(x: point.x - origin.x, y: point.y - origin.y)
    }

    /// The view's bounds on the screen (root window coordinates), when its window is shown.
    public var frameOnScreen: Rect? {
        guard let window, let origin = window.screenOrigin else { return nil }
        return convertToWindow(bounds).offsetBy(dx: origin.x, dy: origin.y)
    }

    // MARK: - Interactions

    /// Attaches a behaviour (a tooltip, for instance) to the view.
    ///
    /// - Complexity: O(1) (a set of the attached interactions answers "already here?").
    public func addInteraction(_ interaction: any Interaction) {
        guard !interactionIDs.contains(ObjectIdentifier(interaction)) else { return }
        interaction.view?.removeInteraction(interaction)
        interaction.willMove(to: self)
        interactions.append(interaction)
        interactionIDs.insert(ObjectIdentifier(interaction))
        interaction.didMove(to: self)
    }

    /// Detaches a behaviour.
    public func removeInteraction(_ interaction: any Interaction) {
        guard interactionIDs.contains(ObjectIdentifier(interaction)) else { return }
        interaction.willMove(to: nil)
        interactions.removeAll { $0 === interaction }
        interactionIDs.remove(ObjectIdentifier(interaction))
        interaction.didMove(to: nil)
    }

    // MARK: - Nesting depth

    /// The levels in the subtree, exact when the bound says it may exceed `limit`.
    func heightBound(within limit: Int) -> Int {
        guard subtreeHeight > limit else { return subtreeHeight }
        // Iterative, so that measuring a tree that is too deep is safe too.
        var deepest = 1
        var pending: [(View, Int)] = [(self, 1)]
        while let (view, level) = pending.popLast() {
            deepest = max(deepest, level)
            for subview in view.subviews { pending.append((subview, level + 1)) }
        }
        subtreeHeight = deepest
        return deepest
    }

    /// Raises the ancestors' height bounds for a newly inserted subview.
    func raiseHeightBound(above view: View) {
        var height = view.subtreeHeight + 1
        var current: View? = self
        while let ancestor = current, ancestor.subtreeHeight < height {
            ancestor.subtreeHeight = height
            height += 1
            current = ancestor.superview
        }
    }
}
