/// Builds an array of views from a closure with one view per line, `if` and `for`.
@resultBuilder
public enum ViewBuilder {
    /// A view on a line of its own.
    public static func buildExpression(_ view: View) -> [View] { [view] }
    /// An array of views on a line of its own.
    public static func buildExpression(_ views: [View]) -> [View] { views }
    /// The lines of a block, in order.
    public static func buildBlock(_ parts: [View]...) -> [View] { parts.flatMap { $0 } }
    /// The views of an `if` without `else` (none when the condition is false).
    public static func buildOptional(_ part: [View]?) -> [View] { part ?? [] }
    /// The views of an `if`'s first branch.
    public static func buildEither(first: [View]) -> [View] { first }
    /// The views of an `if`'s `else` branch.
    public static func buildEither(second: [View]) -> [View] { second }
    /// The views of every iteration of a `for` loop.
    public static func buildArray(_ parts: [[View]]) -> [View] { parts.flatMap { $0 } }
}

/// Where children sit across a stack's axis.
public enum StackAlignment: Hashable, Sendable {
    /// Left in a `VStack`, top in an `HStack`.
    case start
    /// Centred across the axis.
    case center
    /// Right in a `VStack`, bottom in an `HStack`.
    case end
    /// Stretched to the stack's full width (`VStack`) or height (`HStack`).
    case fill
}

/// Lays out its subviews in a row or column, with spacing, alignment and padding.
///
/// Lengths are pixels at 96 dpi and scale with the display. `Spacer`s share the room left.
@MainActor
open class Stack: View {
    enum Axis { case horizontal, vertical }

    let axis: Axis
    /// The gap between neighbours (96 dpi pixels).
    public var spacing: Double {
        didSet { invalidateIntrinsicSize() }
    }
    /// Where children sit across the axis.
    public var alignment: StackAlignment {
        didSet { setNeedsLayout() }
    }
    /// Space inside the stack's edges (96 dpi pixels).
    public var padding: EdgeInsets {
        didSet { invalidateIntrinsicSize() }
    }

    init(axis: Axis, spacing: Double, alignment: StackAlignment, padding: EdgeInsets, views: [View]) {
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.padding = padding
        super.init()
        for view in views { addSubview(view) }
    }

    private var visibleChildren: [View] { subviews.filter { !$0.isHidden } }

    /// Main-axis and cross-axis components of a size.
    private func split(_ size: Size) -> (main: Double, cross: Double) {
        axis == .horizontal ? (size.width, size.height) : (size.height, size.width)
    }

    private func join(main: Double, cross: Double) -> Size {
        axis == .horizontal ? Size(width: main, height: cross) : Size(width: cross, height: main)
    }

    /// A child's size along and across the axis, given the cross extent inside the padding
    /// (the main axis open). A spacer's length is along the axis only.
    private func childSize(_ child: View, crossLimit: Double) -> (main: Double, cross: Double) {
        let size = split(child.fittingSize(for: join(main: .infinity, cross: crossLimit)))
        return child is Spacer ? (size.main, 0) : size
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        let insets = padding.scaled(by: scale)
        let crossInsets = axis == .horizontal ? insets.vertical : insets.horizontal
        let mainInsets = axis == .horizontal ? insets.horizontal : insets.vertical
        let crossLimit = max(0, split(proposal).cross - crossInsets)
        let children = visibleChildren
        var main = 0.0
        var cross = 0.0
        for child in children {
            let size = childSize(child, crossLimit: crossLimit)
            main += size.main
            cross = max(cross, size.cross)
        }
        main += spacing * scale * Double(max(0, children.count - 1))
        return join(main: (main + mainInsets).rounded(.up), cross: (cross + crossInsets).rounded(.up))
    }

    open override func layoutSubviews() {
        let insets = padding.scaled(by: scale)
        let inner = bounds.inset(by: insets)
        let (innerMain, innerCross) = split(inner.size)
        let children = visibleChildren
        let gap = spacing * scale
        var sizes = children.map { childSize($0, crossLimit: innerCross) }
        let used = sizes.reduce(0) { $0 + $1.main } + gap * Double(max(0, children.count - 1))
        let spacers = children.indices.filter { children[$0] is Spacer || children[$0].fillsAvailableSpace }
        if !spacers.isEmpty, used < innerMain {
            let share = (innerMain - used) / Double(spacers.count)
            for index in spacers { sizes[index].main += share }
        }
        var position = axis == .horizontal ? inner.minX : inner.minY
        let crossStart = axis == .horizontal ? inner.minY : inner.minX
        for (child, size) in zip(children, sizes) {
            let crossSize = alignment == .fill ? innerCross : min(size.cross, innerCross)
            let crossOffset: Double
            switch alignment {
            case .start, .fill: crossOffset = 0
            case .center: crossOffset = ((innerCross - crossSize) / 2).rounded(.down)
            case .end: crossOffset = innerCross - crossSize
            }
            // Edges are rounded, not lengths, so rounding never adds up past the stack's end.
            let start = position.rounded()
            let mainSize = (position + size.main).rounded() - start
            child.frame =
                axis == .horizontal
                ? Rect(x: start, y: crossStart + crossOffset, width: mainSize, height: crossSize)
                : Rect(x: crossStart + crossOffset, y: start, width: crossSize, height: mainSize)
            position += size.main + gap
        }
        arranged = subviews.indices.filter { !subviews[$0].isHidden }
    }

    /// The indices of the children as last laid out, in order along the axis (hidden ones left
    /// out). Indices, not views: a removed child is not kept alive by them.
    private var arranged: [Int] = []

    /// Children sit in order along the axis without overlapping, so a long stack finds the
    /// child under a point by binary search rather than by trying each one.
    open override func hitTest(_ point: Point) -> View? {
        // Searching needs the children as laid out (adding, removing or hiding one asks for
        // layout again) and no overlaps (negative spacing).
        // Each property is read once (see `View.hitTest`).
        let subviews = self.subviews
        let arranged = self.arranged
        guard subviews.count > 16, !needsLayout, spacing >= 0, (arranged.last ?? 0) < subviews.count else {
            return super.hitTest(point)
        }
        guard !isHidden, bounds.contains(point) else { return nil }
        let horizontal = axis == .horizontal
        let key = horizontal ? point.x : point.y
        var low = 0
        var high = arranged.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let child = subviews[arranged[mid]]
            let frame = child.frame
            let (start, end) = horizontal ? (frame.minX, frame.maxX) : (frame.minY, frame.maxY)
            if key < start {
                high = mid - 1
            } else if key >= end {
                low = mid + 1
            } else {
                let local = Point(x: point.x - frame.minX, y: point.y - frame.minY)
                return child.hitTest(local) ?? self
            }
        }
        return self
    }
}

/// A row of views.
///
/// ```swift
/// HStack(spacing: 8) { Label("Home"); Circle(color: .green, diameter: 10) }
/// ```
@MainActor
open class HStack: Stack {
    /// Creates a row.
    public init(
        spacing: Double = 8, alignment: StackAlignment = .center, padding: EdgeInsets = .zero,
        @ViewBuilder _ content: () -> [View] = { [] }
    ) {
        super.init(axis: .horizontal, spacing: spacing, alignment: alignment, padding: padding, views: content())
    }

    /// Creates a row with the same padding on every side.
    public convenience init(
        spacing: Double = 8, alignment: StackAlignment = .center, padding: Double,
        @ViewBuilder _ content: () -> [View] = { [] }
    ) {
        self.init(spacing: spacing, alignment: alignment, padding: EdgeInsets(all: padding), content)
    }
}

/// A column of views.
///
/// ```swift
/// VStack(spacing: 12, padding: 16) { buy; cart; home }
/// ```
@MainActor
open class VStack: Stack {
    /// Creates a column.
    public init(
        spacing: Double = 8, alignment: StackAlignment = .center, padding: EdgeInsets = .zero,
        @ViewBuilder _ content: () -> [View] = { [] }
    ) {
        super.init(axis: .vertical, spacing: spacing, alignment: alignment, padding: padding, views: content())
    }

    /// Creates a column with the same padding on every side.
    public convenience init(
        spacing: Double = 8, alignment: StackAlignment = .center, padding: Double,
        @ViewBuilder _ content: () -> [View] = { [] }
    ) {
        self.init(spacing: spacing, alignment: alignment, padding: EdgeInsets(all: padding), content)
    }
}
