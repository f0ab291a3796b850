internal import CX11
internal import Glibc

/// A bitmap image decoded from a PNG file, held in memory.
///
/// ```swift
/// let cart = Image.asset("cart")       // assets/cart.png
/// let photo = try Image(contentsOfFile: "/tmp/photo.png")
/// ```
@MainActor
public final class Image {
    /// The cairo image surface (ARGB32); owned.
    let surface: OpaquePointer
    /// A number unique among images, for caches keyed by image.
    let id: Int
    /// The size in pixels.
    public let size: Size
    private static var nextID = 0

    /// Decodes a PNG file.
    ///
    /// - Throws: `X11UIError.imageUnreadable(path:)` when the file is missing or not a PNG.
    public init(contentsOfFile path: String) throws(X11UIError) {
        guard let surface = cairo_image_surface_create_from_png(path) else {
            throw X11UIError.imageUnreadable(path: path)
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw X11UIError.imageUnreadable(path: path)
        }
        self.surface = surface
        size = Size(
            width: Double(cairo_image_surface_get_width(surface)),
            height: Double(cairo_image_surface_get_height(surface)))
        Image.nextID += 1
        id = Image.nextID
    }

    /// An image drawn with `DrawContext` calls into a transparent bitmap of `size` pixels.
    ///
    /// - Parameters:
    ///   - size: the bitmap's size in pixels (at most 4096 × 4096).
    ///   - scale: the context's ``DrawContext/scale``, by which views scale the sizes they
    ///     are given at 96 dpi (2 draws as at 192 dpi).
    ///   - draw: draws the image's content, once, into a transparent bitmap.
    public init(size: Size, scale: Double = 1, draw: (DrawContext) -> Void) {
        let width = Int32(max(1, min(size.width.isFinite ? size.width : 1, 4096)))
        let height = Int32(max(1, min(size.height.isFinite ? size.height : 1, 4096)))
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)
        self.size = Size(width: Double(width), height: Double(height))
        Image.nextID += 1
        id = Image.nextID
        let cairo = cairo_create(surface)!
        draw(DrawContext(cairo: cairo, scale: scale.isFinite && scale > 0 ? scale : 1))
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
    }

    isolated deinit {
        cairo_surface_destroy(surface)
    }

    /// Writes the image as a PNG file (for screenshots and test references).
    public func writePNG(to path: String) throws(X11UIError) {
        guard cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS else {
            throw X11UIError.imageUnreadable(path: path)
        }
    }

    /// The colour of one pixel, straight alpha; nil outside the image.
    public func pixel(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < Int(size.width), y < Int(size.height) else { return nil }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let value = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
            $0.pointee
        }
        let a = Double(value >> 24) / 255
        guard a > 0 else { return .clear }
        return Color(
            red: Double((value >> 16) & 0xff) / 255 / a, green: Double((value >> 8) & 0xff) / 255 / a,
            blue: Double(value & 0xff) / 255 / a, alpha: a)
    }

    // MARK: - Assets

    private static var assetCache: [String: Image] = [:]

    /// Loads `<name>.png` from the assets folder.
    ///
    /// Folders searched, in order: `$X11UI_ASSETS`, `assets/` next to the executable,
    /// `../share/<executable's name>/assets` from its folder (where an installed program
    /// keeps them: `/usr/local/bin/tooltip-demo` reads `/usr/local/share/tooltip-demo/assets`),
    /// and the package's own `assets/` folder (where a SwiftPM build from source finds it).
    ///
    /// - Throws: `.invalidAssetName` for names with anything but letters, digits, `-` and `_`
    ///   (so no name can reach outside the folder), `.assetNotFound` when no folder has it.
    public convenience init(assetNamed name: String) throws(X11UIError) {
        guard !name.isEmpty, name.utf8.count <= 128,
            name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else { throw X11UIError.invalidAssetName(name) }
        for folder in Image.assetFolders {
            let path = folder + "/" + name + ".png"
            if access(path, R_OK) == 0 {
                try self.init(contentsOfFile: path)
                return
            }
        }
        throw X11UIError.assetNotFound(name: name)
    }

    /// An asset by name, cached; a missing or bad asset logs a warning and yields an empty
    /// (transparent) image, so a typo never takes a program down. Use `init(assetNamed:)` to
    /// handle the error yourself.
    public static func asset(_ name: String) -> Image {
        if let cached = assetCache[name] { return cached }
        let image: Image
        do {
            image = try Image(assetNamed: name)
        } catch {
            Log.warning("\(error)")
            image = Image(size: Size(width: 1, height: 1)) { _ in }
        }
        assetCache[name] = image
        return image
    }

    /// The folders `init(assetNamed:)` searches.
    static var assetFolders: [String] {
        var folders: [String] = []
        if let custom = Environment.value("X11UI_ASSETS"), !custom.isEmpty { folders.append(custom) }
        if let (folder, name) = executablePath() {
            folders.append(folder + "/assets")
            folders.append(folder + "/../share/" + name + "/assets")
        }
        // This file sits at <package>/Sources/X11UI/Drawing/Image.swift.
        let source = #filePath
        var components = source.split(separator: "/", omittingEmptySubsequences: false)
        if components.count > 4 {
            components.removeLast(4)
            folders.append(components.joined(separator: "/") + "/assets")
        }
        return folders
    }

    /// The folder and file name of the running executable (symbolic links resolved).
    private static func executablePath() -> (folder: String, name: String)? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}
