import Testing

@testable import X11UI

/// The appearance in force and how colours follow it, without a display: the merge of the
/// program's choice with the desktop's, named colours resolved in each appearance, and a
/// view's own colour staying its own when drawn in another.
@MainActor
@Suite struct AppearanceTests {
    // MARK: - The merge rule

    @Test func withoutAChoiceTheDesktopsIsInForce() {
        #expect(Appearance.inForce(preferred: nil, desktop: .light) == .light)
        #expect(Appearance.inForce(preferred: nil, desktop: .highContrastDark) == .highContrastDark)
        let red = Appearance(scheme: .dark, accent: Color(rgb: 0xff3b30))
        #expect(Appearance.inForce(preferred: nil, desktop: red) == red)
    }

    @Test func theProgramsChoiceWinsAndKeepsTheDesktopsAccent() {
        let desktop = Appearance(scheme: .dark, contrast: .standard, accent: Color(rgb: 0x34c759))
        let merged = Appearance.inForce(preferred: .highContrast, desktop: desktop)
        #expect(merged.scheme == .light)
        #expect(merged.contrast == .high)
        #expect(merged.accent == Color(rgb: 0x34c759), "the desktop's accent, the program naming none")
        // A choice with its own accent keeps it.
        let own = Appearance(scheme: .light, accent: Color(rgb: 0xaf52de))
        #expect(Appearance.inForce(preferred: own, desktop: desktop).accent == Color(rgb: 0xaf52de))
        // Neither names one: X11UI's.
        #expect(Appearance.inForce(preferred: .dark, desktop: .light).accent == nil)
    }

    // MARK: - Named colours

    @Test func namedColoursResolveInEachAppearance() {
        #expect(Color.label.followsAppearance)
        #expect(!Color(rgb: 0x1c1c1e).followsAppearance)
        #expect(Color.label.resolved(in: .light) == Color(rgb: 0x1c1c1e))
        #expect(Color.label.resolved(in: .dark) == Color(rgb: 0xf2f2f7))
        #expect(Color.windowBackground.resolved(in: .highContrast) == .white)
        #expect(Color.windowBackground.resolved(in: .highContrastDark) == .black)
        // Components read without an appearance are the light one's.
        #expect(Color.label.red == Color(rgb: 0x1c1c1e).red)
        // A fixed colour is itself everywhere.
        let green = Color(rgb: 0x34c759)
        #expect(green.resolved(in: .dark) == green)
    }

    @Test func derivedColoursKeepFollowing() {
        let dimmed = Color.label.multipliedAlpha(0.4)
        #expect(dimmed.followsAppearance)
        #expect(dimmed.resolved(in: .dark) == Color(rgb: 0xf2f2f7, alpha: 0.4))
        // multipliedAlpha multiplies: the selection (0.42 in dark) at half is 0.21.
        #expect(abs(Color.selection.multipliedAlpha(0.5).resolved(in: .dark).alpha - 0.21) < 1e-9)
        #expect(Color.label.withAlpha(0.5).resolved(in: .dark) == Color(rgb: 0xf2f2f7, alpha: 0.5))
        let mixed = Color.windowBackground.mixed(with: .black, amount: 1)
        #expect(mixed.resolved(in: .dark) == .black)
        // Setting alpha on a named colour keeps it named; setting red makes it fixed.
        var faint = Color.label
        faint.alpha = 0.5
        #expect(faint.followsAppearance && faint.resolved(in: .dark).alpha == 0.5)
        var fixed = Color.label
        fixed.red = 1
        #expect(!fixed.followsAppearance)
    }

    @Test func theStandardTooltipStyleFollowsTheAppearanceAndTheOldOnesDoNot() {
        let standard = ToolTipStyle.standard
        #expect(standard.background.followsAppearance && standard.foreground.followsAppearance)
        // In the light appearance it looks as the old default (`.dark`) did.
        #expect(standard.background.resolved(in: .light) == ToolTipStyle.dark.background)
        #expect(standard.foreground.resolved(in: .light) == ToolTipStyle.dark.foreground)
        #expect(standard.background.resolved(in: .highContrastDark).withAlpha(1) == .black)
        #expect(!ToolTipStyle.dark.background.followsAppearance)
        #expect(!ToolTipStyle.light.foreground.followsAppearance)
    }

    // MARK: - Drawn

    /// A view with the default window background and a label-coloured square next to a view
    /// and a square of the program's own colours, drawn in `appearance`.
    static func draw(in appearance: Appearance) -> Image {
        Image(size: Size(width: 80, height: 20), appearance: appearance) { context in
            let themed = View(frame: Rect(x: 0, y: 0, width: 40, height: 20))
            themed.backgroundColor = .windowBackground
            let own = View(frame: Rect(x: 40, y: 0, width: 40, height: 20))
            own.backgroundColor = Color(rgb: 0xffcc00)
            themed.drawHierarchy(in: context)
            context.withTranslation(dx: 40, dy: 0, clippedTo: nil) { own.drawHierarchy(in: context) }
            context.fill(Rect(x: 10, y: 5, width: 10, height: 10), color: .label)
            context.fill(Rect(x: 50, y: 5, width: 10, height: 10), color: Color(rgb: 0x0000ff))
        }
    }

    @Test func aViewsOwnColourStaysItsOwn() {
        let light = Self.draw(in: .light)
        let dark = Self.draw(in: .dark)
        let contrast = Self.draw(in: .highContrastDark)
        // The named colours change with the appearance…
        #expect(RenderingTests.rgb(light, 2, 2) == 0xf2f2f7)
        #expect(RenderingTests.rgb(dark, 2, 2) == 0x1c1c1e)
        #expect(RenderingTests.rgb(contrast, 2, 2) == 0x000000)
        #expect(RenderingTests.rgb(light, 15, 10) == 0x1c1c1e)
        #expect(RenderingTests.rgb(dark, 15, 10) == 0xf2f2f7)
        #expect(RenderingTests.rgb(contrast, 15, 10) == 0xffffff)
        // … the program's own stay as they were set.
        for image in [light, dark, contrast] {
            #expect(RenderingTests.rgb(image, 42, 2) == 0xffcc00)
            #expect(RenderingTests.rgb(image, 55, 10) == 0x0000ff)
        }
    }

    @Test func aLabelsExplicitColourStaysAfterAChange() {
        let label = Label("Total", color: Color(rgb: 0x34c759))
        label.notifyAppearanceChange()
        #expect(label.textColor == Color(rgb: 0x34c759))
        let button = Button(title: "Buy")
        button.tint = Color(rgb: 0xffcc00)
        button.notifyAppearanceChange()
        #expect(button.tint == Color(rgb: 0xffcc00))
        #expect(Button.readableText(on: Color(rgb: 0xffcc00), in: .dark) == .black)
        #expect(Button.readableText(on: Color(rgb: 0x0a64d8), in: .light) == .white)
    }
}
