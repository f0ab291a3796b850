import Glibc
import Testing

@testable import X11UI

/// Startup-notification messages and window-icon data, without an X server.
@Suite struct StartupNotificationTests {
    @Test func launchTimeIsTheNumberAfterTheLastTimeMarker() {
        #expect(StartupNotification(id: "openbox-1234-host-xterm-0_TIME56789")?.launchTime == 56789)
        // A launcher's prefix can contain the marker itself; the last one counts.
        #expect(StartupNotification(id: "my_TIMEr-7_TIME42")?.launchTime == 42)
        #expect(StartupNotification(id: "no-time-here")?.launchTime == nil)
        #expect(StartupNotification(id: "x_TIME")?.launchTime == nil)
        #expect(StartupNotification(id: "x_TIMEabc")?.launchTime == nil)
        // Larger than a 32-bit server time: no time rather than a wrapped one.
        #expect(StartupNotification(id: "x_TIME99999999999")?.launchTime == nil)
    }

    @Test func malformedIDsAreRefused() {
        #expect(StartupNotification(id: "") == nil)
        #expect(StartupNotification(id: "bad\nid") == nil)
        #expect(StartupNotification(id: "bad\u{7f}id") == nil)
        #expect(StartupNotification(id: String(repeating: "a", count: 1025)) == nil)
        #expect(StartupNotification(id: String(repeating: "a", count: 1024)) != nil)
    }

    @Test func removeMessageEscapesSpacesQuotesAndBackslashes() {
        #expect(StartupNotification(id: "launcher-1_TIME5")?.removeMessage == "remove: ID=launcher-1_TIME5")
        #expect(StartupNotification(id: #"a b"c\d"#)?.removeMessage == #"remove: ID=a\ b\"c\\d"#)
        #expect(StartupNotification(id: "ünïcode-1")?.removeMessage == "remove: ID=ünïcode-1")
    }

    @Test func messageIsSplitIntoNulTerminatedPiecesOf20Bytes() {
        let message = "remove: ID=launcher-1234_TIME5678"  // 33 bytes
        let pieces = StartupNotification.pieces(of: message)
        #expect(pieces.count == 2)
        #expect(pieces.allSatisfy { $0.count == 20 })
        let joined = pieces.flatMap { $0 }
        #expect(Array(joined.prefix(33)) == Array(message.utf8))
        #expect(joined[33...].allSatisfy { $0 == 0 })
        // Exactly 20 bytes of text still needs a piece for the NUL that ends it.
        let twenty = String(repeating: "x", count: 20)
        #expect(StartupNotification.pieces(of: twenty).count == 2)
        #expect(StartupNotification.pieces(of: twenty)[1] == [UInt8](repeating: 0, count: 20))
        #expect(StartupNotification.pieces(of: String(repeating: "x", count: 19)).count == 1)
    }
}

@Suite @MainActor struct WindowIconDataTests {
    @Test func entryIsSizeThenStraightAlphaARGBRowByRow() throws {
        // Left column opaque red, right column half-transparent white; second row empty.
        let image = Image(size: Size(width: 2, height: 2)) { context in
            context.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(rgb: 0xff0000))
            context.fill(Rect(x: 1, y: 0, width: 1, height: 1), color: Color(red: 1, green: 1, blue: 1, alpha: 0.5))
        }
        let data = try #require(image.windowIconData)
        #expect(data.count == 2 + 4)
        #expect(data[0] == 2 && data[1] == 2)
        #expect(data[2] == 0xffff_0000)
        // Cairo stores 0x80808080 (premultiplied); the property wants white at half alpha.
        #expect(data[3] >> 24 == 0x80 && data[3] & 0xffffff == 0xffffff)
        #expect(data[4] == 0 && data[5] == 0)
    }

    @Test func unpremultiplyRoundsAndClamps() {
        #expect(Image.unpremultiplied(0x0000_0000) == 0)
        #expect(Image.unpremultiplied(0xff12_3456) == 0xff12_3456)
        #expect(Image.unpremultiplied(0x8040_2010) == 0x8080_4020)
        // Malformed data (colour above alpha) is clamped, not wrapped.
        #expect(Image.unpremultiplied(0x10ff_ffff) == 0x10ff_ffff)
    }

    @Test func tooLargeImagesHaveNoIconData() {
        #expect(Image(size: Size(width: 513, height: 16)) { _ in }.windowIconData == nil)
        #expect(Image(size: Size(width: 512, height: 512)) { _ in }.windowIconData?.count == 2 + 512 * 512)
    }
}

@Suite @MainActor struct AssetLookupTests {
    /// The running executable's path (symbolic links resolved).
    static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        try #require(count > 0)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func installedAssetsComeAfterTheExecutablesFolderAndBeforeTheSourceTree() throws {
        let executable = try Self.executablePath()
        let slash = try #require(executable.lastIndex(of: "/"))
        let folder = String(executable[..<slash])
        let name = String(executable[executable.index(after: slash)...])
        let folders = Image.assetFolders.filter { $0 != Environment.value("X11UI_ASSETS") }
        // This file is <package>/Tests/X11UITests/DesktopIntegrationUnitTests.swift.
        let package = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        #expect(folders == [folder + "/assets", folder + "/../share/" + name + "/assets", "/" + package + "/assets"])
    }
}

/// PNG files are read and their header checked at once; their pixels are decoded on first use.
@Suite @MainActor struct ImageFileTests {
    /// A temporary file with `bytes`, removed by the caller.
    private func file(_ bytes: [UInt8]) -> String {
        var template = Array("/tmp/x11ui-image-XXXXXX.png".utf8CString)
        let fd = mkstemps(&template, 4)
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    /// A 3 × 2 PNG with a red first pixel, written by cairo.
    private func pngBytes() throws -> [UInt8] {
        let path = file([])
        defer { unlink(path) }
        let drawn = Image(size: Size(width: 3, height: 2)) { context in
            context.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: Color(rgb: 0xff0000))
        }
        try drawn.writePNG(to: path)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &bytes, bytes.count)
        return Array(bytes.prefix(max(0, count)))
    }

    @Test func sizeComesFromTheHeaderAndPixelsFromTheFile() throws {
        let path = file(try pngBytes())
        defer { unlink(path) }
        let image = try Image(contentsOfFile: path)
        #expect(image.size == Size(width: 3, height: 2))
        unlink(path)  // already read: decoding needs the file no more
        #expect(image.pixel(x: 0, y: 0) == Color(rgb: 0xff0000))
        #expect(image.pixel(x: 2, y: 1) == .clear)
    }

    @Test func anImageWrittenOnlyAsAWindowIconIsNotKeptDecoded() throws {
        let path = file(try pngBytes())
        defer { unlink(path) }
        let image = try Image(contentsOfFile: path)
        // Decoded for the icon's entry and freed: the same entry each time.
        let entry = try #require(image.windowIconData)
        #expect(!image.isDecoded)
        #expect(entry.count == 2 + 3 * 2 && entry[2] == 0xffff_0000)
        #expect(image.windowIconData == entry)
        // Drawn (or read), it is decoded once and kept.
        #expect(image.pixel(x: 0, y: 0) == Color(rgb: 0xff0000))
        #expect(image.isDecoded)
        #expect(image.windowIconData == entry)
    }

    @Test func damagedPixelDataShowsTransparentAtTheHeadersSize() throws {
        let bytes = try pngBytes()
        let path = file(Array(bytes.prefix(40)))  // the header, and a cut first data chunk
        defer { unlink(path) }
        let image = try Image(contentsOfFile: path)
        #expect(image.size == Size(width: 3, height: 2))
        #expect(image.pixel(x: 0, y: 0) == .clear)
        #expect(image.windowIconData?.count == 2 + 3 * 2)
    }

    @Test func filesThatAreNotPNGsAreRefusedAtOnce() throws {
        var header = try pngBytes()
        let notPNG = file(Array("GIF89a, not a PNG at all, but long enough".utf8))
        header[19] = 0  // width 0
        header[18] = 0
        header[17] = 0
        header[16] = 0
        let empty = file(Array(header))
        defer {
            unlink(notPNG)
            unlink(empty)
        }
        #expect(throws: X11UIError.imageUnreadable(path: notPNG)) { try Image(contentsOfFile: notPNG) }
        #expect(throws: X11UIError.imageUnreadable(path: empty)) { try Image(contentsOfFile: empty) }
        #expect(throws: X11UIError.imageUnreadable(path: "/nonexistent/x.png")) {
            try Image(contentsOfFile: "/nonexistent/x.png")
        }
        #expect(throws: X11UIError.imageUnreadable(path: "/tmp")) { try Image(contentsOfFile: "/tmp") }
    }

    @Test func headerSizesAreReadBigEndianAndBounded() {
        var header: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        header += [0, 0, 1, 2, 0, 0, 0, 7] + [UInt8](repeating: 0, count: 9)
        #expect(Image.pngSize(header) == Size(width: 258, height: 7))
        header[17] = 0x80  // 32,768 wide: more than cairo takes
        #expect(Image.pngSize(header) == nil)
        #expect(Image.pngSize(Array(header.prefix(32))) == nil)
    }
}
