/// Multi-line read-only text the user can select: drag to select, double-click for a word,
/// triple-click for a line; the selection goes to PRIMARY, Ctrl+C copies it to CLIPBOARD. The
/// pointer over it is the I-beam (``View/cursor`` is ``Cursor/text``).
///
/// ```swift
/// let text = TextView("Select some of this text.")
/// text.onSelectionChange = { view in print(view.selectedText) }
/// ```
@MainActor
open class TextView: View {
    /// The text.
    public var text: String {
        didSet {
            selection = nil
            cachedLayout = nil
            invalidateIntrinsicSize()
            setNeedsDisplay()
        }
    }
    /// The font.
    public var font: Font = .body {
        didSet { cachedLayout = nil; invalidateIntrinsicSize(); setNeedsDisplay() }
    }
    /// The text colour.
    public var textColor: Color = .label {
        didSet { if textColor != oldValue { setNeedsDisplay() } }
    }
    /// The colour behind selected text.
    public var selectionColor = Color.selection {
        didSet { if selectionColor != oldValue { setNeedsDisplay() } }
    }
    /// Space between the edges and the text (96 dpi pixels).
    public var padding = 8.0

    /// Called after the selection changed.
    public var onSelectionChange: ((TextView) -> Void)?

    /// The selected range of `text`, if any.
    public private(set) var selection: Range<String.Index>? {
        didSet {
            if selection != oldValue {
                setNeedsDisplay()
                onSelectionChange?(self)
                window?.application?.accessibility?.textSelectionDidChange(in: self)
            }
        }
    }

    private var anchor: String.Index?
    private var cachedLayout: (width: Double, fonts: Int, layout: TextLayout)?

    /// Creates a text view.
    public init(_ text: String) {
        self.text = text
        super.init()
        backgroundColor = .controlBackground
        borderColor = .separator
        cornerRadius = 6
        cursor = .text
    }

    open override var acceptsFocus: Bool { true }
    open override var drawsOwnFocusRing: Bool { true }

    /// The selected text ("" when nothing is selected).
    public var selectedText: String {
        guard let selection, !selection.isEmpty else { return "" }
        return String(text[selection])
    }

    /// Selects a range of `text` (nil clears the selection). A range that ends inside a
    /// grapheme cluster (between a letter and its mark, inside a flag or a family emoji) grows
    /// to cover the whole cluster.
    public func select(_ range: Range<String.Index>?) {
        selection = range.map { range in
            let clamped = range.clamped(to: text.startIndex..<text.endIndex)
            return clusterBoundary(atOrBefore: clamped.lowerBound)..<clusterBoundary(atOrAfter: clamped.upperBound)
        }
    }

    private func clusterBoundary(atOrBefore index: String.Index) -> String.Index {
        var index = index
        while index > text.startIndex, index.samePosition(in: text) == nil {
            index = text.unicodeScalars.index(before: index)
        }
        return index
    }

    private func clusterBoundary(atOrAfter index: String.Index) -> String.Index {
        var index = index
        while index < text.endIndex, index.samePosition(in: text) == nil {
            index = text.unicodeScalars.index(after: index)
        }
        return index
    }

    /// Selects all of the text.
    public func selectAll() { select(text.startIndex..<text.endIndex) }

    private var inset: Double { padding * scale }

    private func layout() -> TextLayout? {
        let width = max(1, textWidth)
        if let cachedLayout, cachedLayout.width == width, cachedLayout.fonts == fontGeneration {
            return cachedLayout.layout
        }
        guard let fonts = fontSet(font) else { return nil }
        let layout = TextLayout(
            text: text, measurer: fonts, maxWidth: width,
            maxLines: TextLayout.viewableLines(lineHeight: fonts.lineHeight))
        cachedLayout = (width, fontGeneration, layout)
        return layout
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        guard let fonts = fontSet(font) else { return .zero }
        let width = proposal.width.isFinite ? max(1, proposal.width - 2 * inset) : nil
        let size = TextLayout(
            text: text, measurer: fonts, maxWidth: width,
            maxLines: TextLayout.viewableLines(lineHeight: fonts.lineHeight)
        ).size
        return Size(width: (size.width + 2 * inset).rounded(.up), height: (size.height + 2 * inset).rounded(.up))
    }

    // MARK: - Selection geometry

    /// The rectangles covering the selection in the view's coordinates: one per line, or more
    /// on a line where right-to-left text splits the selection as drawn.
    public var selectionRects: [Rect] {
        guard let selection else { return [] }
        return rects(covering: selection)
    }

    /// The rectangles covering a range of `text` as drawn, in the view's coordinates.
    func rects(covering range: Range<String.Index>) -> [Rect] {
        guard !range.isEmpty, let layout = layout(), let fonts = fontSet(font) else { return [] }
        return layout.rects(covering: range, measurer: fonts, width: textWidth).map {
            $0.offsetBy(dx: inset, dy: inset)
        }
    }

    /// The index in `text` nearest to a point in the view.
    public func index(at point: Point) -> String.Index {
        guard let layout = layout(), let fonts = fontSet(font) else { return text.startIndex }
        let local = Point(x: point.x - inset, y: point.y - inset)
        if local.y < 0 { return layout.lines.first?.text.startIndex ?? text.startIndex }
        if local.y >= layout.size.height { return layout.lines.last?.text.endIndex ?? text.endIndex }
        return layout.position(at: local, measurer: fonts, width: textWidth).index
    }

    /// The width the text is laid out and drawn in.
    private var textWidth: Double { bounds.width - 2 * inset }

    // MARK: - Drawing

    open override func draw(in context: DrawContext) {
        for rect in selectionRects { context.fill(rect, color: selectionColor) }
        guard let fonts = fontSet(font), let layout = layout() else { return }
        let color = isEnabledInHierarchy ? textColor : textColor.multipliedAlpha(0.4)
        context.draw(layout, font: fonts, color: color, origin: Point(x: inset, y: inset), width: textWidth)
        if showsFocusRing {
            context.stroke(bounds, cornerRadius: cornerRadius, color: .focusRing, lineWidth: 2)
        }
    }

    // MARK: - Events

    open override func buttonPressed(_ event: ViewButtonEvent) -> Bool {
        guard event.button == .primary else { return false }
        let index = index(at: event.location)
        switch event.clickCount {
        case 1:
            anchor = index
            selection = nil
        case 2:
            let word = wordRange(around: index)
            anchor = word.lowerBound
            selection = word
        default:
            let line = lineRange(around: index)
            anchor = line.lowerBound
            selection = line
        }
        return true
    }

    open override func pointerDragged(to point: Point) {
        guard let anchor else { return }
        let index = index(at: point)
        selection = min(anchor, index)..<max(anchor, index)
    }

    open override func buttonReleased(_ event: ViewButtonEvent) {
        anchor = nil
        if !selectedText.isEmpty, let application = window?.application {
            application.selections.own(application.connection.atoms.primary, text: selectedText, time: 0)
        }
    }

    open override func keyPressed(_ event: ViewKeyEvent) -> Bool {
        guard event.modifiers.contains(.control), case .character(let c) = event.key else { return false }
        switch c.lowercased() {
        case "c":
            guard !selectedText.isEmpty, let application = window?.application else { return true }
            application.selections.own(application.connection.atoms.clipboard, text: selectedText, time: event.time)
            return true
        case "a":
            selectAll()
            return true
        default:
            return false
        }
    }

    private func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "'" }

    /// The word (or run of non-word characters) around an index; in Thai, written without
    /// spaces, the dictionary's word.
    func wordRange(around index: String.Index) -> Range<String.Index> {
        guard !text.isEmpty else { return text.startIndex..<text.endIndex }
        var probe = index
        if probe == text.endIndex { probe = text.index(before: probe) }
        if let word = WordDictionary.word(in: text[...], around: probe) { return word }
        let kind = isWordCharacter(text[probe])
        var lower = probe
        while lower > text.startIndex {
            let previous = text.index(before: lower)
            if isWordCharacter(text[previous]) != kind || text[previous].isNewline { break }
            lower = previous
        }
        var upper = text.index(after: probe)
        while upper < text.endIndex, isWordCharacter(text[upper]) == kind, !text[upper].isNewline {
            upper = text.index(after: upper)
        }
        return lower..<upper
    }

    /// The laid-out line around an index.
    func lineRange(around index: String.Index) -> Range<String.Index> {
        guard let layout = layout() else { return text.startIndex..<text.endIndex }
        for line in layout.lines where index >= line.text.startIndex && index <= line.text.endIndex {
            return line.text.startIndex..<line.text.endIndex
        }
        return text.startIndex..<text.endIndex
    }
}
