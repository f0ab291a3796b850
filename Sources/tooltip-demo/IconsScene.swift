import X11UI

/// The objc.io episode: large icons whose click toggles a rich tooltip (a label and a coloured
/// dot) above them; one tooltip at a time; a click on empty space dismisses it.
@MainActor
final class IconsScene {
    let view: View

    init() {
        func icon(_ asset: String, id: String) -> ImageView {
            let icon = ImageView(.asset(asset), size: Size(width: 44, height: 44), tint: .label)
            icon.identifier = id
            return icon
        }
        let home = icon("house", id: "icon-home")
        home.addInteraction(
            ToolTipInteraction(trigger: .click) {
                HStack(spacing: 6) {
                    Label("Home"); Circle(color: .green, diameter: 10)
                }
            })
        let video = icon("video", id: "icon-video")
        video.addInteraction(
            ToolTipInteraction(trigger: .click) {
                HStack(spacing: 6) {
                    Label("Camera"); Circle(color: .red, diameter: 10)
                }
            })
        // A click on them does something: the pointing hand says so.
        home.cursor = .pointingHand
        video.cursor = .pointingHand
        // The microphone has no tooltip, as in the episode.
        let mic = icon("mic", id: "icon-mic")

        let note = Label("Click an icon to toggle its tooltip; click anywhere else to dismiss it.", font: .caption)
        note.textColor = .secondaryLabel
        let more = MoreToolTips()
        self.more = more
        view = VStack(spacing: 24, alignment: .fill) {
            Label("Icons", font: .title)
            Gap(height: 40)
            HStack(spacing: 32) {
                home; video; mic
            }
            note
            Gap(height: 16)
            more.view
        }
        view.preferredWidth = 220
    }

    private let more: MoreToolTips
}

/// Text cut with an ellipsis shows whole over itself (expansion tooltips), and a tooltip that
/// follows the pointer along a wide shape, saying where it is.
@MainActor
final class MoreToolTips: ToolTipInteractionDelegate {
    let view: View

    init() {
        let path = Label("~/Documents/Reports/2024/quarterly-summary-final.pdf")
        path.identifier = "truncated-label"
        path.wrapsText = false
        let fits = Label("notes.txt")
        fits.identifier = "fitting-label"
        fits.wrapsText = false
        let export = Button(title: "Export as Portable Document Format", style: .plain)
        export.identifier = "truncated-button"
        export.preferredWidth = 200
        export.toolTip = "Saves the report as a PDF file."
        let track = RoundedRectangle(color: Color(rgb: 0x5ac8fa), size: Size(width: 220, height: 36), cornerRadius: 8)
        track.identifier = "follow-shape"
        let caption = Label("Rest the pointer on cut text to read it whole; move it along the bar.", font: .caption)
        caption.textColor = .secondaryLabel
        view = VStack(spacing: 10, alignment: .fill) {
            Label("Cut text and a tooltip that follows", font: Font(size: 13, weight: .semibold))
            path
            fits
            HStack {
                export; Spacer()
            }
            track
            caption
        }
        let follow = ToolTipInteraction()
        follow.placement = ToolTipPlacement(edge: .bottom, anchor: .followsPointer)
        follow.delegate = self
        track.addInteraction(follow)
    }

    /// Where along the bar the pointer is, in percent.
    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        guard let width = interaction.view?.bounds.width, width > 1 else { return nil }
        let percent = Int((min(max(point.x / (width - 1), 0), 1) * 100).rounded())
        return ToolTipConfiguration(toolTip: "x: \(percent)%")
    }
}
