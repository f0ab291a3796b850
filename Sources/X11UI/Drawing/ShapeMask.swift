internal import CX11

/// A 1-bit pixmap that cuts a window to an outline (the Shape extension): a tooltip without a
/// compositor gets exactly its rounded body and arrow, with no black corners and no rectangle
/// around the arrow. Made once and reused while it is big enough.
@MainActor
final class ShapeMask {
    private let connection: DisplayConnection
    private var pixmap: UInt = 0
    private var surface: OpaquePointer?
    private var cairo: OpaquePointer?
    private var width: Int32 = 0
    private var height: Int32 = 0

    init(connection: DisplayConnection, resources: DrawingResources) {
        self.connection = connection
    }

    isolated deinit {
        free()
    }

    private func free() {
        if let cairo { cairo_destroy(cairo) }
        if let surface {
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        if pixmap != 0, connection.isUsable {
            XFreePixmap(connection.display, pixmap)
            connection.release(pixmap)
        }
        cairo = nil
        surface = nil
        pixmap = 0
    }

    private func ensure(width w: Int32, height h: Int32) {
        if pixmap != 0, w <= width, h <= height { return }
        free()
        width = max(w, 64)
        height = max(h, 32)
        pixmap = XCreatePixmap(connection.display, connection.root, UInt32(width), UInt32(height), 1)
        connection.adopt(pixmap)
        surface = cairo_xlib_surface_create_for_bitmap(
            connection.display, pixmap, XScreenOfDisplay(connection.display, connection.screen), width, height)
        cairo = cairo_create(surface)
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
    }

    /// Sets the window's bounding shape (or, for translucent windows, only its input shape)
    /// to the outline.
    func apply(_ outline: Path, size: Size, to window: UInt, inputOnly: Bool) {
        guard connection.isUsable else { return }
        ensure(width: Int32(size.width.rounded(.up)), height: Int32(size.height.rounded(.up)))
        guard let cairo else { return }
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cairo, 0, 0, 0, 0)
        cairo_paint(cairo)
        cairo_set_source_rgba(cairo, 0, 0, 0, 1)
        let context = DrawContext(cairo: cairo)
        context.fill(outline, color: .black)
        cairo_surface_flush(surface)
        XShapeCombineMask(
            connection.display, window, inputOnly ? ShapeInput : ShapeBounding, 0, 0, pixmap, ShapeSet)
    }
}
