import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Tooltips under a 96 pixel cursor, on a private Xvfb: the tooltip window the server maps
/// never lies on a visible pixel of the cursor the server shows (both read back from the
/// server: the window's geometry, and the cursor's image through XFixes).
@Suite(.serialized)
@MainActor
final class LargeCursorToolTipTests {
    /// Debian's Adwaita cursors (adwaita-icon-theme), and a theme written here whose arrow is
    /// a solid block the size of a 96 pixel arrow's ink.
    nonisolated static let themes = ["Adwaita", "block"]

    /// Makes `theme` one of libXcursor's themes (its search path is the test themes' directory).
    static func install(_ theme: String) throws {
        let directory = TestCursorTheme.directory
        if theme == "Adwaita" {
            let system = "/usr/share/icons/Adwaita"
            try #require(FileManager.default.fileExists(atPath: "\(system)/cursors/left_ptr"), "adwaita-icon-theme")
            if !FileManager.default.fileExists(atPath: "\(directory)/Adwaita") {
                try FileManager.default.createSymbolicLink(atPath: "\(directory)/Adwaita", withDestinationPath: system)
            }
        } else {
            let block = [TestCursorTheme.Image(nominalSize: 96, width: 56, height: 84, color: 0xff20_2020)]
            try TestCursorTheme.write(theme, in: directory, cursors: ["default": block, "left_ptr": block])
        }
    }

    /// The visible pixels of the cursor the server shows, on the screen with its hot spot at
    /// `pointer`.
    static func ink(of image: ServerProbe.CursorImage, at pointer: (Int, Int)) -> Rect? {
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, Int.min, Int.min)
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[y * image.width + x] >> 24 != 0 {
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            }
        }
        guard maxX >= minX else { return nil }
        return Rect(
            x: Double(pointer.0 - image.hotSpot.x + minX), y: Double(pointer.1 - image.hotSpot.y + minY),
            width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }

    @Test(arguments: themes)
    func theToolTipWindowNeverLiesOnTheCursorsInk(theme: String) throws {
        try Self.install(theme)
        let display = try InProcessDisplay(
            width: 1366, height: 768, resources: "Xcursor.theme: \(theme)\nXcursor.size: 96\n")
        let label = Label("A label whose tooltip a large cursor must not hide")
        label.toolTip = "The label's tooltip, below the cursor's tail."
        let buy = Button(title: "Buy", subtitle: "Only $9.99")
        buy.toolTip = "Click to buy this item."
        let follow = View()
        follow.preferredSize = Size(width: 300, height: 60)
        follow.backgroundColor = .controlBackground
        follow.addInteraction(
            ToolTipInteraction(
                trigger: .hover, placement: ToolTipPlacement(edge: .bottom, anchor: .followsPointer),
                defaultToolTip: "This tooltip follows the pointer."))
        let content = VStack(spacing: 24, padding: 24) {
            label; buy; follow
        }
        // The theme's arrow, as a desktop shows it on the root window (a bare Xvfb shows the
        // server's own 16 pixel cursor there).
        content.cursor = .arrow
        let window = Window(
            title: "large cursor", size: Size(width: 600, height: 400), content: content, application: display.app)
        display.show(window)
        for view in [label, buy, follow] {
            display.movePointer(to: view)
            let pointer = display.center(of: view)
            #expect(display.run(until: { !display.probe.mappedPopups().isEmpty }), "\(view)'s tooltip shows")
            let popup = try #require(display.probe.mappedPopups().first)
            let image = try #require(display.probe.cursorImage())
            #expect(image.height >= 80, "the server shows the large cursor: \(image)")
            let ink = try #require(Self.ink(of: image, at: pointer))
            let f = popup.frame
            let frame = Rect(x: Double(f.x), y: Double(f.y), width: Double(f.width), height: Double(f.height))
            #expect(!frame.intersects(ink), "\(view): the tooltip \(frame) lies on the cursor's ink \(ink)")
            if let path = ProcessInfo.processInfo.environment["X11UI_LARGE_CURSOR_SHOTS"] {
                try display.probe.screenshot(to: "\(path)/\(theme)-\(type(of: view)).png")
            }
            display.probe.movePointer(to: 1300, 700)
            #expect(display.run(until: { display.probe.mappedPopups().isEmpty }))
        }
    }
}
