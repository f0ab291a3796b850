/// The delays of tooltips, as named constants you can change globally
/// (`application.toolTips.timings`) or per interaction (`interaction.timings`).
public struct ToolTipTimings: Hashable, Sendable {
    /// How long the pointer rests on a source (or keyboard focus stays) before its tooltip shows.
    public var initialDelay: Duration {
        didSet { initialDelay = Self.sane(initialDelay) }
    }
    /// The shorter delay while browsing: soon after one tooltip hid, the next shows this fast.
    public var browseDelay: Duration {
        didSet { browseDelay = Self.sane(browseDelay) }
    }
    /// How long after a tooltip hid browsing stays on.
    public var browseTimeout: Duration {
        didSet { browseTimeout = Self.sane(browseTimeout) }
    }
    /// How long the pointer may rest between the source and its tooltip, in the safe region
    /// toward it, before the tooltip hides (counted from its last motion there). Leaving away
    /// from the tooltip hides it at once.
    public var hoverGrace: Duration {
        didSet { hoverGrace = Self.sane(hoverGrace) }
    }
    /// Hides a tooltip after this long; nil keeps it until dismissed (the default, as WCAG 2.1
    /// SC 1.4.13 asks: tooltips persist).
    public var autoHide: Duration? {
        didSet { autoHide = autoHide.map(Self.sane) }
    }

    /// The least time between two moves of a tooltip that follows the pointer
    /// (``ToolTipPlacement/Anchor/followsPointer``): a frame at 60 Hz by default. Motion in
    /// between is coalesced into one move to where the pointer is at the end of the frame.
    public var followInterval: Duration = Self.frame {
        didSet { followInterval = Self.sane(followInterval) }
    }

    /// One frame at 60 Hz.
    public static let frame = Duration.microseconds(16_667)

    /// The standard delays, the same as GTK's: 500 ms, 60 ms browsing within 500 ms; and
    /// 150 ms for a pointer that stops on its way to the tooltip.
    public static let standard = ToolTipTimings(
        initialDelay: .milliseconds(500), browseDelay: .milliseconds(60), browseTimeout: .milliseconds(500),
        hoverGrace: .milliseconds(150), autoHide: nil)

    /// Creates timings; each delay is clamped to 0 … 1 hour, as the setters clamp it.
    public init(
        initialDelay: Duration, browseDelay: Duration, browseTimeout: Duration, hoverGrace: Duration,
        autoHide: Duration? = nil
    ) {
        self.initialDelay = Self.sane(initialDelay)
        self.browseDelay = Self.sane(browseDelay)
        self.browseTimeout = Self.sane(browseTimeout)
        self.hoverGrace = Self.sane(hoverGrace)
        self.autoHide = autoHide.map(Self.sane)
    }

    /// A delay clamped to 0 … 1 hour: negative delays and ones that would overflow a deadline
    /// do not reach the state machine.
    private static func sane(_ delay: Duration) -> Duration { max(.zero, min(delay, .seconds(3600))) }
}
