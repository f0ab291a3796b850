import Testing

@testable import X11UI

/// The bidirectional algorithm leaves Arabic letters as they are for HarfBuzz to join, when
/// asked to: reordered, never replaced by presentation forms.
@Suite struct BidiShapingTests {
    @Test func arabicLettersAreReorderedButNotJoined() throws {
        let line = try #require(Bidi.visualLine("سلام", joinsArabic: false))
        #expect(line.isRightToLeft)
        #expect(line.text == "مالس")
        #expect(line.logicalOffsets == [3, 2, 1, 0])
    }

    @Test func marksFollowTheirLetterAndBracketsStillMirror() throws {
        let line = try #require(Bidi.visualLine("(بِسْمِ)", joinsArabic: false))
        #expect(line.text.unicodeScalars.map(\.value) == [0x28, 0x645, 0x650, 0x633, 0x652, 0x628, 0x650, 0x29])
    }

    @Test func withoutAShapingEngineArabicIsJoinedAsBefore() throws {
        let joined = try #require(Bidi.visualLine("سلام"))
        let left = try #require(Bidi.visualLine("سلام", joinsArabic: false))
        #expect(joined.text != left.text)
        #expect(joined.logicalOffsets == left.logicalOffsets)
    }
}
