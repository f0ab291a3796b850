import Testing
import X11TestSupport

/// The X protocol parser the benchmark counts requests and round trips with: known byte
/// sequences, fed whole and split at every byte, give exactly the messages they hold.
@Suite struct ProtocolCounterTests {
    static func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff)] }
    static func u32(_ v: Int) -> [UInt8] { u16(v & 0xffff) + u16(v >> 16) }
    static func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4) }

    /// A little-endian client's connection setup with an 18-byte auth name and 16 bytes of data.
    static let clientSetup: [UInt8] =
        [0x6c, 0] + u16(11) + u16(0) + u16(18) + u16(16) + [0, 0]
        + padded(Array("MIT-MAGIC-COOKIE-1".utf8)) + [UInt8](repeating: 7, count: 16)
    /// MapWindow (8), 2 units.
    static let mapWindow: [UInt8] = [8, 0] + u16(2) + u32(0x0040_0001)
    /// InternAtom (16) of "TOOLTIP", 4 units.
    static let internAtom: [UInt8] = [16, 0] + u16(4) + u16(7) + [0, 0] + padded(Array("TOOLTIP".utf8))
    /// A BIG-REQUESTS request: length 0 in the header, then 6 units in 32 bits (24 bytes).
    static let bigRequest: [UInt8] = [72, 2] + u16(0) + u32(6) + [UInt8](repeating: 0xab, count: 16)
    /// NoOperation (127), 1 unit.
    static let noOperation: [UInt8] = [127, 0] + u16(1)

    /// The server's setup reply with 3 units of data, then an error, a reply with 2 extra
    /// units, a KeyPress event, a synthetic ClientMessage (send_event bit), and a GenericEvent
    /// with 1 extra unit.
    static let serverStream: [UInt8] = {
        var bytes: [UInt8] = [1, 0] + u16(11) + u16(0) + u16(3) + [UInt8](repeating: 0, count: 12)
        bytes += [0, 3] + u16(5) + [UInt8](repeating: 0, count: 28)
        bytes += [1, 0] + u16(6) + u32(2) + [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 1, count: 8)
        bytes += [2, 38] + u16(7) + [UInt8](repeating: 0, count: 28)
        bytes += [0x80 | 33, 32] + u16(8) + [UInt8](repeating: 0, count: 28)
        bytes += [35, 131] + u16(9) + u32(1) + [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 2, count: 4)
        return bytes
    }()

    /// Feeds `bytes` in pieces of `chunk` bytes and adds up the tallies.
    static func tally(_ bytes: [UInt8], clientToServer: Bool, chunk: Int) -> MessageParser.Tally {
        var parser = MessageParser(clientToServer: clientToServer)
        var total = MessageParser.Tally()
        var offset = 0
        while offset < bytes.count {
            let piece = parser.feed(Array(bytes[offset..<min(bytes.count, offset + chunk)]))
            total.requests += piece.requests
            total.replies += piece.replies
            total.events += piece.events
            total.errors += piece.errors
            total.opcodes += piece.opcodes
            offset += chunk
        }
        return total
    }

    @Test(arguments: [1, 3, 7, 32, 1000])
    func requestsAreCountedWithTheirOpcodesHoweverTheStreamIsSplit(chunk: Int) {
        let stream = Self.clientSetup + Self.mapWindow + Self.internAtom + Self.bigRequest + Self.noOperation
        let tally = Self.tally(stream, clientToServer: true, chunk: chunk)
        #expect(tally.requests == 4)
        #expect(tally.opcodes == [8, 16, 72, 127])
        #expect(tally.replies == 0 && tally.events == 0 && tally.errors == 0)
    }

    @Test(arguments: [1, 5, 32, 33, 1000])
    func repliesEventsAndErrorsAreToldApart(chunk: Int) {
        let tally = Self.tally(Self.serverStream, clientToServer: false, chunk: chunk)
        #expect(tally.replies == 1, "one reply: one round trip")
        #expect(tally.errors == 1)
        #expect(tally.events == 3, "KeyPress, the synthetic ClientMessage and the GenericEvent")
        #expect(tally.requests == 0)
    }

    @Test func anIncompleteMessageIsCountedOnlyWhenItsLastByteArrives() {
        var parser = MessageParser(clientToServer: true)
        #expect(parser.feed(Self.clientSetup).requests == 0)
        #expect(parser.feed(Array(Self.internAtom.prefix(15))).requests == 0)
        #expect(parser.feed([Self.internAtom[15]]).requests == 1)
        var server = MessageParser(clientToServer: false)
        // After the 20-byte setup and the 32-byte error: the reply, 32 bytes and 8 extra.
        let reply = Array(Self.serverStream[52..<92])
        _ = server.feed(Array(Self.serverStream.prefix(52)))
        #expect(server.feed(Array(reply.prefix(39))).replies == 0)
        #expect(server.feed([reply[39]]).replies == 1)
    }

    @Test func theSetupIsNotARequest() {
        var parser = MessageParser(clientToServer: true)
        #expect(parser.feed(Self.clientSetup) == MessageParser.Tally())
        var server = MessageParser(clientToServer: false)
        #expect(server.feed(Array(Self.serverStream.prefix(20))) == MessageParser.Tally())
    }
}
