/// Shows an image, scaled to fit its bounds with its aspect ratio kept.
///
/// ```swift
/// let home = ImageView(.asset("house"), size: Size(width: 48, height: 48))
/// home.tint = .label      // monochrome icons take a colour
/// ```
@MainActor
open class ImageView: View {
    /// The image.
    public var image: Image? {
        didSet { invalidateIntrinsicSize(); setNeedsDisplay() }
    }
    /// When set, the image's shape is filled with this colour.
    public var tint: Color? {
        didSet { setNeedsDisplay() }
    }
    /// The display size at 96 dpi; nil uses the image's pixel size.
    public var displaySize: Size? {
        didSet { invalidateIntrinsicSize() }
    }

    /// Creates an image view.
    public init(_ image: Image?, size: Size? = nil, tint: Color? = nil) {
        self.image = image
        self.tint = tint
        displaySize = size
        super.init()
    }

    open override func sizeThatFits(_ proposal: Size) -> Size {
        guard let base = displaySize ?? image?.size else { return .zero }
        return Size(width: (base.width * scale).rounded(), height: (base.height * scale).rounded())
    }

    open override func draw(in context: DrawContext) {
        guard let image, image.size.width > 0, image.size.height > 0 else { return }
        let factor = min(bounds.width / image.size.width, bounds.height / image.size.height)
        let size = Size(width: image.size.width * factor, height: image.size.height * factor)
        let rect = Rect(
            x: ((bounds.width - size.width) / 2).rounded(), y: ((bounds.height - size.height) / 2).rounded(),
            width: size.width, height: size.height)
        context.draw(image, in: rect, tint: tint)
    }
}
