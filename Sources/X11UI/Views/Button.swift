/// A push button: a title, an optional subtitle and leading image, filled or plain.
///
/// It runs its action when clicked (press and release inside), when Space or Return is
/// pressed while it has focus, or when its ``View/keyboardShortcut`` is pressed anywhere in its
/// window. A disabled button (`isEnabled = false`) is drawn dimmed, runs no action, shows no
/// hover or pressed state and is skipped by Tab; its tooltip still shows.
///
/// ```swift
/// let buy = Button(title: "Buy", subtitle: "Only $9.99") { print("Thank you") }
/// let cart = Button(title: "Add to Cart", image: .asset("cart"), style: .plain)
/// let save = Button(title: "Save", keyboardShortcut: KeyboardShortcut("s")) { document.save() }
/// ```
@MainActor
open class Button: View {
    /// How the button is drawn.
    public enum Style: Hashable, Sendable {
        /// A solid accent-coloured background with white text (black on a light tint).
        case filled
        /// Accent-coloured text on a faint tint of the accent.
        case plain
    }

    /// The main text.
    public var title: String {
        didSet { titleLabel.text = title }
    }
    /// A second, smaller line under the title.
    public var subtitle: String? {
        didSet { subtitleLabel.text = subtitle ?? ""; subtitleLabel.isHidden = subtitle == nil }
    }
    /// The image before the text.
    public var image: Image? {
        didSet { imageView.image = image; imageView.isHidden = image == nil }
    }
    /// The look.
    public var style: Style {
        didSet { applyColors() }
    }
    /// The accent colour: the appearance's (``Color/accent``) unless set. The text on a filled
    /// button is the appearance's ``Color/accentForeground`` on the accent, and white or black,
    /// whichever reads better, on a colour of the program's own.
    public var tint: Color = .accent {
        didSet { applyColors() }
    }
    /// What a click does.
    public var action: (() -> Void)?
    /// Whether the full title shows in a tooltip over the button while the title is cut (the
    /// button is narrower than its content); on by default. The button's own tooltip, if any,
    /// shows below the full title in the same bubble.
    public var allowsExpansionToolTips = true {
        didSet { expansion?.isEnabled = allowsExpansionToolTips }
    }
    var expansion: ToolTipInteraction?

    /// Whether the pointer is over the button (and it is enabled).
    public var isHovered: Bool { isPointerInside && isEnabledInHierarchy }
    /// Whether the button is held down.
    public private(set) var isPressed = false
    private var isPointerInside = false

    private let titleLabel: Label
    private let subtitleLabel: Label
    private let imageView: ImageView
    private let textStack: VStack
    private let row: HStack

    /// Creates a button; `keyboardShortcut` runs its action from anywhere in its window (Ctrl+S,
    /// say: `KeyboardShortcut("s")`).
    public init(
        title: String, subtitle: String? = nil, image: Image? = nil, style: Style = .filled,
        keyboardShortcut: KeyboardShortcut? = nil, action: (() -> Void)? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
        self.style = style
        self.action = action
        let titleLabel = Label(title, font: Font.body.withWeight(.semibold))
        titleLabel.wrapsText = false
        let subtitleLabel = Label(subtitle ?? "", font: .caption)
        subtitleLabel.wrapsText = false
        subtitleLabel.isHidden = subtitle == nil
        let imageView = ImageView(image, size: Size(width: 20, height: 20))
        imageView.isHidden = image == nil
        let textStack = VStack(spacing: 1, alignment: .start) {
            titleLabel; subtitleLabel
        }
        self.titleLabel = titleLabel
        self.subtitleLabel = subtitleLabel
        self.imageView = imageView
        self.textStack = textStack
        row = HStack(spacing: 6, padding: EdgeInsets(horizontal: 14, vertical: 7)) {
            imageView; textStack
        }
        super.init()
        self.keyboardShortcut = keyboardShortcut
        cornerRadius = 8
        addSubview(row)
        applyColors()
    }

    /// The opacity of a disabled button's text, image and fill.
    static let disabledAlpha = 0.4

    /// Whether the tint is the appearance's accent (whose text colours the palette keeps).
    private var usesAccent: Bool { tint == .accent }

    private func applyColors() {
        let alpha = isEnabledInHierarchy ? 1 : Self.disabledAlpha
        let foreground: Color
        switch style {
        case .filled: foreground = usesAccent ? .accentForeground : Self.readableText(on: tint, in: appearance)
        case .plain: foreground = usesAccent ? .accentText : tint
        }
        titleLabel.textColor = foreground.multipliedAlpha(alpha)
        subtitleLabel.textColor = (style == .filled ? foreground : .secondaryLabel).multipliedAlpha(alpha)
        imageView.tint = foreground.multipliedAlpha(alpha)
        setNeedsDisplay()
    }

    /// The appearance the button is drawn in.
    private var appearance: Appearance { window?.application?.appearance ?? .light }

    /// White, or black where it reads better, on a colour of the program's own.
    static func readableText(on fill: Color, in appearance: Appearance) -> Color {
        let fill = Palette.over(fill.resolved(in: appearance), appearance.palette[.windowBackground])
        return Palette.contrast(.white, fill) >= min(4.5, Palette.contrast(.black, fill)) ? .white : .black
    }

    /// What a filled button's fill is shaded with when hovered and pressed: away from its text.
    private var shade: Color {
        guard !usesAccent else { return .accentShade }
        return Self.readableText(on: tint, in: appearance) == .white ? .black : .white
    }

    open override func appearanceDidChange() { applyColors() }

    open override var acceptsFocus: Bool { true }
    open override var drawsOwnFocusRing: Bool { true }

    open override func enabledDidChange() {
        if !isEnabledInHierarchy { isPressed = false }
        applyColors()
    }

    /// Room around the body for the focus ring.
    private var ringMargin: Double { (3 * scale).rounded() }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        let inner = row.fittingSize(for: Size(width: .infinity, height: .infinity))
        let margin = 2 * ringMargin
        return Size(width: inner.width + margin, height: max(inner.height, 28 * scale) + margin)
    }

    open override func layoutSubviews() {
        let inner = row.fittingSize(for: Size(width: .infinity, height: .infinity))
        // A button given less width than its content (a preferred width, a narrow column) cuts
        // its title and subtitle with an ellipsis; the image and the padding stay whole.
        let width = min(inner.width, max(0, bounds.width - 2 * ringMargin))
        row.frame = Rect(
            x: ((bounds.width - width) / 2).rounded(), y: ((bounds.height - inner.height) / 2).rounded(),
            width: width, height: inner.height)
        row.layoutIfNeeded()
        if width < inner.width {
            var text = textStack.frame
            text.size.width = max(0, text.width - (inner.width - width))
            textStack.frame = text
            textStack.layoutIfNeeded()
        }
    }

    open override func draw(in context: DrawContext) {
        let body = bounds.insetBy(dx: ringMargin, dy: ringMargin)
        let radius = cornerRadius * scale
        var fill: Color
        switch style {
        case .filled:
            fill = tint
            if isHovered { fill = fill.mixed(with: shade, amount: 0.1) }
            if isPressed { fill = fill.mixed(with: shade, amount: 0.25) }
            if !isEnabledInHierarchy { fill = fill.multipliedAlpha(Self.disabledAlpha) }
        case .plain:
            let strength = isPressed ? Palette.pressedTint : isHovered ? 0.14 : isEnabledInHierarchy ? 0.08 : 0.04
            fill = tint.multipliedAlpha(strength)
        }
        context.fill(body, cornerRadius: radius, color: fill)
        // Clear in the standard contrast; a solid outline in high contrast.
        let border =
            isEnabledInHierarchy ? Color.controlBorder : Color.controlBorder.multipliedAlpha(Self.disabledAlpha)
        context.stroke(body.insetBy(dx: 0.5, dy: 0.5), cornerRadius: max(0, radius - 0.5), color: border, lineWidth: 1)
        if showsFocusRing {
            context.stroke(
                bounds.insetBy(dx: 0.5, dy: 0.5), cornerRadius: radius + ringMargin,
                color: usesAccent ? .focusRing : tint.withAlpha(0.6), lineWidth: max(2, ringMargin - 1))
        }
    }

    open override var alignmentRect: Rect { bounds.insetBy(dx: ringMargin, dy: ringMargin) }

    // MARK: - Events

    open override func pointerEntered() {
        isPointerInside = true
        if isEnabledInHierarchy { setNeedsDisplay() }
    }

    open override func pointerExited() {
        isPointerInside = false
        if isEnabledInHierarchy { setNeedsDisplay() }
    }

    open override func buttonPressed(_ event: ViewButtonEvent) -> Bool {
        guard event.button == .primary, isEnabledInHierarchy else { return false }
        isPressed = true
        setNeedsDisplay()
        return true
    }

    open override func pointerDragged(to point: Point) {
        let inside = bounds.contains(point) && isEnabledInHierarchy
        if inside != isPressed {
            isPressed = inside
            setNeedsDisplay()
        }
    }

    open override func buttonReleased(_ event: ViewButtonEvent) {
        let inside = bounds.contains(event.location)
        isPressed = false
        setNeedsDisplay()
        if inside, isEnabledInHierarchy { action?() }
    }

    open override func keyPressed(_ event: ViewKeyEvent) -> Bool {
        guard event.key == .space || event.key == .return, isEnabledInHierarchy else { return false }
        action?()
        return true
    }

    /// Runs the action as if clicked (nothing when the button is disabled).
    public func performClick() {
        if isEnabledInHierarchy { action?() }
    }

    /// The title's label, whose text an expansion tooltip shows whole when it is cut.
    var expansionTitle: Label { titleLabel }

    /// The shortcut runs the action, as a click does.
    open override func keyboardShortcutPressed() -> Bool {
        guard isEnabledInHierarchy else { return false }
        action?()
        return true
    }

    /// The button's text views never take hits; the button does.
    open override func hitTest(_ point: Point) -> View? {
        guard !isHidden, bounds.contains(point) else { return nil }
        return self
    }
}

extension Button: ExpandingText {
    var cutLabel: Label? { allowsExpansionToolTips && expansionTitle.isTruncated ? expansionTitle : nil }
}
