/// What shows a tooltip.
public enum ToolTipTrigger: Hashable, Sendable {
    /// Resting the pointer on the view (or focusing it from the keyboard).
    case hover
    /// Clicking the view toggles the tooltip; a click elsewhere or Escape hides it.
    case click
}

/// A tooltip attached to a view, in the manner of UIKit's `UIToolTipInteraction`.
///
/// ```swift
/// buy.addInteraction(ToolTipInteraction(defaultToolTip: "Click to buy this item."))
///
/// let tip = ToolTipInteraction()          // text from the delegate, per point
/// tip.delegate = shop
/// cart.addInteraction(tip)
///
/// home.addInteraction(ToolTipInteraction(trigger: .click, placement: .top) {
///     HStack { Label("Home"); Circle(color: .green, diameter: 10) }
/// })
/// ```
@MainActor
public final class ToolTipInteraction: Interaction {
    /// The view the tooltip belongs to.
    public private(set) weak var view: View?

    /// Whether the tooltip can show; turning it off hides it.
    public var isEnabled = true {
        didSet { if !isEnabled { controller?.interactionDidBecomeUnavailable(self) } }
    }

    /// The text shown when there is no delegate, or the delegate is gone.
    public var defaultToolTip: String? {
        didSet { if defaultToolTip != oldValue { setNeedsUpdate() } }
    }

    /// Answers the tooltip per point (dynamic text, sub-regions); held weakly.
    public weak var delegate: (any ToolTipInteractionDelegate)?

    /// Hover or click.
    public let trigger: ToolTipTrigger

    /// Where the tooltip goes; nil uses the trigger's default (below for hover, above for click).
    public var placement: ToolTipPlacement?

    /// The look; nil uses the application's `toolTips.style`.
    public var style: ToolTipStyle?

    /// The delays; nil uses the application's `toolTips.timings`.
    public var timings: ToolTipTimings?

    private let defaultContent: ToolTipConfiguration.Content?

    /// Whether this is a view's expansion tooltip (see ``Label/allowsExpansionToolTips``): it
    /// belongs to its view without being one of its `interactions`, and answers the view's cut
    /// text made whole.
    let isExpansion: Bool

    /// A number unique to the interaction, for the state machine.
    let id: UInt64
    private static var nextID: UInt64 = 0

    /// Creates a hover tooltip with fixed text (or none, for a delegate to provide).
    public init(defaultToolTip: String? = nil) {
        self.defaultToolTip = defaultToolTip
        trigger = .hover
        defaultContent = nil
        isExpansion = false
        id = Self.makeID()
    }

    /// Creates a tooltip with fixed text and a trigger.
    public init(trigger: ToolTipTrigger, placement: ToolTipPlacement? = nil, defaultToolTip: String) {
        self.defaultToolTip = defaultToolTip
        self.trigger = trigger
        self.placement = placement
        defaultContent = nil
        isExpansion = false
        id = Self.makeID()
    }

    /// Creates a tooltip showing any view, built each time it shows.
    public init(
        trigger: ToolTipTrigger = .hover, placement: ToolTipPlacement? = nil,
        content: @escaping @MainActor () -> View
    ) {
        self.trigger = trigger
        self.placement = placement
        defaultContent = .view(content)
        isExpansion = false
        id = Self.makeID()
    }

    /// Creates a tooltip of icon-and-title items.
    public init(trigger: ToolTipTrigger = .hover, placement: ToolTipPlacement? = nil, items: [ToolTipItem]) {
        self.trigger = trigger
        self.placement = placement
        defaultContent = .items(items)
        isExpansion = false
        id = Self.makeID()
    }

    /// The expansion tooltip of `view`, whose text may be cut: it shows the full text over
    /// the cut text, placed at the text and not at an edge (the view keeps it; it is not one of
    /// the view's `interactions`, and is never the view's accessible description).
    init(expanding view: View & ExpandingText) {
        trigger = .hover
        defaultContent = nil
        isExpansion = true
        id = Self.makeID()
        self.view = view
    }

    private static func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// The placement in effect.
    public var resolvedPlacement: ToolTipPlacement {
        placement ?? (trigger == .click ? .top : .bottom)
    }

    /// Asks the delegate again; a shown tooltip re-renders in place, without hiding or
    /// restarting any timer.
    public func setNeedsUpdate() {
        controller?.interactionNeedsUpdate(self)
        if let view { view.window?.application?.accessibility?.descriptionMayHaveChanged(of: view) }
    }

    /// Shows the tooltip now, placed at the view as for keyboard focus, replacing any other.
    ///
    /// It stays until `dismiss()`, Escape, a click, or another tooltip replaces it. Nothing
    /// happens while the view is not on the screen or the interaction is disabled.
    public func present() {
        controller?.present(self)
    }

    /// Hides the tooltip if it is shown (or cancels it if it is waiting for its delay).
    public func dismiss() {
        controller?.dismiss(self)
    }

    /// The configuration at a point in the view: the delegate's answer, else the default.
    public func configuration(at point: Point) -> ToolTipConfiguration? {
        if isExpansion { return (view as? any ExpandingText)?.expansionConfiguration(at: point) }
        if let delegate { return delegate.toolTipInteraction(self, configurationAt: point) }
        if let defaultContent { return ToolTipConfiguration(content: defaultContent) }
        if let defaultToolTip { return ToolTipConfiguration(toolTip: defaultToolTip) }
        return nil
    }

    var controller: ToolTipController? { view?.window?.application?.toolTips }

    public func willMove(to view: View?) {
        if view == nil { controller?.interactionDidBecomeUnavailable(self) }
    }

    public func didMove(to view: View?) {
        self.view = view
    }

    /// Forwards what the view heard to the application's tooltip coordinator, which decides
    /// (once per event, over every tooltip that heard it: the innermost wins) what shows.
    public func handle(_ event: InteractionEvent) {
        guard ToolTipEventRouter.recordsHeard(event) else { return }
        controller?.router.interaction(self, heard: event)
    }
}

extension ToolTipConfiguration {
    init(content: Content) {
        self.content = content
        sourceRect = nil
    }
}

extension View {
    /// The text of the view's hover tooltip; setting it adds, changes or removes one.
    public var toolTip: String? {
        get { toolTipInteraction?.defaultToolTip }
        set {
            if let interaction = toolTipInteraction {
                if let newValue {
                    interaction.defaultToolTip = newValue
                } else {
                    removeInteraction(interaction)
                }
            } else if let newValue {
                addInteraction(ToolTipInteraction(defaultToolTip: newValue))
            }
        }
    }

    /// The view's first hover tooltip interaction.
    var toolTipInteraction: ToolTipInteraction? {
        for case let interaction as ToolTipInteraction in interactions where interaction.trigger == .hover {
            return interaction
        }
        return nil
    }

    /// The view's first click tooltip interaction (Space and Return toggle it when focused).
    var clickToolTipInteraction: ToolTipInteraction? {
        for case let interaction as ToolTipInteraction in interactions where interaction.trigger == .click {
            return interaction
        }
        return nil
    }
}
