internal import CX11

/// Images as window icons: the `_NET_WM_ICON` layout.
extension Image {
    /// The largest icon side written to `_NET_WM_ICON`: taskbars and switchers show icons of
    /// up to 256 pixels, and a larger one would cost a megabyte per window on the wire.
    static let largestWindowIconSide = 512

    /// The image as one `_NET_WM_ICON` entry: width, height, then one `0xAARRGGBB` value per
    /// pixel, row by row, with straight (not premultiplied) alpha; nil for an image larger than
    /// `largestWindowIconSide`.
    var windowIconData: [Int]? {
        let width = Int(size.width)
        let height = Int(size.height)
        guard width > 0, height > 0, width <= Self.largestWindowIconSide, height <= Self.largestWindowIconSide
        else { return nil }
        return withPixels { Self.windowIconData(of: $0, width: width, height: height) }
    }

    /// A cairo image surface's pixels in the `_NET_WM_ICON` layout.
    private static func windowIconData(of surface: OpaquePointer, width: Int, height: Int) -> [Int]? {
        // PNGs without alpha load as RGB24 (whose top byte is undefined): paint those into ARGB32.
        var pixels = surface
        if cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32 {
            pixels = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
            let cairo = cairo_create(pixels)
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_paint(cairo)
            cairo_destroy(cairo)
        }
        defer { if pixels != surface { cairo_surface_destroy(pixels) } }
        cairo_surface_flush(pixels)
        guard cairo_surface_status(pixels) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(pixels)
        else { return nil }
        let stride = Int(cairo_image_surface_get_stride(pixels))
        var values = [Int]()
        values.reserveCapacity(2 + width * height)
        values.append(width)
        values.append(height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data.advanced(by: y * stride))
            for x in 0..<width {
                let pixel = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                values.append(Int(unpremultiplied(pixel)))
            }
        }
        return values
    }

    /// A cairo ARGB32 pixel (premultiplied) with its colour divided by its alpha.
    static func unpremultiplied(_ pixel: UInt32) -> UInt32 {
        let alpha = pixel >> 24
        guard alpha != 0 else { return 0 }
        guard alpha != 255 else { return pixel }
        func channel(_ shift: UInt32) -> UInt32 {
            min(255, (((pixel >> shift) & 0xff) * 255 + alpha / 2) / alpha) << shift
        }
        return alpha << 24 | channel(16) | channel(8) | channel(0)
    }
}
