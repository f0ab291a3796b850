internal import CX11

/// Cuts a window to an outline (the Shape extension): a tooltip without a compositor gets
/// exactly its rounded body and arrow, with no black corners and no rectangle around the arrow.
///
/// The outline is filled without antialiasing into a 1-bit image in the program's memory and
/// sent as rectangles, one band of rows at a time (`XShapeCombineRectangles`, as GTK sends a
/// region). A 1-bit pixmap on the server (`XShapeCombineMask`) would cost a server pixmap, and
/// Xlib answers the creation of any 1-bit pixmap by loading libXcursor (`_XNoticeCreateBitmap`,
/// for its cursor theming), a library X11UI otherwise never needs.
@MainActor
final class ShapeMask {
    private let connection: DisplayConnection
    /// The 1-bit image the outline is filled into, kept while it is big enough.
    private var surface: OpaquePointer?
    private var width: Int32 = 0
    private var height: Int32 = 0
    /// The input region last set (a translucent window's outline), for `restoreInput`.
    private var input: (window: UInt, rectangles: [XRectangle])?

    init(connection: DisplayConnection, resources: DrawingResources) {
        self.connection = connection
    }

    isolated deinit {
        if let surface { cairo_surface_destroy(surface) }
    }

    private func ensure(width w: Int32, height h: Int32) -> OpaquePointer? {
        if let surface, w <= width, h <= height { return surface }
        if let surface { cairo_surface_destroy(surface) }
        width = max(w, 64)
        height = max(h, 32)
        surface = cairo_image_surface_create(CAIRO_FORMAT_A1, width, height)
        return surface
    }

    /// Sets the window's bounding shape (or, for translucent windows, only its input shape)
    /// to the outline.
    func apply(_ outline: Path, size: Size, to window: UInt, inputOnly: Bool) {
        guard connection.isUsable else { return }
        let w = Int32(max(1, min(size.width.rounded(.up), 32767)))
        let h = Int32(max(1, min(size.height.rounded(.up), 32767)))
        guard let surface = ensure(width: w, height: h), let cairo = cairo_create(surface) else { return }
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cairo, 0, 0, 0, 0)
        cairo_paint(cairo)
        DrawContext(cairo: cairo).fill(outline, color: .black)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        var rectangles = Self.rectangles(of: surface, width: Int(w), height: Int(h))
        XShapeCombineRectangles(
            connection.display, window, inputOnly ? ShapeInput : ShapeBounding, 0, 0, &rectangles,
            Int32(rectangles.count), ShapeSet, YXBanded)
        input = inputOnly ? (window, rectangles) : nil
    }

    /// Empties the window's input region: the pointer goes through it to what lies beneath (a
    /// tooltip fading out).
    func clearInput(of window: UInt) {
        guard connection.isUsable else { return }
        XShapeCombineRectangles(connection.display, window, ShapeInput, 0, 0, nil, 0, ShapeSet, YXBanded)
    }

    /// Gives the window back the input region `apply` set last (the window's whole area when
    /// it set none).
    func restoreInput(of window: UInt) {
        guard connection.isUsable else { return }
        guard var rectangles = input.flatMap({ $0.window == window ? $0.rectangles : nil }) else {
            XShapeCombineMask(connection.display, window, ShapeInput, 0, 0, 0, ShapeSet)
            return
        }
        XShapeCombineRectangles(
            connection.display, window, ShapeInput, 0, 0, &rectangles, Int32(rectangles.count), ShapeSet, YXBanded)
    }

    /// The set pixels of the top-left `width` × `height` of a 1-bit image as rectangles, banded
    /// as the Shape extension orders them: rows with the same runs are one band; within a band,
    /// runs from left to right.
    static func rectangles(of surface: OpaquePointer, width: Int, height: Int) -> [XRectangle] {
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var rectangles: [XRectangle] = []
        var bandStart = 0
        var bandRuns: [Range<Int>] = []
        func closeBand(at end: Int) {
            for run in bandRuns {
                rectangles.append(
                    XRectangle(
                        x: Int16(run.lowerBound), y: Int16(bandStart), width: UInt16(run.count),
                        height: UInt16(end - bandStart)))
            }
        }
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride)
            var runs: [Range<Int>] = []
            var start: Int?
            for x in 0..<width {
                // CAIRO_FORMAT_A1: 32-bit units in native byte order, the first pixel in the
                // least significant bit on a little-endian machine.
                let unit = row.loadUnaligned(fromByteOffset: (x >> 5) * 4, as: UInt32.self)
                let bit = (UInt32(littleEndian: 1) == 1 ? unit >> UInt32(x & 31) : unit >> UInt32(31 - x & 31)) & 1
                if bit != 0, start == nil { start = x }
                if bit == 0, let first = start {
                    runs.append(first..<x)
                    start = nil
                }
            }
            if let first = start { runs.append(first..<width) }
            if runs != bandRuns {
                closeBand(at: y)
                bandStart = y
                bandRuns = runs
            }
        }
        closeBand(at: height)
        return rectangles
    }
}
