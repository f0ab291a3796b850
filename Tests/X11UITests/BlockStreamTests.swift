import Foundation
import Testing

@testable import X11UI

/// The stream FreeType reads TrueType fonts through: what it returns is the file's bytes for any
/// offset and count, in far fewer reads of the file than FreeType's calls.
@Suite struct BlockStreamTests {
    /// A file of `size` bytes that are not periodic in the block size, and its bytes.
    private func file(size: Int) throws -> (FontFile, [UInt8], URL) {
        var state: UInt32 = 0x1234_5678
        let bytes = (0..<size).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("block-stream-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        let file = try #require(FontFile(path: url.path))
        return (file, bytes, url)
    }

    private func read(_ stream: BlockStream, at offset: Int, count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0xee, count: max(count, 1))
        let read = buffer.withUnsafeMutableBufferPointer { stream.read(at: offset, into: $0.baseAddress, count: count) }
        return Array(buffer.prefix(read))
    }

    @Test func anyReadGivesTheFilesBytes() throws {
        let size = 5 * BlockStream.blockSize + 1234
        let (file, bytes, url) = try file(size: size)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = BlockStream(file: file)
        var cases: [(offset: Int, count: Int)] = [
            (0, 4), (12, 16), (BlockStream.blockSize - 3, 7), (BlockStream.blockSize, BlockStream.blockSize),
            (BlockStream.blockSize - 1, BlockStream.blockSize + 2), (size - 10, 10), (size - 10, 50), (size - 1, 1),
            (0, size), (3 * BlockStream.blockSize + 5, BlockStream.blockSize - 1),
        ]
        var state: UInt64 = 42
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let offset = Int(state >> 33) % size
            let count = [1, 2, 4, 16, 300, 5000][Int(state >> 20) % 6]
            cases.append((offset, count))
        }
        for (offset, count) in cases {
            let expected = Array(bytes[offset..<min(size, offset + count)])
            #expect(read(stream, at: offset, count: count) == expected, "\(count) bytes at \(offset)")
        }
    }

    @Test func theEndOfTheFileAndSeeks() throws {
        let (file, _, url) = try file(size: 1000)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = BlockStream(file: file)
        #expect(read(stream, at: 1000, count: 4).isEmpty)
        #expect(read(stream, at: 5000, count: 4).isEmpty)
        #expect(read(stream, at: 996, count: 10).count == 4)
        // A zero count is FreeType's seek: 0 is success.
        #expect(stream.read(at: 1000, into: nil, count: 0) == 0)
        #expect(stream.read(at: 1001, into: nil, count: 0) != 0)
    }

    @Test func smallReadsNearbyReadTheFileOncePerBlock() throws {
        let (file, _, url) = try file(size: 8 * BlockStream.blockSize)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = BlockStream(file: file)
        // A table directory read 16 bytes at a time, then `loca` entries of 2 within two blocks.
        for entry in 0..<20 { _ = read(stream, at: 12 + 16 * entry, count: 16) }
        for entry in 0..<500 { _ = read(stream, at: 2 * BlockStream.blockSize + (entry * 17) % 8000, count: 2) }
        #expect(stream.fileReads == 3)
        // A read of a block or more goes to the file as it is, and is not kept.
        _ = read(stream, at: 5 * BlockStream.blockSize, count: BlockStream.blockSize)
        _ = read(stream, at: 5 * BlockStream.blockSize, count: 8)
        #expect(stream.fileReads == 5)
    }

    @Test func aNewBlockReplacesTheLeastRecentlyUsed() throws {
        let (file, _, url) = try file(size: 16 * BlockStream.blockSize)
        defer { try? FileManager.default.removeItem(at: url) }
        let stream = BlockStream(file: file)
        let size = BlockStream.blockSize
        for block in 0..<BlockStream.blockCount { _ = read(stream, at: block * size + 10, count: 2) }
        _ = read(stream, at: 10, count: 2)  // block 0 used again: block 1 is now the oldest
        #expect(stream.fileReads == BlockStream.blockCount)
        _ = read(stream, at: 12 * size, count: 2)  // replaces block 1
        _ = read(stream, at: 20, count: 2)
        #expect(stream.fileReads == BlockStream.blockCount + 1)
        _ = read(stream, at: size + 20, count: 2)
        #expect(stream.fileReads == BlockStream.blockCount + 2)
    }
}
