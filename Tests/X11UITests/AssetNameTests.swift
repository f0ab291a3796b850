import Foundation
import Testing

@testable import X11UI

/// Asset names are ASCII letters, digits, `-` and `_`: nothing else reaches the file system.
@Suite @MainActor struct AssetNameTests {
    @Test(arguments: ["no-such_asset-9", "Z", "0", "_", "-", String(repeating: "a", count: 128)])
    func aNameOfLettersDigitsDashesAndUnderscoresIsLookedFor(name: String) {
        #expect(throws: X11UIError.assetNotFound(name: name)) { try Image(assetNamed: name) }
    }

    @Test(arguments: [
        "", "../heart", "heart.png", "a b", "é", "ß", "ａ", "heart\u{0}", "heart/", "~",
        String(repeating: "a", count: 129),
    ])
    func anyOtherNameIsRefused(name: String) {
        #expect(throws: X11UIError.invalidAssetName(name)) { try Image(assetNamed: name) }
    }

    @Test func anAssetIsFoundInTheFoldersSearched() throws {
        let heart = try Image(assetNamed: "heart")
        #expect(heart.size.width > 0)
        // The package's own assets folder is searched, after the executable's, and it holds the
        // heart that was found.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let folders = Image.assetFolders
        #expect(folders.last == package + "/assets", "\(folders)")
        #expect(folders.contains { FileManager.default.isReadableFile(atPath: $0 + "/heart.png") }, "\(folders)")
    }
}
