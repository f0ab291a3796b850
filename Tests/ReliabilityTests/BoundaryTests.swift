import CX11
import Foundation
import Testing
import X11TestSupport

@testable import X11UI

/// Issue 13 (3, 4, 5, 7, 8, 11): what a careless program hands the public API — NaN, infinite
/// and huge geometry, megabyte lines, deep trees, thousands of interactions, a huge resource
/// database — is made valid at the boundary and costs bounded time; the inspector stays JSON.
@Suite(.serialized)
@MainActor
struct BoundaryTests {
    // MARK: - Geometry (4, 7)

    @Test func nanInfiniteAndHugeGeometryIsClampedNotATrap() throws {
        let harness = try Harness()
        let app = harness.app
        for size in [
            Size(width: .nan, height: 100), Size(width: .infinity, height: .infinity), Size(width: 1e12, height: -5),
        ] {
            let window = Window(title: "odd size", size: size, content: Label("odd"), application: app)
            window.show()
            let shown = try #require(window.size)
            #expect(shown.width >= 1 && shown.width <= 8192 && shown.height >= 1 && shown.height <= 8192, "\(shown)")
            window.move(to: Point(x: .nan, y: .infinity))
            window.setFrame(Rect(x: 1e12, y: -1e12, width: .nan, height: 1e12))
            window.requestedPosition = Point(x: -.infinity, y: .nan)
            window.resize(to: Size(width: .nan, height: .infinity))
            harness.wait(10)
            window.close()
        }
        let label = Label("NaN width")
        label.preferredWidth = .nan
        let view = View(frame: Rect(x: .nan, y: 0, width: .infinity, height: -1))
        view.preferredSize = Size(width: .nan, height: .infinity)
        harness.show(
            VStack {
                label; view
            })
        harness.wait(20)
        #expect(label.frame.isFinite && view.frame.isFinite)
        #expect(view.frame.width <= 32767)
        #expect(!app.isConnectionLost)
    }

    /// A view whose measurement is not a number.
    final class NaNView: View {
        override func sizeThatFits(_ proposal: Size) -> Size { Size(width: .nan, height: .infinity) }
    }

    @Test func richContentOfNaNSizeAndANaNGapShowAClampedTooltip() throws {
        let harness = try Harness()
        let source = block(80, 30)
        var placement = ToolTipPlacement.top
        placement.gap = .nan
        #expect(placement.gap == 4)
        placement.gap = .infinity
        #expect(placement.gap == 64)
        var style = ToolTipStyle.dark
        style.maxWidth = .nan
        style.padding = EdgeInsets(all: .infinity)
        style.arrowSize = Size(width: .nan, height: -3)
        #expect(style.maxWidth == 360 && style.padding.top == 64 && style.arrowSize == Size(width: 14, height: 0))
        let interaction = ToolTipInteraction(trigger: .click, placement: placement) { NaNView() }
        interaction.style = style
        source.addInteraction(interaction)
        harness.show(VStack(padding: 80) { source })
        harness.click(at: harness.center(of: source))
        #expect(harness.run(until: { harness.app.toolTips.isShowing }))
        let frame = try #require(harness.app.toolTips.shownFrame)
        #expect(frame.isFinite && frame.width <= 32767 && frame.height <= 32767, "\(frame)")
        #expect(!harness.app.isConnectionLost)
    }

    @Test func theInitialWindowSizeIsClampedLikeResizeAt960Dpi() throws {
        let display = try InProcessDisplay(resources: "Xft.dpi: 960\n")
        #expect(display.app.scale == 10)
        let window = Window(title: "huge", size: Size(width: 1280, height: 800), application: display.app)
        #expect(window.size == Size(width: 8192, height: 8000))
        display.show(window)
        // Made to fit the screen it opens on (WindowSizeTests has the rest).
        let info = try #require(display.probe.info(window.windowID))
        #expect(info.frame.width <= 1280 && info.frame.height <= 800, "\(info)")
    }

    // MARK: - Text (3, 11)

    @Test func megabyteLinesAreDrawnClippedWithoutAProtocolError() throws {
        let harness = try Harness()
        let label = Label(String(repeating: "wide line ", count: 26_215))  // 256 KiB, one line
        label.wrapsText = false
        let button = Button(title: String(repeating: "B", count: 1 << 20)) {}
        harness.show(
            VStack(spacing: 4, padding: 4) {
                label; button
            }, size: Size(width: 400, height: 200))
        harness.wait(30)
        harness.probe.sync()
        #expect(!harness.app.isConnectionLost)
        #expect(harness.app.protocolErrorCount == 0)
        // The visible start of the line is drawn: dark text pixels on the left of the label.
        let frame = try #require(label.frameOnScreen)
        let ink = (Int(frame.minX)..<Int(frame.minX) + 60).filter { x in
            (Int(frame.minY)..<Int(frame.maxY)).contains { y in harness.probe.pixel(x, y) & 0xff < 0x80 }
        }
        #expect(ink.count > 10, "the label's visible text is drawn")
    }

    @Test func aTenMegabyteLabelLaysOutAndPaintsQuickly() throws {
        let harness = try Harness()
        let words = String(repeating: "lorem ipsum dolor sit amet ", count: 400_000)  // ~10.8 MB
        let wrapped = Label(words)
        let unwrapped = Label(words)
        unwrapped.wrapsText = false
        let start = ContinuousClock.now
        harness.show(
            HStack {
                wrapped; unwrapped
            }, size: Size(width: 800, height: 400))
        let elapsed = ContinuousClock.now - start
        // Release builds take a tenth of this debug build's bound; AddressSanitizer's checks on
        // every memory access make the same work about three times slower. Laid out whole, the
        // text took many times longer than either bound.
        let bound: Duration = Sanitizers.addressSanitizerActive ? .seconds(9) : .seconds(3)
        #expect(elapsed < bound, "the first turn took \(elapsed)")
        #expect(wrapped.frame.height <= 32767 && unwrapped.frame.width <= 32767)
        #expect(!harness.app.isConnectionLost && harness.app.protocolErrorCount == 0)
    }

    @Test func aHugeResourceDatabaseParsesInLinearTimeWithACap() {
        func database(lines: Int) -> String {
            (0..<lines).map { "app\($0)*widget.geometry: \($0)x\($0)+0+0\n" }.joined()
                + "X11UI*ToolTip.background: #123456\n"
        }
        let small = database(lines: 3_000)  // ~110 KB
        let large = database(lines: 36_000)  // ~1.3 MB: over the cap
        func parse(_ text: String) -> (XResources, Duration) {
            let start = ContinuousClock.now
            let resources = XResources(text, attributes: Application.resourceAttributes)
            _ = resources.string(
                names: ["demo", "toolTip", "background"], classes: ["X11UI", "ToolTip", "Background"])
            return (resources, ContinuousClock.now - start)
        }
        let (smallDatabase, smallTime) = parse(small)
        let (largeDatabase, largeTime) = parse(large)
        #expect(
            smallDatabase.string(
                names: ["demo", "toolTip", "background"], classes: ["X11UI", "ToolTip", "Background"])
                == "#123456")
        #expect(largeTime < .milliseconds(400), "1.3 MB took \(largeTime)")
        #expect(
            largeDatabase.string(
                names: ["demo", "toolTip", "background"], classes: ["X11UI", "ToolTip", "Background"]) == nil,
            "past the cap")
        #expect(largeTime < smallTime * 40, "linear: 12× the text took \(largeTime) against \(smallTime)")
        // Only the attributes asked for are kept, and nothing past the cap.
        #expect(largeDatabase.entries.isEmpty)
        let all = XResources(large)
        #expect(all.entries.count == XResources.maximumEntries, "\(all.entries.count) entries")
        #expect(
            all.string(names: ["app5", "widget", "geometry"], classes: ["App", "Widget", "Geometry"]) == "5x5+0+0")
    }

    @Test func aHugeResourceDatabaseDoesNotSlowTheStart() throws {
        let lines = (0..<36_000).map { "app\($0)*widget.geometry: \($0)x\($0)+0+0\n" }.joined()
        let start = ContinuousClock.now
        let display = try InProcessDisplay(resources: "Xft.dpi: 144\nXft.antialias: false\n" + lines)
        let window = Window(
            title: "resources", size: Size(width: 200, height: 100), content: Label("text"), application: display.app)
        display.show(window)
        let elapsed = ContinuousClock.now - start
        #expect(display.app.scale == 1.5)
        // Xft and cairo read their settings through Xlib, which parsed all 1.4 MB (1.6 s).
        #expect(elapsed < .seconds(1), "start with a 1.4 MB database took \(elapsed)")
        let antialias = XGetDefault(display.app.connection.display, "Xft", "antialias").map { String(cString: $0) }
        #expect(antialias == "false")
    }

    // MARK: - Depth and counts (5)

    @Test func deepTreesAreBoundedAndFast() throws {
        let harness = try Harness()
        let root = VStack()
        harness.show(root, size: Size(width: 200, height: 200))
        var innermost: View = root
        let start = ContinuousClock.now
        for _ in 0..<5_000 {
            let next = VStack(padding: 0)
            innermost.addSubview(next)
            if next.superview === innermost { innermost = next }
        }
        var depth = 0
        var ancestor: View? = innermost
        while let current = ancestor {
            depth += 1
            ancestor = current.superview
        }
        #expect(depth == View.maximumNestingDepth, "the tree stops at the nesting bound")
        let deep = block(20, 20, toolTip: "deep")
        innermost.superview?.addSubview(deep)
        harness.wait(10)
        harness.move(to: harness.center(of: deep))
        #expect(
            harness.run(until: { harness.app.toolTips.shownText == "deep" }), "hit testing reaches the deepest view")
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(3), "building, laying out and hit testing took \(elapsed)")
        #expect(!harness.app.isConnectionLost)
        // Wrapping a tree from below stops at the bound too.
        var tree = View()
        for _ in 0..<1_000 {
            let parent = View()
            parent.addSubview(tree)
            if tree.superview === parent { tree = parent }
        }
        var height = 1
        var level = tree
        while let child = level.subviews.first {
            height += 1
            level = child
        }
        #expect(height <= View.maximumNestingDepth)
        // A cycle is refused.
        let a = View()
        let b = View()
        a.addSubview(b)
        b.addSubview(a)
        #expect(a.superview == nil)
    }

    @Test func tenThousandInteractionsAttachQuickly() {
        let view = View()
        let interactions = (0..<10_000).map { ToolTipInteraction(defaultToolTip: "tip \($0)") }
        let start = ContinuousClock.now
        for interaction in interactions { view.addInteraction(interaction) }
        for interaction in interactions.prefix(100) { view.addInteraction(interaction) }  // already there
        let elapsed = ContinuousClock.now - start
        #expect(view.interactions.count == 10_000)
        #expect(elapsed < .milliseconds(500), "took \(elapsed)")
        view.removeInteraction(interactions[5])
        #expect(view.interactions.count == 9_999)
        view.addInteraction(interactions[5])
        #expect(view.interactions.count == 10_000)
    }

    // MARK: - Inspector (8)

    @Test func inspectorFramesAreAlwaysJSON() throws {
        let line = "{\"frame\":\(JSON.rect(Rect(x: .nan, y: .infinity, width: 200, height: -.infinity)))}"
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(parsed?["frame"] as? [Any?] != nil, "\(line)")
        #expect(line == "{\"frame\":[null,null,200,null]}")
    }
}

/// The inspector's `hidden` line when another client destroys the tooltip window (a program
/// of its own, so that the inspector file is its alone).
@Suite struct InspectorRaceTests {
    @Test func aTooltipWindowDestroyedByAnotherClientIsReportedHidden() throws {
        let server = try XvfbServer()
        let probe = try ServerProbe(display: server.display)
        let demo = try ProgramProcess("tooltip-demo", arguments: ["--scene", "sample"], display: server.display)
        let view = try #require(demo.waitForView("default-view"))
        for round in 0..<3 {
            probe.movePointer(to: view.midX, view.midY)
            #expect(wait(timeout: 5) { !probe.mappedPopups().isEmpty }, "round \(round): shown")
            guard let popup = probe.mappedPopups().first else { break }
            probe.destroy(popup.id)
            #expect(wait(timeout: 5) { demo.toolTipEvents.filter { $0.state == "hidden" }.count == round + 1 })
            probe.movePointer(to: 2, 2)
            #expect(wait(timeout: 2) { probe.mappedPopups().isEmpty })
        }
        let states = demo.toolTipEvents.map(\.state)
        #expect(states == ["shown", "hidden", "shown", "hidden", "shown", "hidden"], "\(states)")
    }
}
