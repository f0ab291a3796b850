/// A filled circle, such as the coloured dots in tooltips.
@MainActor
open class Circle: View {
    /// The fill colour.
    public var color: Color {
        didSet { setNeedsDisplay() }
    }

    /// Creates a circle of a diameter (pixels at 96 dpi).
    public init(color: Color, diameter: Double = 10) {
        self.color = color
        super.init()
        self.diameter = diameter
    }

    /// The diameter at 96 dpi.
    public var diameter: Double = 10 {
        didSet { invalidateIntrinsicSize() }
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: diameter * scale, height: diameter * scale)
    }

    open override func draw(in context: DrawContext) {
        let side = min(bounds.width, bounds.height)
        let rect = Rect(x: (bounds.width - side) / 2, y: (bounds.height - side) / 2, width: side, height: side)
        context.fillCircle(in: rect, color: color)
    }
}

/// A filled rectangle with rounded corners.
@MainActor
open class RoundedRectangle: View {
    /// Creates a rounded rectangle of a size (pixels at 96 dpi).
    public init(color: Color, size: Size, cornerRadius: Double = 6) {
        size96 = size
        super.init()
        backgroundColor = color
        self.cornerRadius = cornerRadius
    }

    /// The size at 96 dpi.
    public var size96: Size {
        didSet { invalidateIntrinsicSize() }
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: size96.width * scale, height: size96.height * scale)
    }
}

/// Empty space that takes whatever room a stack has left over.
@MainActor
open class Spacer: View {
    /// The least length the spacer takes.
    public var minLength: Double

    /// Creates a spacer.
    public init(minLength: Double = 0) {
        self.minLength = minLength
        super.init()
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        Size(width: minLength * scale, height: minLength * scale)
    }
}
