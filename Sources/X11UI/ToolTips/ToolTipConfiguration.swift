/// One item of an items tooltip: an optional icon and a title, as in "♥ 6   💬 31".
public struct ToolTipItem {
    /// The icon before the title.
    public var icon: Image?
    /// The title.
    public var title: String

    /// Creates an item.
    public init(icon: Image? = nil, title: String) {
        self.icon = icon
        self.title = title
    }
}

/// What a tooltip shows and, optionally, the part of the view it belongs to.
///
/// ```swift
/// ToolTipConfiguration(toolTip: "Top area of the view.", in: topThird)
/// ToolTipConfiguration(content: { HStack { Label("Home"); Circle(color: .green) } })
/// ```
public struct ToolTipConfiguration {
    /// The kinds of tooltip content.
    public enum Content {
        /// Plain text, wrapped at the style's maximum width; never read as markup.
        case text(String)
        /// Icon-and-title items in a row.
        case items([ToolTipItem])
        /// Any view tree, built when the tooltip shows, laid out at its ideal size.
        case view(@MainActor () -> View)
    }

    /// The content.
    public var content: Content
    /// The region of the view (in its coordinates) the tooltip belongs to; nil for the whole
    /// view. Leaving it asks the delegate again.
    public var sourceRect: Rect?
    /// For an expansion tooltip: the cut text made whole, placed over it (`content` is then the
    /// full text, and the view's own tooltip, if any, is `expansion.own`).
    var expansion: ExpansionToolTip?

    /// A text tooltip for the whole view.
    public init(toolTip: String) {
        content = .text(toolTip)
    }

    /// A text tooltip for a region of the view.
    public init(toolTip: String, in rect: Rect) {
        content = .text(toolTip)
        sourceRect = rect
    }

    /// A tooltip showing any view (built when shown).
    public init(in rect: Rect? = nil, content: @escaping @MainActor () -> View) {
        self.content = .view(content)
        sourceRect = rect
    }

    /// A tooltip of icon-and-title items.
    public init(items: [ToolTipItem], in rect: Rect? = nil) {
        content = .items(items)
        sourceRect = rect
    }

    /// Whether there is anything to show: text that is not only whitespace (an empty tooltip is
    /// no tooltip), at least one item, or a view.
    @MainActor var hasContent: Bool {
        switch content {
        case .text(let text):
            return text.unicodeScalars.contains { !$0.properties.isWhitespace && !FontSet.drawsNothing($0) }
        case .items(let items): return !items.isEmpty
        case .view: return true
        }
    }

    /// The part of a view with `bounds` this configuration covers: its rect clamped to the
    /// view, or the whole view; nil for a rect that is not a rect (NaN, negative size) or lies
    /// outside the view.
    func region(in bounds: Rect) -> Rect? {
        guard let rect = sourceRect else { return bounds }
        guard rect.isFinite, rect.width >= 0, rect.height >= 0 else { return nil }
        let clamped = rect.intersection(bounds)
        return clamped.isEmpty ? nil : clamped
    }

    /// Whether two configurations show the same thing (views built by closures are never
    /// assumed equal, except to themselves by identity of the text they contain).
    @MainActor
    func hasSameContent(as other: ToolTipConfiguration) -> Bool {
        if expansion != nil || other.expansion != nil {
            guard let a = expansion, let b = other.expansion, a.hasSamePlacement(as: b) else { return false }
            switch (a.own, b.own) {
            case (nil, nil): break
            case (let x?, let y?):
                guard ToolTipConfiguration(content: x).hasSameContent(as: ToolTipConfiguration(content: y)) else {
                    return false
                }
            default: return false
            }
        }
        switch (content, other.content) {
        case (.text(let a), .text(let b)): return a == b
        case (.items(let a), .items(let b)):
            return a.count == b.count
                && zip(a, b).allSatisfy { $0.title == $1.title && $0.icon === $1.icon }
        default: return false
        }
    }
}

/// Decides a tooltip's content per point: dynamic text, or tooltips for parts of a view.
///
/// ```swift
/// func toolTipInteraction(_ interaction: ToolTipInteraction,
///                         configurationAt point: Point) -> ToolTipConfiguration? {
///     point.y < bounds.height / 3 ? ToolTipConfiguration(toolTip: "Top", in: topThird) : nil
/// }
/// ```
@MainActor
public protocol ToolTipInteractionDelegate: AnyObject {
    /// The tooltip at `point` (the view's coordinates), or nil for none there.
    ///
    /// Asked when a tooltip is about to show and whenever the pointer leaves the current
    /// configuration's rectangle; its answer replaces the tooltip in place.
    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration?
}
