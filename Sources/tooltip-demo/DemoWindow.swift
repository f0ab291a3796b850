import X11UI

/// The demo's window: every scene side by side, or one alone.
@MainActor
final class DemoWindow {
    let window: Window
    private let sample: SampleScene?

    init?(scene: String) {
        let title: String
        let content: View
        switch scene {
        case "all":
            let sample = SampleScene()
            self.sample = sample
            title = "X11UI Tooltips"
            content = HStack(spacing: 24, alignment: .start, padding: 20) {
                sample.view
            }
        case "sample":
            let sample = SampleScene()
            self.sample = sample
            title = "X11UI Tooltips: sample"
            content = VStack(alignment: .fill, padding: 20) { sample.view }
        default:
            return nil
        }
        window = Window(title: title, content: content)
        window.windowClass = ("tooltip-demo", "Tooltip-demo")
        window.requestedPosition = Point(x: 0, y: 0)
    }
}
