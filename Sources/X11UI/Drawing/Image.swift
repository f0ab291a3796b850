internal import CX11
internal import Glibc

/// A bitmap image from a PNG file, or drawn in code, held in memory.
///
/// A PNG file is read and its header checked when the image is made; its pixels are decoded
/// the first time they are drawn or read, so images a program makes at start cost no decoding
/// before its window is on screen. An image only written as a window icon is decoded for that
/// and not kept: its pixels live on in the X server's property.
///
/// ```swift
/// let cart = Image.asset("cart")       // assets/cart.png
/// let photo = try Image(contentsOfFile: "/tmp/photo.png")
/// ```
@MainActor
public final class Image {
    /// The cairo image surface (ARGB32, or RGB24 for a PNG without alpha), decoded on first
    /// use; owned.
    var surface: OpaquePointer {
        if let decoded { return decoded }
        let surface = decodePNG() ?? transparent()
        decoded = surface
        png = nil
        return surface
    }
    private var decoded: OpaquePointer?
    /// Whether the pixels are held decoded.
    var isDecoded: Bool { decoded != nil }
    /// The PNG file's bytes until they are decoded and kept (`surface`).
    private var png: [UInt8]?

    /// Calls `body` with the pixels, without keeping them decoded: an image not decoded yet
    /// is decoded for the call and freed after. Pixels read once, as a window icon's are when
    /// the icon is written, then cost no memory while the program runs.
    func withPixels<Result>(_ body: (OpaquePointer) -> Result) -> Result {
        if decoded == nil, png != nil {
            if let surface = decodePNG() {
                defer { cairo_surface_destroy(surface) }
                return body(surface)
            }
            // Damaged: warned about once, then kept as the transparent image it shows as.
            decoded = transparent()
            png = nil
        }
        return body(surface)
    }
    /// The file the PNG came from, for the warning when its pixels cannot be decoded.
    private let path: String?
    /// A number unique among images, for caches keyed by image.
    let id: Int
    /// The size in pixels.
    public let size: Size
    private static var nextID = 0
    /// The largest side of a PNG read (cairo's limit for image surfaces).
    static let largestSide = 32767

    /// Reads a PNG file. Its pixels are decoded on first use; a file whose header is right but
    /// whose pixel data turns out damaged then shows as a transparent image of its size, with
    /// a warning.
    ///
    /// - Throws: `X11UIError.imageUnreadable(path:)` when the file is missing or unreadable, is
    ///   not a PNG, or is larger than 32,767 pixels on a side.
    public init(contentsOfFile path: String) throws(X11UIError) {
        guard let bytes = FileBytes.read(path, atMost: 256 << 20), let size = Image.pngSize(bytes) else {
            throw X11UIError.imageUnreadable(path: path)
        }
        png = bytes
        self.path = path
        self.size = size
        Image.nextID += 1
        id = Image.nextID
    }

    /// The width and height in a PNG's header (its signature, then the IHDR chunk); nil when
    /// the bytes are not a PNG or the image is empty or too large.
    static func pngSize(_ bytes: [UInt8]) -> Size? {
        let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
        guard bytes.count >= 33, bytes[0..<8].elementsEqual(signature),
            bytes[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])  // length 13, "IHDR"
        else { return nil }
        func bigEndian(_ offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = bigEndian(16)
        let height = bigEndian(20)
        guard (1...largestSide).contains(width), (1...largestSide).contains(height) else { return nil }
        return Size(width: Double(width), height: Double(height))
    }

    /// Decodes the PNG read at init; nil, with a warning, when cairo cannot (damaged pixel
    /// data, or a size or format other than the header said) or there is no PNG.
    private func decodePNG() -> OpaquePointer? {
        let width = Int32(size.width)
        let height = Int32(size.height)
        if let bytes = png {
            var reader = (bytes: UnsafeRawBufferPointer(start: nil, count: 0), offset: 0)
            let surface = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
                reader.bytes = buffer
                return withUnsafeMutablePointer(to: &reader) { closure in
                    cairo_image_surface_create_from_png_stream(
                        { closure, data, length in
                            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                            let reader = closure.assumingMemoryBound(
                                to: (bytes: UnsafeRawBufferPointer, offset: Int).self)
                            let count = Int(length)
                            guard reader.pointee.bytes.count - reader.pointee.offset >= count else {
                                return CAIRO_STATUS_READ_ERROR
                            }
                            UnsafeMutableRawPointer(data).copyMemory(
                                from: reader.pointee.bytes.baseAddress! + reader.pointee.offset, byteCount: count)
                            reader.pointee.offset += count
                            return CAIRO_STATUS_SUCCESS
                        }, closure)
                }
            }
            if let surface {
                if cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
                    cairo_image_surface_get_width(surface) == width, cairo_image_surface_get_height(surface) == height
                {
                    return surface
                }
                cairo_surface_destroy(surface)
            }
            Log.warning("\(X11UIError.imageUnreadable(path: path ?? "")): its pixel data is damaged; shown transparent")
        }
        return nil
    }

    /// A transparent surface of the image's size, for pixels that cannot be decoded.
    private func transparent() -> OpaquePointer {
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height))
    }

    /// An image drawn with `DrawContext` calls into a transparent bitmap of `size` pixels.
    ///
    /// - Parameters:
    ///   - size: the bitmap's size in pixels (at most 4096 × 4096).
    ///   - scale: the context's ``DrawContext/scale``, by which views scale the sizes they
    ///     are given at 96 dpi (2 draws as at 192 dpi).
    ///   - appearance: the appearance named colours are drawn in.
    ///   - draw: draws the image's content, once, into a transparent bitmap.
    public init(size: Size, scale: Double = 1, appearance: Appearance = .light, draw: (DrawContext) -> Void) {
        let width = Int32(max(1, min(size.width.isFinite ? size.width : 1, 4096)))
        let height = Int32(max(1, min(size.height.isFinite ? size.height : 1, 4096)))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)!
        decoded = surface
        path = nil
        self.size = Size(width: Double(width), height: Double(height))
        Image.nextID += 1
        id = Image.nextID
        let cairo = cairo_create(surface)!
        draw(DrawContext(cairo: cairo, scale: scale.isFinite && scale > 0 ? scale : 1, appearance: appearance))
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
    }

    isolated deinit {
        if let decoded { cairo_surface_destroy(decoded) }
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
            name.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    return true
                default: return false
                }
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
        guard let custom = Environment.value("X11UI_ASSETS"), !custom.isEmpty else { return programAssetFolders }
        return [custom] + programAssetFolders
    }

    /// The folders after `$X11UI_ASSETS`, which depend only on the executable and the package:
    /// found once (they were found again for every asset, 70,000 instructions each).
    private nonisolated static let programAssetFolders: [String] = {
        var folders: [String] = []
        if let (folder, name) = executablePath() {
            folders.append(folder + "/assets")
            folders.append(folder + "/../share/" + name + "/assets")
        }
        // This file sits at <package>/Sources/X11UI/Drawing/Image.swift: the package is the path
        // without its last four components (cut at slashes rather than split and joined, whose
        // generic code costs 50 µs at start-up).
        var package = Substring(#filePath)
        var cuts = 0
        while cuts < 4, let slash = package.lastIndex(of: "/") {
            package = package[..<slash]
            cuts += 1
        }
        if cuts == 4 { folders.append(String(package) + "/assets") }
        return folders
    }()

    /// The folder and file name of the running executable (symbolic links resolved).
    private nonisolated static func executablePath() -> (folder: String, name: String)? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}
