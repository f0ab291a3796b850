/// What a view is to assistive technologies (a screen reader says it after the name: "Buy,
/// push button"): the AT-SPI2 roles X11UI's widgets take.
///
/// ```swift
/// let swatch = View()
/// swatch.accessibilityRole = .image
/// swatch.accessibilityLabel = "Yellow"
/// ```
public struct AccessibilityRole: Hashable, Sendable {
    /// The AT-SPI2 role number (`AtspiRole`).
    public let rawValue: UInt32
    /// The role's name as AT-SPI2 spells it ("push button").
    public let name: String

    /// Creates a role from its AT-SPI2 number and name, for roles X11UI has no constant for.
    public init(rawValue: UInt32, name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    /// A button that does something when clicked (`Button`).
    public static let pushButton = AccessibilityRole(rawValue: 43, name: "push button")
    /// Text that does not change from the keyboard (`Label`).
    public static let label = AccessibilityRole(rawValue: 29, name: "label")
    /// A picture (`ImageView`, the shape views).
    public static let image = AccessibilityRole(rawValue: 27, name: "image")
    /// Text a user reads and selects (`TextView`).
    public static let text = AccessibilityRole(rawValue: 61, name: "text")
    /// A container that groups other views (stacks, plain views).
    public static let panel = AccessibilityRole(rawValue: 39, name: "panel")
    /// Empty space that only lays things out (`Spacer`).
    public static let filler = AccessibilityRole(rawValue: 20, name: "filler")
    /// A top-level window.
    public static let frame = AccessibilityRole(rawValue: 23, name: "frame")
    /// A shown tooltip.
    public static let toolTip = AccessibilityRole(rawValue: 64, name: "tool tip")
    /// The application itself, the root of its tree.
    public static let application = AccessibilityRole(rawValue: 75, name: "application")
}

extension View {
    /// The role assistive technologies see: `accessibilityRole` when set, else the widget's
    /// own (push button, label, image, text; panel for other views). A view with a click
    /// tooltip is a push button: Tab reaches it and Space toggles its tooltip, so it is the
    /// button of a toggletip (as WAI-ARIA's pattern has it), and screen readers read its
    /// tooltip as its description (Orca reads none for a label).
    public var resolvedAccessibilityRole: AccessibilityRole {
        if let accessibilityRole { return accessibilityRole }
        if clickToolTipInteraction?.isEnabled == true { return .pushButton }
        switch self {
        case is Button: return .pushButton
        case is Label: return .label
        case is TextView: return .text
        case is ImageView, is Circle, is RoundedRectangle: return .image
        case is Spacer: return .filler
        default: return .panel
        }
    }

    /// The name assistive technologies read: `accessibilityLabel` when set, else a button's
    /// title and subtitle, or a label's text; nil for other views.
    public var resolvedAccessibilityLabel: String? {
        if let accessibilityLabel { return accessibilityLabel }
        switch self {
        case let button as Button:
            guard let subtitle = button.subtitle, !subtitle.isEmpty else { return button.title }
            return button.title + ", " + subtitle
        case let label as Label: return label.text
        default: return nil
        }
    }

    /// The view's accessible description: the plain text of its tooltip for the whole view
    /// (the default tooltip, or the delegate's answer at the view's centre when it is not for
    /// a region); nil when it has none.
    public var accessibilityDescription: String? {
        for case let interaction as ToolTipInteraction in interactions where interaction.isEnabled {
            let centre = Point(x: bounds.midX, y: bounds.midY)
            guard let configuration = interaction.configuration(at: centre), configuration.sourceRect == nil,
                configuration.hasContent
            else { continue }
            return configuration.plainText
        }
        return nil
    }

    /// Tells assistive technologies that the view's name changed: its own, or that of the
    /// button it is the title of.
    func accessibilityLabelDidChange() {
        guard let bridge = window?.application?.accessibility else { return }
        var owner: View = self
        var current = superview
        while let view = current {
            if view is Button { owner = view }
            current = view.superview
        }
        bridge.nameDidChange(of: owner)
    }
}

extension ToolTipConfiguration {
    /// The text a screen reader reads for the content: the text, the items' titles, or the
    /// labels of a view (built for the purpose).
    @MainActor var plainText: String {
        switch content {
        case .text(let text): return text
        case .items(let items): return items.map(\.title).joined(separator: " ")
        case .view(let make): return ToolTipPresenter.plainText(of: make())
        }
    }
}
