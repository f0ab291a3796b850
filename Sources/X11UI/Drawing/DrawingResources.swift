internal import CX11

/// What drawing on one display keeps between paints: fonts, Xft colours, and server-side copies
/// of images, so a repaint sends no image data and needs no round trip.
@MainActor
final class DrawingResources {
    let connection: DisplayConnection
    let fonts: FontCache
    private var colors: [ColorKey: XftColor] = [:]
    private var imageCopies: [ImageKey: OpaquePointer] = [:]
    /// cairo's record of the display (its device), finished when X11UI lets go of the display.
    private var cairoDevice: OpaquePointer?

    private struct ColorKey: Hashable {
        var color: Color
        var visual: UInt
    }

    private struct ImageKey: Hashable {
        var image: Int
        var content: UInt32
    }

    init(connection: DisplayConnection) {
        self.connection = connection
        fonts = FontCache(connection: connection)
    }

    /// An Xft colour for a visual. On TrueColor visuals `XftColorAllocValue` computes the pixel
    /// locally (no round trip), so the cache only saves the arithmetic.
    func xftColor(_ color: Color, visual: UnsafeMutablePointer<Visual>) -> XftColor {
        let key = ColorKey(color: color, visual: UInt(bitPattern: visual))
        if let cached = colors[key] { return cached }
        let c = color.x16
        // Render colours are premultiplied.
        let a = Double(c.alpha) / 65535
        var render = XRenderColor(
            red: UInt16(Double(c.red) * a), green: UInt16(Double(c.green) * a), blue: UInt16(Double(c.blue) * a),
            alpha: c.alpha)
        var result = XftColor()
        XftColorAllocValue(connection.display, visual, connection.colormap, &render, &result)
        colors[key] = result
        return result
    }

    /// The visual an Xft drawable was created with.
    func visual(of draw: OpaquePointer) -> UnsafeMutablePointer<Visual> {
        XftDrawVisual(draw) ?? connection.visual
    }

    /// A copy of `image` on the server, made once per image and target kind; drawing it is then
    /// a Composite request rather than an upload.
    func serverCopy(of image: Image, like target: OpaquePointer) -> OpaquePointer {
        let content = cairo_surface_get_content(target).rawValue
        let key = ImageKey(image: image.id, content: content)
        if let copy = imageCopies[key] { return copy }
        let width = Int32(image.size.width)
        let height = Int32(image.size.height)
        guard let copy = cairo_surface_create_similar(target, CAIRO_CONTENT_COLOR_ALPHA, width, height),
            cairo_surface_status(copy) == CAIRO_STATUS_SUCCESS
        else { return image.surface }
        let cairo = cairo_create(copy)!
        cairo_set_source_surface(cairo, image.surface, 0, 0)
        cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cairo)
        cairo_destroy(cairo)
        imageCopies[key] = copy
        return copy
    }

    /// Notes the cairo device of a surface on this display.
    func noteCairoDevice(of surface: OpaquePointer) {
        guard cairoDevice == nil, let device = cairo_surface_get_device(surface) else { return }
        cairoDevice = cairo_device_reference(device)
    }

    /// Frees everything (the display is closing, or X11UI lets go of a host's display): cairo's
    /// per-display record goes too, so nothing of it outlives the `Display*`.
    func removeAll() {
        for copy in imageCopies.values { cairo_surface_destroy(copy) }
        imageCopies.removeAll()
        colors.removeAll()
        fonts.removeAll()
        if let cairoDevice {
            if connection.isUsable { cairo_device_flush(cairoDevice) }
            cairo_device_finish(cairoDevice)
            cairo_device_destroy(cairoDevice)
            self.cairoDevice = nil
        }
    }
}

/// A window's back buffer: a pixmap the size of the window with a cairo surface and an Xft
/// drawable on it. Views paint here; the damaged part is then copied to the window in one
/// request, so the window never shows a half-painted frame. The pixmap is also the window's
/// background (`NativeWindow.setBackground`), which the server paints on map and Expose. The
/// buffer owns the pixmap and frees it; the server keeps its own reference for a window whose
/// background it still is, though X11UI sets a new background first or destroys the window.
@MainActor
final class BackBuffer {
    let resources: DrawingResources
    let pixmap: UInt
    let width: Int32
    let height: Int32
    let surface: OpaquePointer
    let cairo: OpaquePointer
    let xftDraw: OpaquePointer
    private let gc: GC

    init(
        resources: DrawingResources, window: UInt, visual: UnsafeMutablePointer<Visual>, depth: Int32,
        colormap: UInt, width: Int32, height: Int32
    ) {
        let connection = resources.connection
        let display = connection.display
        self.resources = resources
        self.width = max(1, width)
        self.height = max(1, height)
        pixmap = XCreatePixmap(display, window, UInt32(self.width), UInt32(self.height), UInt32(depth))
        connection.adopt(pixmap)
        surface = cairo_xlib_surface_create(display, pixmap, visual, self.width, self.height)
        resources.noteCairoDevice(of: surface)
        cairo = cairo_create(surface)
        xftDraw = XftDrawCreate(display, pixmap, visual, colormap)
        // No GraphicsExpose/NoExpose events for every copy.
        var values = XGCValues()
        values.graphics_exposures = 0
        gc = XCreateGC(display, pixmap, UInt(GCGraphicsExposures), &values)
    }

    isolated deinit {
        cairo_destroy(cairo)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        let connection = resources.connection
        guard connection.isUsable else { return }
        XftDrawDestroy(xftDraw)
        XFreeGC(connection.display, gc)
        XFreePixmap(connection.display, pixmap)
        connection.release(pixmap)
    }

    /// Whether the buffer can serve a window of this size: big enough, and not wastefully so
    /// (a popup that changes size on every show keeps its buffer; a window that shrank a lot
    /// gets a smaller one).
    func canServe(width: Int32, height: Int32) -> Bool {
        width <= self.width && height <= self.height
            && Int(self.width) * Int(self.height) <= 4 * Int(max(64, width)) * Int(max(64, height))
    }

    /// Limits Xft's drawing to `rect` (cairo is clipped per view by the context).
    func setTextClip(_ rect: Rect) {
        var x = XRectangle(
            x: Int16(clamping: Int(rect.minX)), y: Int16(clamping: Int(rect.minY)),
            width: UInt16(clamping: Int(rect.width)), height: UInt16(clamping: Int(rect.height)))
        XftDrawSetClipRectangles(xftDraw, 0, 0, &x, 1)
    }

    /// Copies part of the buffer to the window.
    func copy(_ rect: Rect, to window: UInt) {
        let r = rect.integral.intersection(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        guard !r.isEmpty, resources.connection.isUsable else { return }
        XCopyArea(
            resources.connection.display, pixmap, window, gc, Int32(r.minX), Int32(r.minY), UInt32(r.width),
            UInt32(r.height), Int32(r.minX), Int32(r.minY))
    }
}
