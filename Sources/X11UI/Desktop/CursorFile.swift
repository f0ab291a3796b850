internal import Glibc

/// The images of one size from a theme's cursor file (the Xcursor format), read and checked by
/// X11UI before libXcursor sees them.
///
/// libXcursor believes a file's sizes: a 0x7fff × 0x7fff image, stored sparse in a file of a
/// few bytes on disk, costs it 4 GiB and a minute. So X11UI reads the file itself and hands
/// libXcursor a copy in memory (`fmemopen`) of just the images it would load, checked:
///
/// - the file is opened without blocking and must be a regular file (a FIFO there would
///   otherwise block the program as the pointer enters a view);
/// - its table of contents has at most ``largestTableCount`` entries, all within the file;
/// - the images chosen are those libXcursor chooses (the nominal size nearest the one asked
///   for, every frame of it), each at most ``largestSide(for:)`` pixels a side (4 × the size
///   asked for), at most ``largestFrameCount`` frames and ``largestPixelCount`` pixels in all,
///   every pixel within the file.
///
/// The copy is made from what was checked, so a file changed while it is read cannot slip a
/// larger image past the checks. Layout (all little-endian 32-bit words): a header (magic
/// `Xcur`, its length, version, table count), the table (type, nominal size, position), then
/// each image chunk: its header's length (36), type, nominal size, version, width, height, the
/// hotspot, the frame's delay, and width × height ARGB pixels.
enum CursorFile {
    /// The most table entries read (real files have a few dozen: sizes × frames).
    static let largestTableCount = 4096
    /// The most frames of one size loaded.
    static let largestFrameCount = 256
    /// The most pixels loaded for one cursor, its frames together: 8 Mi (32 MiB).
    static let largestPixelCount = 8 << 20
    /// The largest file examined (Adwaita's animated `watch`, every size, is 4 MB).
    static let largestFileSize = 64 << 20

    /// The largest width and height of an image loaded for cursors of `size` pixels: 4 × the
    /// size (at least 64).
    static func largestSide(for size: Int) -> Int { 4 * max(size, 16) }

    private static let magic: UInt32 = 0x7275_6358  // "Xcur"
    private static let imageType: UInt32 = 0xfffd_0002

    /// Why a file is not loaded.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// The Xcursor file libXcursor is to read for cursors of `size` pixels from the file at
    /// `path`: only the checked images of the size it would choose; nil when there is no file
    /// there, a refusal when there is one that may not be loaded.
    static func checkedImages(at path: String, size: Int) -> Result<[UInt8], Refusal>? {
        guard let (descriptor, fileSize) = FileBytes.openRegular(path, atMost: largestFileSize) else {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            return .failure(Refusal(description: "it is not a regular file of at most \(largestFileSize >> 20) MiB"))
        }
        defer { close(descriptor) }
        return Result { () throws(Refusal) in try images(in: descriptor, fileSize: fileSize, size: size) }
    }

    /// Reads `count` 32-bit words at `offset`, all within the file.
    private static func words(
        _ descriptor: Int32, at offset: Int, _ count: Int, fileSize: Int
    ) throws(Refusal)
        -> [UInt32]
    {
        guard offset >= 0, count >= 0, offset + 4 * count <= fileSize else {
            throw Refusal(description: "it ends before what its table of contents names")
        }
        var words = [UInt32](repeating: 0, count: count)
        let wanted = 4 * count
        let read = words.withUnsafeMutableBytes { buffer -> Int in
            var done = 0
            while done < wanted {
                let got = pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                done += got
            }
            return done
        }
        guard read == wanted else { throw Refusal(description: "it could not be read") }
        return words.map { UInt32(littleEndian: $0) }
    }

    private static func images(in descriptor: Int32, fileSize: Int, size: Int) throws(Refusal) -> [UInt8] {
        let header = try words(descriptor, at: 0, 4, fileSize: fileSize)
        guard header[0] == magic, header[1] >= 16 else { throw Refusal(description: "it is not an Xcursor file") }
        let count = Int(header[3])
        guard count <= largestTableCount else {
            throw Refusal(description: "its table of contents has \(count) entries, more than \(largestTableCount)")
        }
        let table = try words(descriptor, at: Int(header[1]), 3 * count, fileSize: fileSize)
        // The nominal size libXcursor chooses: the first nearest the one asked for.
        var best: UInt32?
        for entry in 0..<count where table[3 * entry] == imageType {
            let nominal = table[3 * entry + 1]
            if best == nil || distance(nominal, size) < distance(best!, size) { best = nominal }
        }
        guard let best else { throw Refusal(description: "it has no images") }
        let chosen = (0..<count).filter { table[3 * $0] == imageType && table[3 * $0 + 1] == best }
        guard chosen.count <= largestFrameCount else {
            throw Refusal(description: "\(chosen.count) frames, more than \(largestFrameCount)")
        }
        let side = largestSide(for: size)
        var out: [UInt32] = [magic, 16, 0x1_0000, UInt32(chosen.count)]
        var chunks: [UInt32] = []
        var pixels = 0
        let chunksStart = 16 + 12 * chosen.count
        for entry in chosen {
            let position = Int(table[3 * entry + 2])
            let chunk = try words(descriptor, at: position, 9, fileSize: fileSize)
            let (width, height) = (Int(chunk[4]), Int(chunk[5]))
            guard chunk[1] == imageType, chunk[2] == best, (1...side).contains(width), (1...side).contains(height)
            else {
                throw Refusal(
                    description: "an image of \(width) × \(height) pixels, larger than \(side) for size \(size)")
            }
            pixels += width * height
            guard pixels <= largestPixelCount else {
                throw Refusal(description: "its frames hold more than \(largestPixelCount >> 18) MiB of pixels")
            }
            out += [imageType, best, UInt32(chunksStart + 4 * chunks.count)]
            chunks += [36, imageType, best, chunk[3], chunk[4], chunk[5], chunk[6], chunk[7], chunk[8]]
            chunks += try words(descriptor, at: position + 36, width * height, fileSize: fileSize)
        }
        out += chunks
        return out.map { $0.littleEndian }.withUnsafeBytes { Array($0) }
    }

    private static func distance(_ nominal: UInt32, _ size: Int) -> Int { abs(Int(nominal) - size) }
}
