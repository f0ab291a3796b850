import Testing

@testable import X11UI

// The focus a window gives as it opens: the first view in Tab order, or the one the program
// names, without a focus ring until a key is pressed. A `Window` that is never shown holds
// the views; `focusInitially()` is what mapping calls.

@Suite @MainActor struct InitialFocusTests {
    @Test func theChoiceIsTheNamedViewWhenItTakesFocusElseTheFirst() {
        let (a, b, c) = (View(), View(), View())
        #expect(Window.initialFocusChoice(preferred: nil, focusable: [a, b]) === a)
        #expect(Window.initialFocusChoice(preferred: b, focusable: [a, b]) === b)
        #expect(Window.initialFocusChoice(preferred: c, focusable: [a, b]) === a, "c cannot take focus")
        #expect(Window.initialFocusChoice(preferred: c, focusable: [View]()) == nil)
    }

    @Test func aWindowOpensWithTheFirstViewInTabOrderFocusedAndNoRing() {
        let disabled = Button(title: "Disabled")
        disabled.isEnabled = false
        let buy = Button(title: "Buy")
        let cart = Button(title: "Cart")
        let window = Window(
            title: "Shop",
            content: VStack {
                Label("Shop"); disabled; buy; cart
            })
        #expect(window.focusedView == nil)
        window.focusInitially()
        #expect(window.focusedView === buy)
        #expect(!window.isFocusVisible, "the window's own focus is not keyboard navigation")
    }

    @Test func theNamedViewTakesTheInitialFocus() {
        let buy = Button(title: "Buy")
        let cart = Button(title: "Cart")
        let window = Window(
            title: "Shop",
            content: VStack {
                buy; cart
            })
        window.initialFocus = cart
        window.focusInitially()
        #expect(window.focusedView === cart)
        #expect(!window.isFocusVisible)
        // A named view that cannot take focus gives way to the first one.
        let other = Window(
            title: "Shop",
            content: VStack {
                Button(title: "Buy"); Button(title: "Cart")
            })
        let hidden = Button(title: "Hidden")
        hidden.isHidden = true
        other.content?.addSubview(hidden)
        other.initialFocus = hidden
        other.focusInitially()
        #expect(other.focusedView === other.focusableViews.first)
    }

    @Test func theFirstTabMovesOnFromTheInitialViewAsAfterAnyFocus() {
        let buy = Button(title: "Buy")
        let cart = Button(title: "Cart")
        let help = Button(title: "Help")
        let window = Window(
            title: "Shop",
            content: VStack {
                buy; cart; help
            })
        window.focusInitially()
        #expect(window.focusedView === buy && !window.isFocusVisible)
        window.focusNext()
        #expect(window.focusedView === cart, "a screen reader announced Buy with the window")
        #expect(window.isFocusVisible)
        // Shift-Tab from the initial focus goes to the previous view, wrapping to the last.
        let other = Window(
            title: "Shop",
            content: VStack {
                Button(title: "Buy"); Button(title: "Cart"); Button(title: "Help")
            })
        other.focusInitially()
        other.focusNext(backwards: true)
        #expect(other.focusedView === other.focusableViews.last)
        #expect(other.isFocusVisible)
        // With one view only, Tab stays on it and rings it.
        let single = Button(title: "OK")
        let alone = Window(
            title: "Note",
            content: VStack {
                Label("Done"); single
            })
        alone.focusInitially()
        alone.focusNext()
        #expect(alone.focusedView === single && alone.isFocusVisible)
    }

    @Test func aClickedViewAfterTheInitialFocusCountsForTab() {
        let buy = Button(title: "Buy")
        let cart = Button(title: "Cart")
        let window = Window(
            title: "Shop",
            content: VStack {
                buy; cart
            })
        window.focusInitially()
        window.focus(buy)  // a click on the focused view makes the focus the user's
        window.focusNext()
        #expect(window.focusedView === cart)
    }

    @Test func aViewTheProgramFocusedBeforeTheWindowOpenedKeepsTheFocus() {
        let buy = Button(title: "Buy")
        let cart = Button(title: "Cart")
        let window = Window(
            title: "Shop",
            content: VStack {
                buy; cart
            })
        window.focus(cart)
        window.focusInitially()
        #expect(window.focusedView === cart)
        #expect(window.focusableViews.isEmpty == false)
    }

    @Test func aWindowWithNothingToFocusHasNoFocus() {
        let window = Window(title: "Note", content: VStack { Label("Nothing to press") })
        window.focusInitially()
        #expect(window.focusedView == nil)
    }
}
