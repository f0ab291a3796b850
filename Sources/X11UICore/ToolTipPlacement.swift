/// Where a tooltip goes relative to its source: an edge, an alignment along that edge, and the
/// gap between the arrow's tip and the source.
///
/// The 4 directions of a plain arrowed tooltip and the 6 top/bottom × left/centre/right arrow
/// positions are all edge × alignment:
///
/// ```swift
/// ToolTipPlacement(edge: .top, alignment: .start)    // above, left sides lined up
/// ToolTipPlacement.trailing                          // to the right, centred
/// ```
public struct ToolTipPlacement: Hashable, Sendable {
    /// The side of the source the tooltip sits on. Leading is left, trailing right.
    public enum Edge: Hashable, Sendable, CaseIterable {
        /// Above the source.
        case top
        /// Below the source.
        case bottom
        /// Left of the source.
        case leading
        /// Right of the source.
        case trailing

        /// The other side.
        public var opposite: Edge {
            switch self {
            case .top: return .bottom
            case .bottom: return .top
            case .leading: return .trailing
            case .trailing: return .leading
            }
        }

        /// Whether the edge is above or below (the tooltip then aligns horizontally).
        public var isVertical: Bool { self == .top || self == .bottom }
    }

    /// How the tooltip lines up with the source along the edge: on top and bottom, `.start`
    /// lines up the left sides, `.center` centres, `.end` lines up the right sides; on leading
    /// and trailing the same with tops, middles and bottoms.
    public enum Alignment: Hashable, Sendable, CaseIterable {
        /// Left sides (top and bottom edges) or tops (leading and trailing) lined up.
        case start
        /// Centred on the source.
        case center
        /// Right sides or bottoms lined up.
        case end
    }

    /// What a hover tooltip lines up with along its edge.
    public enum Anchor: Hashable, Sendable, CaseIterable {
        /// The pointer where the tooltip shows (its arrow at the pointer, kept on the source),
        /// like GTK, Qt and macOS; beside a source much taller (or, on the leading and trailing
        /// edges, wider) than the tooltip, next to the pointer. Tooltips shown by keyboard
        /// focus, by a click or by `present()` still line up with the view.
        case pointer
        /// The source: the view, or the delegate's region of it.
        case source
        /// The pointer, all the while it moves inside the source: the tooltip moves with it
        /// (at most once a frame, ``ToolTipTimings/followInterval``), as Floating UI's
        /// `clientPoint` with follow does, and a delegate is asked again at each new position,
        /// so its text can tell where the pointer is ("x: 34%"). Charts, maps, sliders.
        case followsPointer

        /// Whether the tooltip lines up with the pointer (where it shows, or all along).
        package var usesPointer: Bool { self != .source }
    }

    /// The preferred side.
    public var edge: Edge
    /// The alignment along the side.
    public var alignment: Alignment
    /// Pixels (at 96 dpi) between the arrow's tip and the source, from 0 to 64; a value out
    /// of that range is clamped and one that is not a number is the default, 4.
    public var gap: Double {
        get { validGap }
        set { validGap = Self.valid(gap: newValue) }
    }
    private var validGap: Double
    /// What a hover tooltip lines up with along the edge: the pointer where it shows (the
    /// default), the pointer all the while it moves, or the source.
    public var anchor: Anchor

    /// Creates a placement.
    public init(edge: Edge, alignment: Alignment = .center, gap: Double = 4, anchor: Anchor = .pointer) {
        self.edge = edge
        self.alignment = alignment
        validGap = Self.valid(gap: gap)
        self.anchor = anchor
    }

    private static func valid(gap: Double) -> Double { gap.isNaN ? 4 : min(max(gap, 0), 64) }

    /// Above, centred (the default for click tooltips).
    public static let top = ToolTipPlacement(edge: .top)
    /// Below, centred (the default for hover tooltips).
    public static let bottom = ToolTipPlacement(edge: .bottom)
    /// To the left, centred.
    public static let leading = ToolTipPlacement(edge: .leading)
    /// To the right, centred.
    public static let trailing = ToolTipPlacement(edge: .trailing)
}
