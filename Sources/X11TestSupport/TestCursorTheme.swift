import Foundation

/// Cursor themes written for tests, in the Xcursor file format that libXcursor reads: each
/// cursor one solid colour, at one or more nominal sizes, so that the cursor the server shows
/// says which theme, which cursor and which size it came from.
public enum TestCursorTheme {
    /// One image of a cursor: its nominal size (what a size asked for is matched with), its
    /// pixel size and its colour (opaque ARGB).
    public struct Image: Sendable {
        public var nominalSize: Int
        public var width: Int
        public var height: Int
        public var color: UInt32

        public init(nominalSize: Int, width: Int? = nil, height: Int? = nil, color: UInt32) {
            self.nominalSize = nominalSize
            self.width = width ?? nominalSize
            self.height = height ?? nominalSize
            self.color = color
        }
    }

    /// Writes theme `name` under `directory` (a directory of `XCURSOR_PATH`): one file a
    /// cursor in `name/cursors/`, and an `index.theme` when it inherits another theme.
    public static func write(
        _ name: String, in directory: String, cursors: [String: [Image]], inherits: String? = nil
    ) throws {
        let folder = "\(directory)/\(name)/cursors"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (cursor, images) in cursors {
            try Data(file(images)).write(to: URL(fileURLWithPath: "\(folder)/\(cursor)"))
        }
        if let inherits {
            let index = "[Icon Theme]\nInherits=\(inherits)\n"
            try index.write(toFile: "\(directory)/\(name)/index.theme", atomically: true, encoding: .utf8)
        }
    }

    /// An Xcursor file: the header, a table of contents, then each image chunk (a header of
    /// nine 32-bit words and the pixels), all little-endian.
    static func file(_ images: [Image]) -> [UInt8] {
        let imageType: UInt32 = 0xfffd_0002
        var words: [UInt32] = [0x7275_6358, 16, 0x1_0000, UInt32(images.count)]  // "Xcur"
        var position = UInt32(16 + 12 * images.count)
        for image in images {
            words += [imageType, UInt32(image.nominalSize), position]
            position += UInt32(36 + 4 * image.width * image.height)
        }
        for image in images {
            words += [
                36, imageType, UInt32(image.nominalSize), 1, UInt32(image.width), UInt32(image.height), 1, 1, 0,
            ]
            words += Array(repeating: image.color, count: image.width * image.height)
        }
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }
}

extension TestCursorTheme {
    /// The colours of the themes in ``directory``: the theme, the cursor and the size say
    /// which.
    public enum Color {
        public static let redText: UInt32 = 0xffcc_0000
        public static let redTextLarge: UInt32 = 0xff88_0000
        public static let redPointer: UInt32 = 0xffff_6600
        public static let redArrow: UInt32 = 0xffff_8888
        public static let blueText: UInt32 = 0xff00_00cc
        public static let blueTextLarge: UInt32 = 0xff00_0088
        public static let bluePointer: UInt32 = 0xff00_66ff
        public static let legacyText: UInt32 = 0xff00_aa00
        public static let legacyPointer: UInt32 = 0xff66_cc66
    }

    /// A directory of test themes, written once per process and removed when it exits: `red`
    /// and `blue` (`text` at 24 and 48 pixels, `pointer`, and in `red` also `default`), and
    /// `legacy`, whose cursors have only the older X names (`xterm`, `hand2`). It has no
    /// `default` theme: where no theme is named, libXcursor finds none, and X11UI shows the
    /// server's own cursors. ``InProcessDisplay`` makes it libXcursor's whole search path.
    public static let directory: String = {
        let path = NSTemporaryDirectory() + "x11ui-cursor-themes-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        for (theme, text, large, pointer) in [
            ("red", Color.redText, Color.redTextLarge, Color.redPointer),
            ("blue", Color.blueText, Color.blueTextLarge, Color.bluePointer),
        ] {
            var cursors: [String: [Image]] = [
                "text": [Image(nominalSize: 24, color: text), Image(nominalSize: 48, color: large)],
                "pointer": [Image(nominalSize: 24, width: 20, height: 20, color: pointer)],
            ]
            if theme == "red" {
                cursors["default"] = [Image(nominalSize: 24, width: 22, height: 22, color: Color.redArrow)]
            }
            try? write(theme, in: path, cursors: cursors)
        }
        try? write(
            "legacy", in: path,
            cursors: [
                "xterm": [Image(nominalSize: 24, width: 12, height: 24, color: Color.legacyText)],
                "hand2": [Image(nominalSize: 24, width: 18, height: 18, color: Color.legacyPointer)],
            ])
        themesToRemove = path
        atexit {
            if let path = themesToRemove { try? FileManager.default.removeItem(atPath: path) }
        }
        return path
    }()
}

/// The directory ``TestCursorTheme/directory`` wrote, removed at exit.
nonisolated(unsafe) private var themesToRemove: String?
