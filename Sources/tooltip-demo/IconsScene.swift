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
        view = VStack(spacing: 24, alignment: .fill) {
            Label("Icons", font: .title)
            Gap(height: 40)
            HStack(spacing: 32) {
                home; video; mic
            }
            note
        }
        view.preferredWidth = 220
    }
}
