import X11UI

/// The demo's window: every scene side by side, or one alone.
@MainActor
final class DemoWindow {
    let window: Window
    private let sample: SampleScene?
    /// Holds the delegates of the icons scene's tooltips (held weakly by their interactions).
    private let icons: IconsScene?

    init?(scene: String) {
        let title: String
        let content: View
        var size: Size?
        switch scene {
        case "all":
            let sample = SampleScene()
            self.sample = sample
            let icons = IconsScene()
            self.icons = icons
            title = "X11UI Tooltips"
            size = Size(width: 1280, height: 800)
            content = HStack(spacing: 28, alignment: .fill, padding: 20) {
                sample.view
                Separator()
                icons.view
                Separator()
                PlacementsScene().view
            }
            content.subviews.last?.fillsAvailableSpace = true
        case "sample":
            let sample = SampleScene()
            self.sample = sample
            icons = nil
            title = "X11UI Tooltips: sample"
            content = VStack(alignment: .fill, padding: 20) { sample.view }
        case "icons":
            sample = nil
            let icons = IconsScene()
            self.icons = icons
            title = "X11UI Tooltips: icons"
            content = VStack(alignment: .fill, padding: 20) { icons.view }
        case "placements":
            sample = nil
            icons = nil
            title = "X11UI Tooltips: placements"
            size = Size(width: 720, height: 480)
            content = VStack(alignment: .fill, padding: 20) { PlacementsScene().view }
        default:
            return nil
        }
        window = Window(title: title, size: size, content: content)
        // The desktop entry's StartupWMClass, whatever name the program was started under.
        window.windowClass = ("tooltip-demo", "Tooltip-demo")
        window.icon = DemoWindow.icon
        window.requestedPosition = Point(x: 0, y: 0)
    }

    /// The application icon (scripts/draw-app-icon.py) at the sizes taskbars and title bars use.
    static var icon: [Image] {
        [16, 24, 32, 48, 64, 128].compactMap { size in
            do {
                return try Image(assetNamed: "tooltip-demo-\(size)")
            } catch {
                warn("no window icon of \(size) pixels: \(error)")
                return nil
            }
        }
    }
}

extension DemoWindow {
    /// Starts filling the sample scene's cart from a simulated stream (`--stream-cart`);
    /// returns false when the window has no sample scene.
    func streamCart(every interval: Duration, count: Int) -> Bool {
        guard let sample else { return false }
        sample.streamCart(every: interval, count: count)
        return true
    }
}

/// A thin vertical line between scenes.
@MainActor
final class Separator: View {
    init() {
        super.init()
        backgroundColor = .separator
        preferredSize = Size(width: 1, height: 1)
    }
}

/// Fixed empty space in a stack.
@MainActor
final class Gap: View {
    init(height: Double) {
        super.init()
        preferredSize = Size(width: 1, height: height)
    }
}
