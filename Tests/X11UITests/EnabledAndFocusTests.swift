import Testing

@testable import X11UI

// Pure tests of `isEnabled` and of which views take keyboard focus: no display, no
// `Application`; a `Window` that is never shown holds the views for the Tab order.

@Suite @MainActor struct EnabledAndFocusTests {
    @Test func disablingAContainerDisablesWhatIsInsideIt() {
        let button = Button(title: "Buy")
        let row = HStack { button }
        #expect(button.isEnabledInHierarchy)
        row.isEnabled = false
        #expect(button.isEnabled, "the button's own flag is left alone")
        #expect(!button.isEnabledInHierarchy)
        row.isEnabled = true
        #expect(button.isEnabledInHierarchy)
        // Moving a view into a disabled container disables it; out again enables it.
        let disabled = View()
        disabled.isEnabled = false
        disabled.addSubview(button)
        #expect(!button.isEnabledInHierarchy)
        row.addSubview(button)
        #expect(button.isEnabledInHierarchy)
    }

    @Test func aDisabledButtonRunsNoActionAndTakesNoPressOrKey() {
        var clicks = 0
        let button = Button(title: "Check Out") { clicks += 1 }
        button.isEnabled = false
        button.performClick()
        #expect(
            !button.keyPressed(ViewKeyEvent(key: .space, text: " ")))
        let press = ViewButtonEvent(button: .primary, location: Point(x: 5, y: 5), clickCount: 1, modifiers: [])
        #expect(!button.buttonPressed(press))
        #expect(!button.isPressed)
        #expect(clicks == 0)
        // Enabled again, the same calls click.
        button.isEnabled = true
        button.performClick()
        #expect(button.keyPressed(ViewKeyEvent(key: .space, text: " ")))
        #expect(clicks == 2)
    }

    @Test func aDisabledButtonShowsNoHoverStateUntilEnabledAgain() {
        let button = Button(title: "Check Out")
        button.isEnabled = false
        button.pointerEntered()
        #expect(!button.isHovered)
        button.isEnabled = true
        #expect(button.isHovered, "the pointer is still over it")
        button.pointerExited()
        #expect(!button.isHovered)
    }

    @Test func disablingAPressedButtonReleasesItWithoutAction() {
        var clicks = 0
        let button = Button(title: "Buy") { clicks += 1 }
        button.frame = Rect(x: 0, y: 0, width: 80, height: 30)
        let press = ViewButtonEvent(button: .primary, location: Point(x: 5, y: 5), clickCount: 1, modifiers: [])
        #expect(button.buttonPressed(press))
        #expect(button.isPressed)
        button.isEnabled = false
        #expect(!button.isPressed)
        button.buttonReleased(press)
        #expect(clicks == 0)
    }

    @Test func aClickTooltipMakesAnyViewFocusableAndAHoverTooltipDoesNot() {
        let icon = ImageView(nil, size: Size(width: 44, height: 44))
        let label = Label("Help")
        #expect(!icon.acceptsFocus && !label.acceptsFocus)
        label.toolTip = "A hover tooltip changes nothing."
        #expect(!label.acceptsFocus)
        let click = ToolTipInteraction(trigger: .click, defaultToolTip: "Home")
        icon.addInteraction(click)
        #expect(icon.acceptsFocus)
        #expect(!icon.drawsOwnFocusRing, "its superview draws the standard ring around it")
        click.isEnabled = false
        #expect(!icon.acceptsFocus, "a disabled tooltip makes no control")
        click.isEnabled = true
        icon.removeInteraction(click)
        #expect(!icon.acceptsFocus)
        #expect(Button(title: "B").drawsOwnFocusRing && TextView("t").drawsOwnFocusRing)
    }

    @Test func tabSkipsDisabledAndHiddenViewsAndVisitsClickTooltipViews() {
        let buy = Button(title: "Buy")
        let checkout = Button(title: "Check Out")
        let icon = ImageView(nil, size: Size(width: 44, height: 44))
        icon.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "Home"))
        let plain = Label("No tooltip")
        let korean = Label("툴팁")
        korean.addInteraction(ToolTipInteraction(trigger: .click, defaultToolTip: "도움말"))
        let hidden = Button(title: "Hidden")
        hidden.isHidden = true
        let disabledRow = HStack { Button(title: "Inside a disabled row") }
        disabledRow.isEnabled = false
        let window = Window(
            title: "Tab",
            content: VStack {
                buy; checkout; icon; plain; korean; hidden; disabledRow
            })
        checkout.isEnabled = false
        #expect(window.focusableViews.map { ObjectIdentifier($0) } == [buy, icon, korean].map { ObjectIdentifier($0) })
        checkout.isEnabled = true
        #expect(window.focusableViews.count == 4)
    }

    @Test func theStandardRingLiesOutsideTheView() {
        let icon = ImageView(nil, size: Size(width: 44, height: 44))
        icon.frame = Rect(x: 10, y: 10, width: 44, height: 44)
        let ring = icon.focusRingRect
        #expect(ring.minX < 0 && ring.minY < 0 && ring.maxX > 44 && ring.maxY > 44)
        #expect(ring.contains(Point(x: -3, y: 22)))
    }
}
