import Testing

@testable import X11UI

/// The full path of a tooltip's background resource in the demo.
private let names = ["tooltip-demo", "toolTip", "background"]
private let classes = ["X11UI", "ToolTip", "Background"]

private func lookup(_ text: String, _ names: [String] = names, _ classes: [String] = classes) -> String? {
    XResources(text).string(names: names, classes: classes)
}

@Suite struct TrimmingWhitespaceTests {
    @Test(arguments: [
        ("  120 ", "120"), ("\t\r\nDejaVu Sans\r\n", "DejaVu Sans"), ("", ""), (" \t\r\n ", ""),
        ("x", "x"), (" a b ", "a b"), (" 한국어 ", "한국어"), ("e\u{301} ", "e\u{301}"), (" 👍🏽", "👍🏽"),
        ("\u{00A0}x\u{00A0}", "\u{00A0}x\u{00A0}"),
    ])
    func leadingAndTrailingSpacesTabsAndNewlinesGo(text: String, trimmed: String) {
        #expect(text.trimmingWhitespace == trimmed)
        #expect(text.trimmingWhitespace.utf8.elementsEqual(trimmed.utf8))
    }
}

@Suite struct XResourcesTests {
    @Test func aPlainKeyIsFound() {
        let db = XResources("Xft.dpi: 120\nXft.antialias: 1\n")
        #expect(db.string("Xft.dpi") == "120")
        #expect(db.double("Xft.dpi") == 120)
        #expect(db.string("Xft.antialias") == "1")
        #expect(db.string("Xft.hinting") == nil)
        #expect(db.string("Xft.Dpi") == nil)
        #expect(db.string("Xft") == nil)
        #expect(db.string("Xft.dpi.more") == nil)
    }

    @Test func valuesAreTrimmedAndMayHoldColonsOrBeEmpty() {
        let db = XResources("  Xft.dpi :\t 96  \napp.url: http://example.com:80\napp.empty:\n")
        #expect(db.string("Xft.dpi") == "96")
        #expect(db.string("app.url") == "http://example.com:80")
        #expect(db.string("app.empty") == "")
        #expect(XResources("app.name: not a number").double("app.name") == nil)
    }

    @Test func aLooseBindingMatchesAnyNumberOfLevels() {
        #expect(lookup("*background: red") == "red")
        #expect(lookup("tooltip-demo*background: red") == "red")
        #expect(lookup("*toolTip*background: red") == "red")
        #expect(lookup("X11UI*Background: red") == "red")
        #expect(lookup("tooltip-demo.*background: red") == "red")
        // Zero levels too.
        #expect(lookup("tooltip-demo*toolTip.background: red") == "red")
    }

    @Test func aTightBindingMatchesExactlyTheNextLevel() {
        #expect(lookup("tooltip-demo.background: red") == nil)
        #expect(lookup("tooltip-demo.toolTip.background: red") == "red")
        #expect(lookup("toolTip.background: red") == nil)
        #expect(lookup("tooltip-demo.toolTip: red") == nil)
    }

    @Test func aQuestionMarkMatchesExactlyOneLevel() {
        #expect(lookup("tooltip-demo.?.background: red") == "red")
        #expect(lookup("?.?.background: red") == "red")
        #expect(lookup("tooltip-demo.?.?.background: red") == nil)
        #expect(lookup("?.background: red") == nil)
        #expect(lookup("?.?.?: red") == "red")
    }

    @Test func classesMatchLikeNames() {
        #expect(lookup("X11UI.ToolTip.Background: red") == "red")
        #expect(lookup("tooltip-demo.ToolTip.background: red") == "red")
    }

    /// The precedence rules of Xlib (XrmQGetResource), level by level from the left: a matching
    /// component beats a skipped one; a name beats a class beats `?`; a tight binding beats a
    /// loose one. Each pair is tried in both orders.
    @Test(arguments: [
        ("tooltip-demo.toolTip.background: win", "X11UI.ToolTip.Background: lose"),  // names beat classes
        ("tooltip-demo.ToolTip.background: win", "tooltip-demo.?.background: lose"),  // class beats ?
        ("tooltip-demo.?.background: win", "tooltip-demo*background: lose"),  // ? beats skipping
        ("tooltip-demo.toolTip.background: win", "tooltip-demo*toolTip.background: lose"),  // tight beats loose
        ("*toolTip.background: win", "*background: lose"),  // more specific wins
        ("tooltip-demo*background: win", "*toolTip.background: lose"),  // earlier levels weigh most
        ("tooltip-demo*Background: win", "*toolTip.background: lose"),
        ("*toolTip.background: win", "*ToolTip.background: lose"),
        ("*toolTip.background: win", "*toolTip.Background: lose"),
    ])
    func theMostSpecificEntryWins(winner: String, loser: String) {
        #expect(lookup("\(winner)\n\(loser)") == "win")
        #expect(lookup("\(loser)\n\(winner)") == "win")
    }

    /// As with `xrdb` and XrmGetStringDatabase, a later line for the same key replaces an
    /// earlier one (so that user settings appended after defaults take effect).
    @Test func aLaterEntryForTheSameKeyReplacesAnEarlierOne() {
        #expect(lookup("*background: red\n*background: blue") == "blue")
        #expect(XResources("Xft.dpi: 96\nXft.dpi: 144").string("Xft.dpi") == "144")
    }

    @Test func malformedLinesAreSkipped() {
        let text = """
            this line has no colon
            : a value without a key
            ! Xft.dpi: 1
            # Xft.dpi: 2
            #include "other"
            *: no components

            \t
            Xft.dpi: 96
            .: dots only
            """
        let db = XResources(text)
        #expect(db.string("Xft.dpi") == "96")
        #expect(db.entries.count == 1)
    }

    @Test func continuationLinesAreJoined() {
        let db = XResources("app.text: hello \\\nworld\napp.key\\\n.more: 1\nXft.dpi: 96")
        #expect(db.string("app.text") == "hello world")
        #expect(db.string("app.key.more") == "1")
        #expect(db.string("Xft.dpi") == "96")
    }

    @Test func hugeOrBinaryInputDoesNotCrash() {
        let long = String(repeating: "a", count: 5000)
        let db = XResources(
            "\(long): 1\napp.v: \(String(repeating: "v", count: 70_000))\n\u{0}\u{7f}:\u{1}\nXft.dpi: 96")
        #expect(db.string("Xft.dpi") == "96")
        #expect(db.string("app.v") == nil)
        #expect(XResources("").entries.isEmpty)
    }

    /// The tooltip attributes are kept when parsing by name (`toolTip.maxWidth`) and by class
    /// (`ToolTip.MaxWidth`), so each is listed in both spellings.
    @Test func everyToolTipAttributeIsKeptByNameAndByClass() {
        let attributes = ToolTipController.resourceAttributes
        #expect(attributes.count == 30)
        for attribute in attributes {
            let first = String(attribute.prefix(1))
            let other = (first == first.uppercased() ? first.lowercased() : first.uppercased()) + attribute.dropFirst()
            #expect(attributes.contains(other), "\(attribute) without \(other)")
        }
        let text = "*ToolTip.MaxWidth: 300\n*toolTip.initialDelay: 200\n*toolTip.other: 1"
        #expect(XResources(text, attributes: attributes).entries.count == 2)
    }
}

@Suite struct ColorParsingTests {
    @Test func threeDigitHexExpandsEachDigit() throws {
        let c = try #require(Color(parsing: "#123"))
        #expect(c == Color(red: 1.0 / 15, green: 2.0 / 15, blue: 3.0 / 15))
        #expect(Color(parsing: "#fff") == .white)
        #expect(Color(parsing: "#000") == .black)
        #expect(Color(parsing: "#f00") == Color(red: 1, green: 0, blue: 0))
    }

    @Test func sixDigitHexIsRGB() {
        #expect(Color(parsing: "#ff8000") == Color(red: 1, green: 128.0 / 255, blue: 0))
        #expect(Color(parsing: "#FFAA00") == Color(rgb: 0xffaa00))
        #expect(Color(parsing: "#34c759") == .green)
    }

    @Test func eightDigitHexCarriesAlpha() {
        #expect(Color(parsing: "#00000080") == Color(red: 0, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(Color(parsing: "#ffffffff") == .white)
        #expect(Color(parsing: "#ff000000")?.alpha == 0)
        #expect(Color(parsing: "#ff000000")?.red == 1)
    }

    @Test func namesAreCaseInsensitiveAndTrimmed() {
        #expect(Color(parsing: "white") == .white)
        #expect(Color(parsing: "Red") == .red)
        #expect(Color(parsing: "  YELLOW\n") == .yellow)
        #expect(Color(parsing: "grey") == .gray)
        #expect(Color(parsing: "gray") == .gray)
        #expect(Color(parsing: "transparent")?.alpha == 0)
        #expect(Color(parsing: "\t#fff ") == .white)
    }

    @Test(arguments: [
        "", " ", "#", "#f", "#ff", "#ffff", "#fffff", "#fffffff", "#fffffffff", "#ffffffffffffffffffff", "#ggg",
        "#12345z", "fff", "ffffff", "#-12", "#+ff", "# fff", "#ff ff", "notacolor", "#１２３", "rgb:ff/ff/ff",
        "0xffffff", "##fff", "#fff#", "é", "#\u{0}\u{0}\u{0}",
    ])
    func badInputGivesNil(text: String) {
        #expect(Color(parsing: text) == nil)
    }

    @Test func componentsAreClampedAndNaNIsZero() {
        let c = Color(red: 2, green: -1, blue: .nan, alpha: 7)
        #expect(c.red == 1 && c.green == 0 && c.blue == 0 && c.alpha == 1)
        #expect(Color.white.x16.red == 65535 && Color.black.x16.blue == 0)
        #expect(Color.red.withAlpha(0.5).alpha == 0.5)
        #expect(Color.black.mixed(with: .white, amount: 0.5) == Color(red: 0.5, green: 0.5, blue: 0.5))
        #expect(Color.black.mixed(with: .white, amount: 3) == .white)
        #expect(Color.black.mixed(with: .white, amount: -3) == .black)
    }
}

@Suite struct RectGeometryTests {
    let r = Rect(x: 10, y: 20, width: 30, height: 40)

    @Test func containsPointIncludesTheTopLeftEdgesOnly() {
        #expect(r.contains(Point(x: 10, y: 20)))
        #expect(r.contains(Point(x: 39.999, y: 59.999)))
        #expect(!r.contains(Point(x: 40, y: 30)))
        #expect(!r.contains(Point(x: 20, y: 60)))
        #expect(!r.contains(Point(x: 9.999, y: 30)))
        #expect(!r.contains(Point(x: .nan, y: 30)))
        #expect(!Rect(x: 5, y: 5, width: 0, height: 0).contains(Point(x: 5, y: 5)))
        // Adjacent rectangles never both contain a point.
        let right = Rect(x: 40, y: 20, width: 30, height: 40)
        for x in stride(from: 35.0, through: 45, by: 0.5) {
            let p = Point(x: x, y: 30)
            #expect(!(r.contains(p) && right.contains(p)))
            #expect(r.contains(p) || right.contains(p))
        }
    }

    @Test func containsRectIncludesAllEdges() {
        #expect(r.contains(r))
        #expect(r.contains(Rect(x: 10, y: 20, width: 0, height: 0)))
        #expect(r.contains(Rect(x: 40, y: 60, width: 0, height: 0)))
        #expect(!r.contains(Rect(x: 10, y: 20, width: 30.5, height: 40)))
        #expect(!r.contains(Rect(x: 9, y: 20, width: 5, height: 5)))
        #expect(!r.contains(Rect(x: .nan, y: 20, width: 5, height: 5)))
    }

    @Test func intersection() {
        #expect(
            r.intersection(Rect(x: 30, y: 50, width: 100, height: 100)) == Rect(x: 30, y: 50, width: 10, height: 10))
        #expect(r.intersection(r) == r)
        #expect(r.intersection(Rect(x: 0, y: 0, width: 100, height: 100)) == r)
        let touching = r.intersection(Rect(x: 40, y: 20, width: 10, height: 10))
        #expect(touching.isEmpty && touching.width == 0 && touching.height == 0)
        #expect(!r.intersects(Rect(x: 40, y: 20, width: 10, height: 10)))
        #expect(r.intersects(Rect(x: 39, y: 59, width: 10, height: 10)))
        #expect(r.intersection(Rect(x: 500, y: 500, width: 1, height: 1)).isEmpty)
        #expect(r.intersection(.zero).isEmpty)
        let a = Rect(x: 0, y: 0, width: 25, height: 30)
        #expect(r.intersection(a) == a.intersection(r))
    }

    @Test func union() {
        #expect(r.union(Rect(x: 100, y: 0, width: 10, height: 10)) == Rect(x: 10, y: 0, width: 100, height: 60))
        #expect(r.union(r) == r)
        #expect(r.union(.zero) == r)
        #expect(Rect.zero.union(r) == r)
        #expect(r.union(Rect(x: 500, y: 500, width: 0, height: 10)) == r)
        #expect(r.union(Rect(x: 500, y: 500, width: -5, height: 10)) == r)
        let a = Rect(x: -5, y: 3, width: 2, height: 2)
        #expect(r.union(a) == a.union(r))
        #expect(r.union(a).contains(r) && r.union(a).contains(a))
    }

    @Test func emptinessAndFiniteness() {
        #expect(Rect.zero.isEmpty)
        #expect(Rect(x: 0, y: 0, width: 10, height: 0).isEmpty)
        #expect(Rect(x: 0, y: 0, width: -10, height: 10).isEmpty)
        #expect(Rect(x: 0, y: 0, width: .nan, height: 10).isEmpty)
        #expect(!Rect(x: 0, y: 0, width: 0.1, height: 0.1).isEmpty)
        #expect(r.isFinite)
        #expect(!Rect(x: .infinity, y: 0, width: 1, height: 1).isFinite)
        #expect(!Rect(x: 0, y: 0, width: .nan, height: 1).isFinite)
        #expect(!Point(x: 0, y: -.infinity).isFinite && Point.zero.isFinite)
    }

    @Test func derivedRectangles() {
        #expect(r.center == Point(x: 25, y: 40))
        #expect(r.maxX == 40 && r.maxY == 60 && r.midX == 25 && r.midY == 40)
        #expect(r.offsetBy(dx: -10, dy: 5) == Rect(x: 0, y: 25, width: 30, height: 40))
        #expect(r.insetBy(dx: 5, dy: 10) == Rect(x: 15, y: 30, width: 20, height: 20))
        #expect(r.insetBy(dx: -5, dy: -5) == Rect(x: 5, y: 15, width: 40, height: 50))
        let insets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(r.inset(by: insets) == Rect(x: 12, y: 21, width: 24, height: 36))
        #expect(insets.horizontal == 6 && insets.vertical == 4)
        #expect(insets.scaled(by: 2) == EdgeInsets(top: 2, left: 4, bottom: 6, right: 8))
        #expect(EdgeInsets(horizontal: 3, vertical: 7) == EdgeInsets(top: 7, left: 3, bottom: 7, right: 3))
    }

    @Test func integralCoversTheRectOnWholePixels() {
        #expect(Rect(x: 0.5, y: 0.5, width: 1, height: 1).integral == Rect(x: 0, y: 0, width: 2, height: 2))
        #expect(Rect(x: -0.5, y: -1.25, width: 1, height: 1.25).integral == Rect(x: -1, y: -2, width: 2, height: 2))
        #expect(r.integral == r)
        let odd = Rect(x: 3.3, y: 4.7, width: 10.1, height: 0.2)
        #expect(odd.integral.contains(odd))
    }

    @Test func descriptionsAreCompact() {
        #expect(Rect(x: 1, y: 2, width: 3.5, height: 4).description == "[1, 2, 3.5, 4]")
        #expect(Point(x: -1, y: 0.25).description == "(-1, 0.25)")
        #expect(Size(width: 3, height: 4).description == "3×4")
    }
}
