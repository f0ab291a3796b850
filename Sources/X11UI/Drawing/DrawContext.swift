internal import CX11

/// Where views draw: shapes and images with cairo, text with Xft, into a window's back buffer
/// (or, for tests and images, into a bitmap).
///
/// Coordinates are those of the view being drawn; the toolkit translates and clips before it
/// calls `View.draw(in:)`.
@MainActor
public final class DrawContext {
    let cairo: OpaquePointer
    /// Xft's view of the same pixmap; nil when drawing into a bitmap (text is then skipped).
    private let xft: OpaquePointer?
    private let resources: DrawingResources?
    private var offset = Point.zero
    /// The device-space clip, for skipping text outside it.
    private var clip: Rect
    /// The toolkit's scale factor (``Application/scale``) for sizes given at 96 dpi.
    public let scale: Double
    /// The appearance the named colours are drawn in.
    public let appearance: Appearance
    /// Its colours' values (made once: a custom accent's are computed).
    private let palette: Palette

    /// A context drawing into a cairo context alone (bitmaps, tests).
    init(cairo: OpaquePointer, scale: Double = 1, appearance: Appearance = .light) {
        self.cairo = cairo
        xft = nil
        resources = nil
        clip = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
        self.scale = scale
        self.appearance = appearance
        palette = appearance.palette
    }

    /// A context drawing into a back buffer with cairo and Xft.
    init(buffer: BackBuffer, clip: Rect, scale: Double, appearance: Appearance) {
        cairo = buffer.cairo
        xft = buffer.xftDraw
        resources = buffer.resources
        self.clip = clip
        self.scale = scale
        self.appearance = appearance
        palette = appearance.palette
    }

    // MARK: - State

    /// Runs `body` with the origin moved by `(dx, dy)` and drawing clipped to `rect` (in the
    /// moved coordinates); nothing is drawn when the clip is empty.
    func withTranslation(dx: Double, dy: Double, clippedTo rect: Rect?, _ body: () -> Void) {
        let savedOffset = offset
        let savedClip = clip
        cairo_save(cairo)
        cairo_translate(cairo, dx, dy)
        offset = offset.offsetBy(dx: dx, dy: dy)
        if let rect {
            clip = clip.intersection(rect.offsetBy(dx: offset.x, dy: offset.y))
            cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
            cairo_clip(cairo)
        }
        if !clip.isEmpty { body() }
        cairo_restore(cairo)
        offset = savedOffset
        clip = savedClip
    }

    /// Whether a rectangle (in current coordinates) can show anything.
    public func isVisible(_ rect: Rect) -> Bool {
        clip.intersects(rect.offsetBy(dx: offset.x, dy: offset.y))
    }

    // MARK: - Shapes

    private func setSource(_ color: Color) {
        let c = color.resolved(with: palette)
        cairo_set_source_rgba(cairo, c.red, c.green, c.blue, c.alpha)
    }

    private func append(_ path: Path) {
        cairo_new_path(cairo)
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(cairo, p.x, p.y)
            case .line(let p): cairo_line_to(cairo, p.x, p.y)
            case .arc(let c, let r, let a0, let a1): cairo_arc(cairo, c.x, c.y, r, a0, a1)
            case .close: cairo_close_path(cairo)
            }
        }
    }

    /// Makes a rectangle fully transparent (or black, on windows without alpha).
    func clear(_ rect: Rect) {
        cairo_save(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    /// Fills a rectangle.
    public func fill(_ rect: Rect, color: Color) {
        setSource(color)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(cairo)
    }

    /// Fills a rectangle with rounded corners.
    public func fill(_ rect: Rect, cornerRadius: Double, color: Color) {
        guard cornerRadius > 0 else { return fill(rect, color: color) }
        var path = Path()
        path.addRoundedRect(rect, radius: cornerRadius)
        fill(path, color: color)
    }

    /// Strokes the outline of a rounded rectangle, inside `rect`.
    public func stroke(_ rect: Rect, cornerRadius: Double, color: Color, lineWidth: Double) {
        var path = Path()
        let half = lineWidth / 2
        path.addRoundedRect(rect.insetBy(dx: half, dy: half), radius: max(0, cornerRadius - half))
        stroke(path, color: color, lineWidth: lineWidth)
    }

    /// Fills a path.
    public func fill(_ path: Path, color: Color) {
        setSource(color)
        append(path)
        cairo_fill(cairo)
    }

    /// Strokes a path.
    public func stroke(_ path: Path, color: Color, lineWidth: Double) {
        setSource(color)
        append(path)
        cairo_set_line_width(cairo, lineWidth)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(cairo)
    }

    /// Fills the circle inscribed in `rect`.
    public func fillCircle(in rect: Rect, color: Color) {
        var path = Path()
        path.addCircle(center: rect.center, radius: min(rect.width, rect.height) / 2)
        fill(path, color: color)
    }

    /// A soft shadow under a path: the path filled in `color`, blurred by stacking a few
    /// widening, fading copies (cheap, and no temporary surfaces).
    public func shadow(_ path: Path, color: Color, radius: Double, offset: Point) {
        let steps = max(1, Int(radius.rounded()))
        cairo_save(cairo)
        cairo_translate(cairo, offset.x, offset.y)
        append(path)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        for step in stride(from: steps, through: 1, by: -1) {
            let fraction = Double(step) / Double(steps)
            setSource(color.multipliedAlpha((1 - fraction) * 2 / Double(steps)))
            cairo_set_line_width(cairo, 2 * Double(step))
            cairo_stroke_preserve(cairo)
        }
        setSource(color)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    // MARK: - Images

    /// Draws an image scaled into `rect`; with `tint`, the image's alpha is filled with the tint
    /// (monochrome icons take the colour of the text around them).
    public func draw(_ image: Image, in rect: Rect, tint: Color? = nil) {
        guard image.size.width > 0, image.size.height > 0, !rect.isEmpty else { return }
        cairo_save(cairo)
        cairo_translate(cairo, rect.minX, rect.minY)
        cairo_scale(cairo, rect.width / image.size.width, rect.height / image.size.height)
        let source = resources?.serverCopy(of: image, like: cairo_get_target(cairo)) ?? image.surface
        if let tint {
            setSource(tint)
            cairo_mask_surface(cairo, source, 0, 0)
        } else {
            cairo_set_source_surface(cairo, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
            cairo_paint(cairo)
        }
        cairo_restore(cairo)
    }

    // MARK: - Text

    /// Draws laid-out text with its top-left corner at `origin`; each line is placed within
    /// `width` by `alignment`.
    func draw(
        _ layout: TextLayout, font: FontSet, color: Color, origin: Point, width: Double,
        alignment: TextAlignment = .leading
    ) {
        guard let xft, let resources else { return }
        cairo_surface_flush(cairo_get_target(cairo))
        let xftColor = resources.xftColor(color.resolved(with: palette), visual: resources.visual(of: xft))
        // Lines sit inside the room the layout keeps for ink reaching out of them.
        let origin = Point(x: origin.x + layout.inkInsets.left, y: origin.y + layout.inkInsets.top)
        let width = layout.linesWidth(in: width)
        for (index, line) in layout.lines.enumerated() {
            let top = origin.y + Double(index) * layout.lineHeight
            let lineRect = Rect(x: origin.x, y: top, width: max(width, line.width), height: layout.lineHeight)
            guard isVisible(lineRect) else { continue }
            let x = origin.x + line.lineOffset(in: width, alignment: alignment)
            let textX = origin.x + line.textOffset(in: width, alignment: alignment, measurer: font)
            // A right-to-left line ends at its left: the ellipsis goes there.
            let ellipsisX = line.isRightToLeft ? x : textX + line.displayWidth(measurer: font)
            let baseline = top + layout.ascent + offset.y
            // Only what the clip shows is drawn: a line far wider than the window (a 256 KiB
            // label that does not wrap) costs its visible glyphs, never one oversized request.
            let visible = clip.minX...clip.maxX
            withUnsafePointer(to: xftColor) { colorPointer in
                font.draw(
                    line.displayText, on: xft, color: colorPointer, x: textX + offset.x, y: baseline, visible: visible)
                if line.isEllipsized {
                    font.draw(
                        TextLayout.ellipsis, on: xft, color: colorPointer, x: ellipsisX + offset.x, y: baseline,
                        visible: visible)
                }
            }
        }
    }
}

/// How lines of text sit within the width they are given. Leading and trailing follow each
/// line's direction: a right-to-left line (Hebrew, Arabic) starts at the right edge.
public enum TextAlignment: Hashable, Sendable {
    /// Lines start at their start edge: the left one, the right one for right-to-left lines.
    case leading
    /// Lines are centred.
    case center
    /// Lines end at their end edge: the right one, the left one for right-to-left lines.
    case trailing
}
