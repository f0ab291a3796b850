import CX11
import Foundation
import Testing

@testable import X11UI
@testable import X11UICore

/// Views and the tooltip bubble drawn into a cairo image surface (no display; text, which needs
/// Xft, is left out), compared with reference PNGs in `References/` within a tolerance, plus
/// pixel checks that do not depend on a reference.
///
/// `X11UI_UPDATE_REFERENCES=1 swift test --filter Rendering` rewrites the references; look at
/// them before committing.
@MainActor
@Suite struct RenderingTests {
    static let references = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("References")

    /// The largest difference in any channel (0–255, straight alpha) between two colours.
    static func difference(_ a: Color, _ b: Color) -> Int {
        let channels = [
            (a.red * a.alpha, b.red * b.alpha), (a.green * a.alpha, b.green * b.alpha),
            (a.blue * a.alpha, b.blue * b.alpha), (a.alpha, b.alpha),
        ]
        return channels.map { Int((abs($0.0 - $0.1) * 255).rounded()) }.max() ?? 0
    }

    /// Compares an image with its reference: the same size, and no more than 0.5 % of the
    /// pixels differing by more than 8 in a channel (antialiasing may differ between cairo and
    /// pixman releases; a misplaced or missing shape changes far more).
    func expectMatchesReference(_ image: Image, _ name: String, at location: SourceLocation = #_sourceLocation) throws {
        let path = Self.references.appendingPathComponent("\(name).png").path
        if ProcessInfo.processInfo.environment["X11UI_UPDATE_REFERENCES"] != nil {
            try FileManager.default.createDirectory(at: Self.references, withIntermediateDirectories: true)
            try image.writePNG(to: path)
            return
        }
        let reference = try Image(contentsOfFile: path)
        try #require(reference.size == image.size, sourceLocation: location)
        var differing = 0
        var largest = 0
        for y in 0..<Int(image.size.height) {
            for x in 0..<Int(image.size.width) {
                guard let a = image.pixel(x: x, y: y), let b = reference.pixel(x: x, y: y) else { continue }
                let difference = Self.difference(a, b)
                largest = max(largest, difference)
                if difference > 8 { differing += 1 }
            }
        }
        let allowed = Int(image.size.width * image.size.height) / 200
        #expect(
            differing <= allowed, "\(differing) pixels differ from \(name).png (largest difference \(largest))",
            sourceLocation: location)
    }

    /// The colour at a pixel, as 0xRRGGBB (alpha dropped) for readable expectations.
    static func rgb(_ image: Image, _ x: Int, _ y: Int) -> UInt32? {
        guard let c = image.pixel(x: x, y: y) else { return nil }
        func byte(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return byte(c.red) << 16 | byte(c.green) << 8 | byte(c.blue)
    }

    /// A bubble below its source: body 140×60 at (10, 20), the arrow's tip at (50, 6).
    static func bubbleBelow(style: ToolTipStyle, shadow: Bool, background: Color?) -> Image {
        Image(size: Size(width: 160, height: 90)) { context in
            if let background { context.fill(Rect(x: 0, y: 0, width: 160, height: 90), color: background) }
            let bubble = ToolTipBubbleView()
            bubble.style = style
            bubble.drawsShadow = shadow
            bubble.geometry = ToolTipGeometry(
                edge: .bottom, windowFrame: Rect(x: 0, y: 0, width: 160, height: 90),
                body: Rect(x: 10, y: 20, width: 140, height: 60),
                arrow: (tip: Point(x: 50, y: 6), base1: Point(x: 43, y: 20), base2: Point(x: 57, y: 20)),
                monitor: Rect(x: 0, y: 0, width: 1280, height: 800))
            bubble.draw(in: context)
        }
    }

    @Test func theBubbleBodyAndArrowAreOneOutline() throws {
        let image = Self.bubbleBelow(style: .dark, shadow: false, background: .white)
        try expectMatchesReference(image, "bubble-dark-below")
        // Independent of the reference: the body and the arrow are filled with the style's
        // (opaque, without a compositor) background, the border runs round both, and the
        // rounded corners and the sides of the arrow show what is behind.
        #expect(Self.rgb(image, 80, 50) == 0x2c2c2e)
        #expect(Self.rgb(image, 50, 14) == 0x2c2c2e)  // inside the arrow, above the body
        #expect(Self.rgb(image, 50, 21) == 0x2c2c2e)  // the arrow's base is open to the body
        #expect(Self.rgb(image, 30, 14) == 0xffffff)  // beside the arrow
        #expect(Self.rgb(image, 10, 20) == 0xffffff)  // outside the rounded corner
        #expect(Self.rgb(image, 149, 79) == 0xffffff)
        #expect(Self.rgb(image, 80, 20) == 0x48484a)  // the 1 px border on the top side
        #expect(Self.rgb(image, 10, 50) == 0x48484a)  // and on the left
        #expect(Self.rgb(image, 80, 85) == 0xffffff)  // below the body
    }

    @Test func underACompositorTheBubbleIsTranslucentWithASoftShadow() throws {
        let image = Self.bubbleBelow(style: .light, shadow: true, background: nil)
        try expectMatchesReference(image, "bubble-light-shadow")
        let body = try #require(image.pixel(x: 80, y: 50))
        #expect(abs(body.alpha - 0.96) < 0.02)
        let shadow = try #require(image.pixel(x: 80, y: 82))  // just below the body
        #expect(shadow.alpha > 0.02 && shadow.alpha < 0.3)
        #expect(image.pixel(x: 2, y: 88)?.alpha == 0)  // far from everything
    }

    @Test func viewsDrawTheirBackgroundsShapesAndTintedIconsClippedToTheirFrames() throws {
        let root = View()
        root.backgroundColor = .white
        root.frame = Rect(x: 0, y: 0, width: 120, height: 60)
        let card = RoundedRectangle(color: Color(rgb: 0x0a84ff), size: Size(width: 50, height: 30), cornerRadius: 8)
        card.frame = Rect(x: 5, y: 5, width: 50, height: 30)
        let dot = Circle(color: Color(rgb: 0x34c759), diameter: 20)
        dot.frame = Rect(x: 60, y: 5, width: 20, height: 20)
        let heart = ImageView(try Image(assetNamed: "heart"), size: Size(width: 24, height: 24), tint: .red)
        heart.frame = Rect(x: 88, y: 4, width: 24, height: 24)
        let bordered = View()
        bordered.borderColor = .black
        bordered.frame = Rect(x: 5, y: 40, width: 110, height: 15)
        // A child larger than its parent is clipped to the parent's frame.
        let overflowing = View()
        overflowing.backgroundColor = Color(rgb: 0xff9500)
        overflowing.frame = Rect(x: 100, y: 2, width: 40, height: 40)
        bordered.addSubview(overflowing)
        for view in [card, dot, heart, bordered] { root.addSubview(view) }

        let image = Image(size: Size(width: 120, height: 60)) { root.drawHierarchy(in: $0) }
        try expectMatchesReference(image, "views")
        #expect(Self.rgb(image, 30, 20) == 0x0a84ff)
        #expect(Self.rgb(image, 5, 5) == 0xffffff)  // the card's rounded corner
        #expect(Self.rgb(image, 70, 15) == 0x34c759)
        #expect(Self.rgb(image, 61, 6) == 0xffffff)  // outside the circle, inside its frame
        #expect(Self.rgb(image, 108, 47) == 0xff9500)  // the child, inside its parent
        #expect(Self.rgb(image, 108, 57) == 0xffffff)  // clipped below the parent
        let icon = (0..<24).flatMap { y in (0..<24).compactMap { x in Self.rgb(image, 88 + x, 4 + y) } }
        #expect(icon.contains(0xff3b30))  // the heart, tinted
        #expect(!icon.contains(0x000000))  // and no untinted (black) pixel left
    }

    @Test func drawingAtTwiceTheScaleDoublesTheBubblesRadius() {
        // The corner radius scales with the context; at scale 2 a pixel well inside the 1x
        // corner curve is outside the 2x one.
        func corner(scale: Double) -> Color? {
            let image = Image(size: Size(width: 100, height: 60), scale: scale) { context in
                let bubble = ToolTipBubbleView()
                bubble.geometry = ToolTipGeometry(
                    edge: .bottom, windowFrame: Rect(x: 0, y: 0, width: 100, height: 60),
                    body: Rect(x: 0, y: 0, width: 100, height: 60), arrow: nil, monitor: .zero)
                bubble.draw(in: context)
            }
            return image.pixel(x: 3, y: 3)
        }
        #expect(corner(scale: 1)?.alpha == 1)
        #expect(corner(scale: 2)?.alpha ?? 1 < 0.5)
    }
}

/// A window's shape is sent as the rectangles of the outline's pixels, banded.
@Suite @MainActor struct ShapeRectangleTests {
    /// The rectangles of what `draw` fills in a 1-bit image of `width` × `height`.
    private func rectangles(width: Int32, height: Int32, _ draw: (DrawContext) -> Void) -> [[Int]] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A1, width + 40, height + 8)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        draw(DrawContext(cairo: cairo))
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        return ShapeMask.rectangles(of: surface, width: Int(width), height: Int(height)).map {
            [Int($0.x), Int($0.y), Int($0.width), Int($0.height)]
        }
    }

    @Test func rowsWithTheSameRunsAreOneBandRunsLeftToRight() {
        let shape = rectangles(width: 40, height: 10) { context in
            context.fill(Rect(x: 2, y: 1, width: 5, height: 3), color: .black)
            context.fill(Rect(x: 10, y: 1, width: 30, height: 3), color: .black)  // to the edge
            context.fill(Rect(x: 0, y: 4, width: 1, height: 1), color: .black)
            context.fill(Rect(x: 33, y: 6, width: 2, height: 2), color: .black)
        }
        #expect(shape == [[2, 1, 5, 3], [10, 1, 30, 3], [0, 4, 1, 1], [33, 6, 2, 2]])
    }

    @Test func pixelsOutsideTheSizeAreNotPartOfTheShape() {
        // The image is reused while big enough: what lies beyond the size given is left out.
        let shape = rectangles(width: 8, height: 4) { context in
            context.fill(Rect(x: 0, y: 0, width: 48, height: 12), color: .black)
        }
        #expect(shape == [[0, 0, 8, 4]])
    }

    @Test func aRoundedOutlineCoversWhatTheBitmapDid() {
        // Every pixel of the 1-bit fill is in exactly one rectangle, and nothing else is.
        let width: Int32 = 120
        let height: Int32 = 40
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A1, width, height)!
        defer { cairo_surface_destroy(surface) }
        let cairo = cairo_create(surface)!
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        DrawContext(cairo: cairo).fill(Rect(x: 0, y: 0, width: 120, height: 34), cornerRadius: 8, color: .black)
        DrawContext(cairo: cairo).fill(Rect(x: 50, y: 30, width: 12, height: 10), color: .black)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let rectangles = ShapeMask.rectangles(of: surface, width: Int(width), height: Int(height))
        var covered = [Int](repeating: 0, count: Int(width * height))
        for r in rectangles {
            for y in Int(r.y)..<Int(r.y) + Int(r.height) {
                for x in Int(r.x)..<Int(r.x) + Int(r.width) { covered[y * Int(width) + x] += 1 }
            }
        }
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        var mismatches = 0
        for y in 0..<Int(height) {
            for x in 0..<Int(width) {
                let unit = UnsafeRawPointer(data + y * stride).loadUnaligned(
                    fromByteOffset: (x >> 5) * 4, as: UInt32.self)
                let set = (unit >> UInt32(x & 31)) & 1
                if covered[y * Int(width) + x] != Int(set) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(rectangles.count < Int(height))  // the straight middle rows are one band
        #expect(covered[0] == 0 && covered[Int(width) * 10] == 1)  // a cut corner, a filled side
    }
}
