import Testing
import X11TestSupport

@testable import X11UI

// Pure tests of stack layout and hit testing: no display, no `Application`, no `Window`. Out of a
// window a view's `scale` is 1, so 96 dpi pixels are pixels.

/// A plain view that takes a fixed size, as a colour swatch would.
@MainActor
private func box(_ width: Double, _ height: Double) -> View {
    let view = View()
    view.preferredSize = Size(width: width, height: height)
    return view
}

/// A plain view placed at a frame.
@MainActor
private func placed(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> View {
    View(frame: Rect(x: x, y: y, width: width, height: height))
}

/// Sizes `stack` (to its ideal size unless told otherwise) and lays it out, subviews included.
@MainActor
@discardableResult
private func layOut<S: Stack>(_ stack: S, width: Double? = nil, height: Double? = nil) -> S {
    let ideal = stack.idealSize
    stack.frame = Rect(x: 0, y: 0, width: width ?? ideal.width, height: height ?? ideal.height)
    stack.layoutIfNeeded()
    return stack
}

/// The frames of a view's subviews, back to front.
@MainActor
private func frames(_ view: View) -> [Rect] {
    view.subviews.map(\.frame)
}

/// What a hit test should answer, written out independently of `View.hitTest` and `HitIndex`:
/// a hidden view is never hit; a view holds the points of its half-open bounds (left and top
/// edges in, right and bottom edges out); among subviews the front-most (last) one that is hit
/// wins, and the deepest view under the point is the answer.
@MainActor
private func referenceHit(_ view: View, _ point: Point) -> View? {
    guard !view.isHidden, point.x >= 0, point.y >= 0, point.x < view.frame.width, point.y < view.frame.height
    else { return nil }
    for subview in view.subviews.reversed() {
        let local = Point(x: point.x - subview.frame.minX, y: point.y - subview.frame.minY)
        if let hit = referenceHit(subview, local) { return hit }
    }
    return view
}

/// The first few points where `view.hitTest` and `referenceHit` disagree, tried on every step
/// of a grid over the view that runs one step past each edge.
@MainActor
private func disagreements(in view: View, step: Double) -> [Point] {
    var points: [Point] = []
    for y in stride(from: -step, through: view.frame.height + step, by: step) {
        for x in stride(from: -step, through: view.frame.width + step, by: step) {
            let point = Point(x: x, y: y)
            if view.hitTest(point) !== referenceHit(view, point) { points.append(point) }
            if points.count == 10 { return points }
        }
    }
    return points
}

/// Groups the layout and hit-testing suites under one name (`--filter LayoutAndHitTesting`).
@Suite enum LayoutAndHitTestingTests {}

extension LayoutAndHitTestingTests {
    /// A stack's ideal size: children's fixed sizes summed along the axis with the spacing
    /// between them, the largest across it, plus padding, rounded up to whole pixels.
    @MainActor
    @Suite struct StackIdealSize {
        @Test func anHStackAddsWidthsAndSpacingAndTakesTheTallestChild() {
            let stack = HStack(spacing: 10) {
                box(30, 20)
                box(40, 50)
                box(20, 10)
            }
            #expect(stack.scale == 1)
            #expect(stack.idealSize == Size(width: 30 + 40 + 20 + 2 * 10, height: 50))
        }

        @Test func aVStackAddsHeightsAndSpacingAndTakesTheWidestChild() {
            let stack = VStack(spacing: 10) {
                box(20, 30)
                box(50, 40)
                box(10, 20)
            }
            #expect(stack.idealSize == Size(width: 50, height: 30 + 40 + 20 + 2 * 10))
        }

        @Test func theDefaultSpacingIsEightPixels() {
            #expect(
                HStack {
                    box(10, 10)
                    box(10, 10)
                    box(10, 10)
                }.idealSize == Size(width: 46, height: 10))
            #expect(
                VStack {
                    box(10, 10)
                    box(10, 10)
                }.idealSize == Size(width: 10, height: 28))
        }

        @Test func aSingleChildHasNoSpacing() {
            #expect(HStack(spacing: 100) { box(30, 20) }.idealSize == Size(width: 30, height: 20))
        }

        @Test func paddingAddsToBothAxes() {
            let padding = EdgeInsets(top: 1, left: 2, bottom: 3, right: 5)
            let row = HStack(spacing: 4, padding: padding) {
                box(10, 10)
                box(20, 6)
            }
            #expect(row.idealSize == Size(width: 2 + 10 + 4 + 20 + 5, height: 1 + 10 + 3))
            let column = VStack(spacing: 4, padding: padding) {
                box(10, 10)
                box(6, 20)
            }
            #expect(column.idealSize == Size(width: 2 + 10 + 5, height: 1 + 10 + 4 + 20 + 3))
            #expect(HStack(padding: 6) { box(10, 10) }.idealSize == Size(width: 22, height: 22))
        }

        @Test func anEmptyStackIsJustItsPadding() {
            let padding = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
            #expect(HStack(spacing: 50, padding: padding).idealSize == Size(width: 6, height: 4))
            #expect(VStack(spacing: 50, padding: padding).idealSize == Size(width: 6, height: 4))
            #expect(HStack().idealSize == .zero)
        }

        @Test func fractionalSizesRoundUpToWholePixels() {
            #expect(
                HStack(spacing: 0) {
                    box(10.2, 5.1)
                    box(10.2, 5)
                }.idealSize == Size(width: 21, height: 6))
            #expect(HStack(padding: 0.25) { box(10, 10) }.idealSize == Size(width: 11, height: 11))
            #expect(
                VStack(spacing: 0.5) {
                    box(3, 3)
                    box(3, 3)
                }.idealSize == Size(width: 3, height: 7))
        }

        @Test func hiddenChildrenTakeNoSpaceAndNoSpacing() {
            let hidden = box(40, 99)
            hidden.isHidden = true
            let stack = HStack(spacing: 10) {
                box(30, 20)
                hidden
                box(20, 10)
            }
            #expect(stack.idealSize == Size(width: 30 + 10 + 20, height: 20))
            hidden.isHidden = false
            #expect(stack.idealSize == Size(width: 30 + 40 + 20 + 2 * 10, height: 99))
        }

        @Test func aStackOfOnlyHiddenChildrenIsJustItsPadding() {
            let a = box(10, 10)
            let b = box(20, 20)
            a.isHidden = true
            b.isHidden = true
            #expect(
                VStack(spacing: 8, padding: 3) {
                    a
                    b
                }.idealSize == Size(width: 6, height: 6))
        }

        @Test func theIdealSizeFollowsChangesToTheChildren() {
            let child = box(30, 20)
            let stack = HStack(spacing: 10) { child }
            #expect(stack.idealSize == Size(width: 30, height: 20))
            child.preferredSize = Size(width: 35, height: 25)
            #expect(stack.idealSize == Size(width: 35, height: 25))
            stack.addSubview(box(5, 40))
            #expect(stack.idealSize == Size(width: 50, height: 40))
            stack.spacing = 1
            #expect(stack.idealSize == Size(width: 41, height: 40))
            stack.padding = EdgeInsets(horizontal: 2, vertical: 3)
            #expect(stack.idealSize == Size(width: 45, height: 46))
            child.removeFromSuperview()
            #expect(stack.idealSize == Size(width: 9, height: 46))
        }

        @Test func shapeViewsMeasureTheirOwnSize() {
            let circle = Circle(color: .green, diameter: 10)
            let rectangle = RoundedRectangle(color: .red, size: Size(width: 40, height: 24))
            #expect(circle.idealSize == Size(width: 10, height: 10))
            #expect(rectangle.idealSize == Size(width: 40, height: 24))
            let stack = HStack(spacing: 6) {
                circle
                rectangle
            }
            #expect(stack.idealSize == Size(width: 56, height: 24))
            circle.diameter = 30
            #expect(stack.idealSize == Size(width: 76, height: 30))
            rectangle.size96 = Size(width: 4, height: 2)
            #expect(stack.idealSize == Size(width: 40, height: 30))
        }

        @Test func aViewWithNoPreferredSizeMeasuresAsItsFrame() {
            let view = placed(100, 100, 25, 15)
            #expect(view.idealSize == Size(width: 25, height: 15))
            #expect(
                VStack(spacing: 0) {
                    view
                    box(10, 10)
                }.idealSize == Size(width: 25, height: 25))
        }

        /// `Spacer.minLength` is "the least length the spacer takes", along the stack's axis
        /// only: it sets no floor on the stack's thickness across the axis.
        @Test
        func aSpacersMinimumLengthDoesNotWidenTheStackAcrossItsAxis() {
            #expect(
                HStack(spacing: 0) {
                    box(10, 10)
                    Spacer(minLength: 40)
                }.idealSize == Size(width: 50, height: 10))
            #expect(
                VStack(spacing: 0) {
                    box(10, 10)
                    Spacer(minLength: 40)
                }.idealSize == Size(width: 10, height: 50))
        }
    }

    /// Where a stack puts its children: in order from the padding's edge, `spacing` apart, at
    /// their ideal lengths, and placed across the axis by the alignment.
    @MainActor
    @Suite struct StackArrangement {
        @Test func anHStackPlacesChildrenLeftToRightWithSpacing() {
            let stack = layOut(
                HStack(spacing: 10, alignment: .start) {
                    box(30, 20)
                    box(40, 50)
                    box(20, 10)
                })
            #expect(stack.frame == Rect(x: 0, y: 0, width: 110, height: 50))
            #expect(
                frames(stack) == [
                    Rect(x: 0, y: 0, width: 30, height: 20),
                    Rect(x: 40, y: 0, width: 40, height: 50),
                    Rect(x: 90, y: 0, width: 20, height: 10),
                ])
        }

        @Test func aVStackPlacesChildrenTopToBottomWithSpacing() {
            let stack = layOut(
                VStack(spacing: 10, alignment: .start) {
                    box(20, 30)
                    box(50, 40)
                    box(10, 20)
                })
            #expect(stack.frame == Rect(x: 0, y: 0, width: 50, height: 110))
            #expect(
                frames(stack) == [
                    Rect(x: 0, y: 0, width: 20, height: 30),
                    Rect(x: 0, y: 40, width: 50, height: 40),
                    Rect(x: 0, y: 90, width: 10, height: 20),
                ])
        }

        @Test func theDefaultAlignmentIsCentre() {
            let stack = layOut(
                HStack {
                    box(10, 10)
                    box(10, 30)
                })
            #expect(stack.alignment == .center && stack.spacing == 8 && stack.padding == .zero)
            #expect(
                frames(stack) == [Rect(x: 0, y: 10, width: 10, height: 10), Rect(x: 18, y: 0, width: 10, height: 30)])
        }

        /// Children 21, 50 and 10 px thick in a stack 50 px thick: centring rounds the offset
        /// down ((50 − 21) / 2 = 14.5 → 14).
        @Test(arguments: [
            (StackAlignment.start, [0.0, 0, 0], [21.0, 50, 10]),
            (.center, [14, 0, 20], [21, 50, 10]),
            (.end, [29, 0, 40], [21, 50, 10]),
            (.fill, [0, 0, 0], [50, 50, 50]),
        ])
        func anHStackAlignsChildrenVertically(alignment: StackAlignment, ys: [Double], heights: [Double]) {
            let stack = layOut(
                HStack(spacing: 10, alignment: alignment) {
                    box(30, 21)
                    box(40, 50)
                    box(20, 10)
                })
            #expect(stack.frame.size == Size(width: 110, height: 50))
            #expect(frames(stack).map(\.minX) == [0, 40, 90])
            #expect(frames(stack).map(\.width) == [30, 40, 20])
            #expect(frames(stack).map(\.minY) == ys)
            #expect(frames(stack).map(\.height) == heights)
        }

        @Test(arguments: [
            (StackAlignment.start, [0.0, 0, 0], [21.0, 50, 10]),
            (.center, [14, 0, 20], [21, 50, 10]),
            (.end, [29, 0, 40], [21, 50, 10]),
            (.fill, [0, 0, 0], [50, 50, 50]),
        ])
        func aVStackAlignsChildrenHorizontally(alignment: StackAlignment, xs: [Double], widths: [Double]) {
            let stack = layOut(
                VStack(spacing: 10, alignment: alignment) {
                    box(21, 30)
                    box(50, 40)
                    box(10, 20)
                })
            #expect(stack.frame.size == Size(width: 50, height: 110))
            #expect(frames(stack).map(\.minY) == [0, 40, 90])
            #expect(frames(stack).map(\.height) == [30, 40, 20])
            #expect(frames(stack).map(\.minX) == xs)
            #expect(frames(stack).map(\.width) == widths)
        }

        /// In a 60 px tall row: (60 − 21) / 2 = 19.5 → 19, (60 − 50) / 2 = 5, (60 − 10) / 2 = 25.
        @Test(arguments: [
            (StackAlignment.start, [0.0, 0, 0], [21.0, 50, 10]),
            (.center, [19, 5, 25], [21, 50, 10]),
            (.end, [39, 10, 50], [21, 50, 10]),
            (.fill, [0, 0, 0], [60, 60, 60]),
        ])
        func extraRoomAcrossTheAxisGoesWhereTheAlignmentSays(
            alignment: StackAlignment, ys: [Double], heights: [Double]
        ) {
            let stack = layOut(
                HStack(spacing: 10, alignment: alignment) {
                    box(30, 21)
                    box(40, 50)
                    box(20, 10)
                }, height: 60)
            #expect(frames(stack).map(\.minY) == ys)
            #expect(frames(stack).map(\.height) == heights)
        }

        @Test func paddingInsetsTheChildrenOnEverySide() {
            let padding = EdgeInsets(top: 1, left: 2, bottom: 3, right: 5)
            let row = layOut(
                HStack(spacing: 4, alignment: .end, padding: padding) {
                    box(10, 10)
                    box(20, 6)
                })
            #expect(row.frame.size == Size(width: 41, height: 14))
            #expect(frames(row) == [Rect(x: 2, y: 1, width: 10, height: 10), Rect(x: 16, y: 5, width: 20, height: 6)])
            // In a bigger frame the bottom padding still holds the children off the bottom edge.
            layOut(row, width: 100, height: 40)
            #expect(
                frames(row) == [Rect(x: 2, y: 27, width: 10, height: 10), Rect(x: 16, y: 31, width: 20, height: 6)])

            let column = layOut(
                VStack(spacing: 4, alignment: .end, padding: padding) {
                    box(10, 10)
                    box(6, 20)
                })
            #expect(column.frame.size == Size(width: 17, height: 38))
            #expect(
                frames(column) == [Rect(x: 2, y: 1, width: 10, height: 10), Rect(x: 6, y: 15, width: 6, height: 20)])
            layOut(column, width: 40, height: 100)
            #expect(
                frames(column) == [Rect(x: 25, y: 1, width: 10, height: 10), Rect(x: 29, y: 15, width: 6, height: 20)])
        }

        @Test func fillStretchesChildrenToTheInsideOfThePadding() {
            let stack = layOut(
                VStack(spacing: 2, alignment: .fill, padding: EdgeInsets(horizontal: 7, vertical: 3)) {
                    box(10, 10)
                    box(30, 5)
                }, width: 100)
            #expect(
                frames(stack) == [Rect(x: 7, y: 3, width: 86, height: 10), Rect(x: 7, y: 15, width: 86, height: 5)])
        }

        @Test func moreRoomAlongTheAxisIsLeftEmptyAtTheEnd() {
            let stack = layOut(
                HStack(spacing: 10, alignment: .start) {
                    box(30, 20)
                    box(40, 20)
                }, width: 300)
            #expect(
                frames(stack) == [Rect(x: 0, y: 0, width: 30, height: 20), Rect(x: 40, y: 0, width: 40, height: 20)])
        }

        /// Nothing shrinks along the axis: the children keep their ideal lengths and run past
        /// the end. Across the axis a child is cut to the stack's thickness.
        @Test(arguments: [
            (StackAlignment.start, [0.0, 0]),
            (.center, [5, 0]),
            (.end, [10, 0]),
        ])
        func lessRoomThanIdealOverflowsAlongTheAxisAndClampsAcrossIt(alignment: StackAlignment, ys: [Double]) {
            let stack = layOut(
                HStack(spacing: 10, alignment: alignment) {
                    box(30, 20)
                    box(40, 50)
                }, width: 50, height: 30)
            #expect(frames(stack).map(\.minX) == [0, 40])
            #expect(frames(stack).map(\.width) == [30, 40])
            #expect(frames(stack).map(\.minY) == ys)
            #expect(frames(stack).map(\.height) == [20, 30])
            #expect(stack.subviews[1].frame.maxX == 80)
        }

        @Test func lessRoomThanIdealOverflowsAVStackAtTheBottom() {
            let stack = layOut(
                VStack(spacing: 5, alignment: .fill) {
                    box(30, 20)
                    box(40, 50)
                }, width: 35, height: 40)
            #expect(
                frames(stack) == [Rect(x: 0, y: 0, width: 35, height: 20), Rect(x: 0, y: 25, width: 35, height: 50)])
        }

        @Test func hiddenChildrenAreSkippedAndTheRestCloseUp() {
            let a = box(30, 20)
            let b = box(40, 99)
            let c = box(20, 10)
            b.isHidden = true
            let stack = layOut(
                HStack(spacing: 10, alignment: .start) {
                    a
                    b
                    c
                })
            #expect(stack.frame.size == Size(width: 60, height: 20))
            #expect(a.frame == Rect(x: 0, y: 0, width: 30, height: 20))
            #expect(c.frame == Rect(x: 40, y: 0, width: 20, height: 10))

            b.isHidden = false
            layOut(stack)
            #expect(stack.frame.size == Size(width: 110, height: 99))
            #expect(
                frames(stack) == [
                    Rect(x: 0, y: 0, width: 30, height: 20), Rect(x: 40, y: 0, width: 40, height: 99),
                    Rect(x: 90, y: 0, width: 20, height: 10),
                ])

            // Hiding asks for layout again: the next pass closes the gap even in the same frame.
            b.isHidden = true
            stack.layoutIfNeeded()
            #expect(a.frame == Rect(x: 0, y: 0, width: 30, height: 20))
            #expect(c.frame == Rect(x: 40, y: 0, width: 20, height: 10))
        }

        @Test func changingAChildsSizeLaysTheStackOutAgain() {
            let first = box(30, 20)
            let second = box(20, 20)
            let stack = layOut(
                HStack(spacing: 10, alignment: .start) {
                    first
                    second
                }, width: 200)
            #expect(second.frame.minX == 40)
            first.preferredSize = Size(width: 50, height: 20)
            stack.layoutIfNeeded()
            #expect(second.frame == Rect(x: 60, y: 0, width: 20, height: 20))
            stack.spacing = 0
            stack.layoutIfNeeded()
            #expect(second.frame == Rect(x: 50, y: 0, width: 20, height: 20))
            stack.alignment = .end
            stack.layoutIfNeeded()
            #expect(second.frame == Rect(x: 50, y: 0, width: 20, height: 20))
            stack.frame.size.height = 50
            stack.layoutIfNeeded()
            #expect(second.frame == Rect(x: 50, y: 30, width: 20, height: 20))
        }

        @Test func shapeViewsAreLaidOutAtTheirOwnSize() {
            let stack = layOut(
                HStack(spacing: 6) {
                    Circle(color: .green, diameter: 10)
                    RoundedRectangle(color: .red, size: Size(width: 40, height: 24))
                })
            #expect(
                frames(stack) == [Rect(x: 0, y: 7, width: 10, height: 10), Rect(x: 16, y: 0, width: 40, height: 24)])
        }

        /// Edges are rounded, not each length, so half pixels do not add up: three 22.5 px
        /// children (an ideal width of ⌈67.5⌉ = 68) end at 68, not 3 × 23 = 69.
        @Test
        func childrenLaidOutAtTheIdealSizeStayInsideTheStack() {
            let stack = layOut(
                HStack(spacing: 0, alignment: .start) {
                    box(22.5, 10)
                    box(22.5, 10)
                    box(22.5, 10)
                })
            #expect(stack.frame.width == 68)
            #expect(stack.subviews.allSatisfy { $0.frame.maxX <= stack.frame.width })
            // Two spacers sharing 11 px get 5.5 each, both rounded up to 6.
            let spaced = layOut(
                HStack(spacing: 0) {
                    Spacer()
                    box(9, 10)
                    Spacer()
                }, width: 20)
            #expect(spaced.subviews.map(\.frame.width).reduce(0, +) == 20)
            #expect(spaced.subviews.last!.frame.maxX == 20)
        }
    }

    /// `Spacer`s and views that fill the available space share the room a stack has left along
    /// its axis; given no room to spare, a spacer keeps its minimum length.
    @MainActor
    @Suite struct StackSpacers {
        @Test func aSpacerPushesTheRestToTheFarEnd() {
            let spacer = Spacer()
            let stack = layOut(
                HStack(spacing: 0, alignment: .start) {
                    box(30, 10)
                    spacer
                    box(20, 10)
                }, width: 200)
            #expect(stack.idealSize == Size(width: 50, height: 10))
            #expect(
                frames(stack) == [
                    Rect(x: 0, y: 0, width: 30, height: 10),
                    Rect(x: 30, y: 0, width: 150, height: 0),
                    Rect(x: 180, y: 0, width: 20, height: 10),
                ])
        }

        @Test func aSpacerIsSpacedLikeAnyOtherChild() {
            let stack = layOut(
                HStack(spacing: 10, alignment: .start) {
                    box(30, 10)
                    Spacer()
                    box(20, 10)
                }, width: 200)
            #expect(stack.idealSize == Size(width: 70, height: 10))
            #expect(frames(stack).map(\.minX) == [0, 40, 180])
            #expect(frames(stack).map(\.width) == [30, 130, 20])
        }

        @Test func spacersShareTheRoomEqually() {
            let stack = layOut(
                HStack(spacing: 0) {
                    Spacer()
                    box(30, 10)
                    Spacer()
                }, width: 130)
            #expect(frames(stack).map(\.minX) == [0, 50, 80])
            #expect(frames(stack).map(\.width) == [50, 30, 50])
        }

        @Test func aSpacerInAVStackPushesDownward() {
            let stack = layOut(
                VStack(spacing: 5, alignment: .fill) {
                    box(10, 20)
                    Spacer()
                    box(10, 30)
                }, width: 40, height: 200)
            #expect(
                frames(stack) == [
                    Rect(x: 0, y: 0, width: 40, height: 20),
                    Rect(x: 0, y: 25, width: 40, height: 140),
                    Rect(x: 0, y: 170, width: 40, height: 30),
                ])
        }

        @Test func aViewThatFillsAvailableSpaceSharesWithSpacers() {
            let filler = box(40, 10)
            filler.fillsAvailableSpace = true
            let stack = layOut(
                HStack(spacing: 0, alignment: .start) {
                    box(30, 10)
                    filler
                    Spacer()
                }, width: 200)
            // 200 − (30 + 40 + 0) = 130 left: 65 each, on top of the filler's own 40.
            #expect(
                frames(stack) == [
                    Rect(x: 0, y: 0, width: 30, height: 10),
                    Rect(x: 30, y: 0, width: 105, height: 10),
                    Rect(x: 135, y: 0, width: 65, height: 0),
                ])
        }

        @Test func spacersGetNothingWithoutRoomToSpare() {
            let filler = box(40, 10)
            filler.fillsAvailableSpace = true
            let exact = layOut(
                HStack(spacing: 0, alignment: .start) {
                    box(30, 10)
                    Spacer()
                    filler
                })
            #expect(exact.frame.width == 70)
            #expect(frames(exact).map(\.width) == [30, 0, 40])
            let tight = layOut(
                HStack(spacing: 0, alignment: .start) {
                    box(30, 10)
                    Spacer(minLength: 20)
                    box(20, 10)
                }, width: 60, height: 10)
            #expect(tight.idealSize.width == 70)
            #expect(
                frames(tight) == [
                    Rect(x: 0, y: 0, width: 30, height: 10),
                    Rect(x: 30, y: 0, width: 20, height: 0),  // a spacer has no thickness of its own
                    Rect(x: 50, y: 0, width: 20, height: 10),
                ])
        }

        @Test func aHiddenSpacerTakesNoShare() {
            let hidden = Spacer()
            hidden.isHidden = true
            let stack = layOut(
                HStack(spacing: 0, alignment: .start) {
                    box(30, 10)
                    hidden
                    Spacer()
                    box(20, 10)
                }, width: 200)
            #expect(stack.subviews[2].frame == Rect(x: 30, y: 0, width: 150, height: 0))
            #expect(stack.subviews[3].frame == Rect(x: 180, y: 0, width: 20, height: 10))
        }
    }

    /// Stacks inside stacks: the inner stack is measured by its ideal size, placed like any
    /// child, then lays out its own children in its own coordinates.
    @MainActor
    @Suite struct NestedStacks {
        @Test func anHStackInsideAVStack() {
            let small = box(20, 6)
            let row = HStack(spacing: 3) {
                box(10, 10)
                small
            }
            let column = layOut(
                VStack(spacing: 4, alignment: .start, padding: 2) {
                    row
                    box(50, 5)
                })
            #expect(row.idealSize == Size(width: 33, height: 10))
            #expect(column.frame.size == Size(width: 2 + 50 + 2, height: 2 + 10 + 4 + 5 + 2))
            #expect(
                frames(column) == [Rect(x: 2, y: 2, width: 33, height: 10), Rect(x: 2, y: 16, width: 50, height: 5)])
            #expect(frames(row) == [Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 13, y: 2, width: 20, height: 6)])
            #expect(small.convertToWindow(Point.zero) == Point(x: 15, y: 4))
        }

        @Test func aGrandchildsChangeReachesTheOuterStack() {
            let small = box(20, 6)
            let row = HStack(spacing: 3) {
                box(10, 10)
                small
            }
            let column = layOut(
                VStack(spacing: 4, alignment: .start, padding: 2) {
                    row
                    box(50, 5)
                })
            small.preferredSize = Size(width: 60, height: 12)
            #expect(column.idealSize == Size(width: 2 + 73 + 2, height: 2 + 12 + 4 + 5 + 2))
            layOut(column)
            #expect(row.frame == Rect(x: 2, y: 2, width: 73, height: 12))
            #expect(frames(row) == [Rect(x: 0, y: 1, width: 10, height: 10), Rect(x: 13, y: 0, width: 60, height: 12)])
            small.isHidden = true
            #expect(column.idealSize == Size(width: 2 + 50 + 2, height: 2 + 10 + 4 + 5 + 2))
        }

        @Test func aFilledRowWithASpacerRightAlignsItsLastChild() {
            let trailing = box(10, 10)
            let row = HStack(spacing: 0) {
                Spacer()
                trailing
            }
            let column = layOut(
                VStack(spacing: 0, alignment: .fill) {
                    row
                    box(100, 10)
                })
            #expect(column.frame.size == Size(width: 100, height: 20))
            #expect(row.frame == Rect(x: 0, y: 0, width: 100, height: 10))
            #expect(trailing.frame == Rect(x: 90, y: 0, width: 10, height: 10))
        }

        @Test func threeLevelsDeep() {
            let leaf = box(8, 8)
            let inner = VStack(spacing: 1, alignment: .end) {
                box(12, 4)
                leaf
            }
            let middle = HStack(spacing: 2, alignment: .start, padding: 1) {
                box(5, 30)
                inner
            }
            let outer = layOut(
                VStack(spacing: 0, alignment: .center, padding: EdgeInsets(top: 10, left: 0, bottom: 0, right: 0)) {
                    middle
                    box(40, 1)
                })
            // inner: 12 × 13; middle: 1 + 5 + 2 + 12 + 1 = 21 wide, 1 + 30 + 1 = 32 tall.
            #expect(inner.idealSize == Size(width: 12, height: 13))
            #expect(middle.idealSize == Size(width: 21, height: 32))
            #expect(outer.frame.size == Size(width: 40, height: 43))
            #expect(middle.frame == Rect(x: 9, y: 10, width: 21, height: 32))
            #expect(inner.frame == Rect(x: 8, y: 1, width: 12, height: 13))
            #expect(leaf.frame == Rect(x: 4, y: 5, width: 8, height: 8))
            #expect(leaf.convertToWindow(Point.zero) == Point(x: 9 + 8 + 4, y: 10 + 1 + 5))
        }
    }

    /// `View.hitTest`: the deepest visible view whose half-open bounds hold the point, the
    /// front-most (last) sibling winning where siblings overlap.
    @MainActor
    @Suite struct ViewHitTesting {
        @Test func theDeepestViewWins() {
            let root = placed(0, 0, 200, 200)
            let child = placed(10, 10, 100, 100)
            let grandchild = placed(20, 20, 30, 30)
            root.addSubview(child)
            child.addSubview(grandchild)
            #expect(root.hitTest(Point(x: 35, y: 35)) === grandchild)
            #expect(root.hitTest(Point(x: 15, y: 15)) === child)
            #expect(root.hitTest(Point(x: 150, y: 150)) === root)
            #expect(child.hitTest(Point(x: 25, y: 25)) === grandchild)
            #expect(child.hitTest(Point(x: 5, y: 5)) === child)
        }

        @Test func pointsOutsideTheViewHitNothing() {
            let root = placed(50, 50, 100, 80)
            #expect(root.hitTest(Point(x: -1, y: 10)) == nil)
            #expect(root.hitTest(Point(x: 10, y: -0.5)) == nil)
            #expect(root.hitTest(Point(x: 100, y: 10)) == nil)
            #expect(root.hitTest(Point(x: 10, y: 80)) == nil)
            #expect(root.hitTest(Point(x: .nan, y: 10)) == nil)
            // The point is in the view's own coordinates, not its superview's.
            #expect(root.hitTest(Point(x: 0, y: 0)) === root)
            #expect(placed(0, 0, 0, 0).hitTest(.zero) == nil)
        }

        @Test func leftAndTopEdgesAreInsideRightAndBottomEdgesAreNot() {
            let root = placed(0, 0, 100, 100)
            let child = placed(10, 10, 20, 20)
            root.addSubview(child)
            #expect(root.hitTest(Point(x: 10, y: 10)) === child)
            #expect(root.hitTest(Point(x: 29.999, y: 29.999)) === child)
            #expect(root.hitTest(Point(x: 30, y: 15)) === root)
            #expect(root.hitTest(Point(x: 15, y: 30)) === root)
            #expect(root.hitTest(Point(x: 9.999, y: 15)) === root)
            #expect(root.hitTest(Point(x: 99.999, y: 99.999)) === root)
            #expect(root.hitTest(Point(x: 100, y: 50)) == nil)
        }

        @Test func aSharedEdgeBelongsToTheViewOnItsRightOrBelowWhicheverIsInFront() {
            let root = placed(0, 0, 100, 100)
            let left = placed(0, 0, 50, 50)
            let right = placed(50, 0, 50, 50)
            let below = placed(0, 50, 50, 50)
            // Back to front: right, below, left; the shared edges still go right and down.
            root.addSubview(right)
            root.addSubview(below)
            root.addSubview(left)
            #expect(root.hitTest(Point(x: 50, y: 10)) === right)
            #expect(root.hitTest(Point(x: 49.5, y: 10)) === left)
            #expect(root.hitTest(Point(x: 10, y: 50)) === below)
            #expect(root.hitTest(Point(x: 50, y: 50)) === root)
        }

        @Test func theFrontMostOfOverlappingSiblingsWins() {
            let root = placed(0, 0, 100, 100)
            let back = placed(0, 0, 60, 60)
            let front = placed(40, 40, 60, 60)
            root.addSubview(back)
            root.addSubview(front)
            #expect(root.hitTest(Point(x: 50, y: 50)) === front)
            #expect(root.hitTest(Point(x: 30, y: 30)) === back)
            let behind = placed(0, 0, 100, 100)
            root.insertSubview(behind, at: 0)
            #expect(root.hitTest(Point(x: 50, y: 50)) === front)
            #expect(root.hitTest(Point(x: 90, y: 10)) === behind)
            // Bringing `back` to the front.
            root.addSubview(back)
            #expect(root.subviews.last === back)
            #expect(root.hitTest(Point(x: 50, y: 50)) === back)
        }

        @Test func hiddenViewsAreSkipped() {
            let root = placed(0, 0, 100, 100)
            let back = placed(0, 0, 60, 60)
            let front = placed(0, 0, 60, 60)
            let child = placed(10, 10, 10, 10)
            root.addSubview(back)
            root.addSubview(front)
            front.addSubview(child)
            #expect(root.hitTest(Point(x: 15, y: 15)) === child)
            child.isHidden = true
            #expect(root.hitTest(Point(x: 15, y: 15)) === front)
            child.isHidden = false
            front.isHidden = true
            // A hidden view hides its subviews too.
            #expect(root.hitTest(Point(x: 15, y: 15)) === back)
            back.isHidden = true
            #expect(root.hitTest(Point(x: 15, y: 15)) === root)
            root.isHidden = true
            #expect(root.hitTest(Point(x: 15, y: 15)) == nil)
        }

        @Test func aSubviewIsNotHitOutsideItsSuperviewsBounds() {
            let root = placed(0, 0, 200, 200)
            let parent = placed(0, 0, 50, 50)
            let overhanging = placed(40, 40, 30, 30)
            root.addSubview(parent)
            parent.addSubview(overhanging)
            #expect(root.hitTest(Point(x: 45, y: 45)) === overhanging)
            #expect(root.hitTest(Point(x: 60, y: 60)) === root)
            #expect(referenceHit(root, Point(x: 60, y: 60)) === root)
        }

        @Test func emptySubviewsAreNeverHit() {
            let root = placed(0, 0, 100, 100)
            root.addSubview(placed(10, 10, 0, 20))
            root.addSubview(placed(10, 10, 20, 0))
            root.addSubview(placed(10, 10, -5, 20))
            #expect(root.hitTest(Point(x: 10, y: 10)) === root)
            #expect(root.hitTest(Point(x: 8, y: 15)) === root)
        }
    }

    /// The grid index behind `View.hitTest` for views with more than `HitIndex.threshold`
    /// subviews: built on first use, dropped when subviews change, and answering exactly what
    /// trying every subview back to front would.
    @MainActor
    @Suite struct HitIndexTests {
        /// A view 1,000 px square with `count` subviews 20 px wide in a row along its top.
        private func row(of count: Int) -> View {
            let root = placed(0, 0, 1000, 1000)
            for index in 0..<count { root.addSubview(placed(Double(index) * 20, 0, 20, 10)) }
            return root
        }

        @Test func theIndexIsBuiltOnlyAboveTheThreshold() {
            #expect(HitIndex.threshold == 32)
            let root = row(of: 32)
            #expect(root.hitTest(Point(x: 5, y: 5)) === root.subviews[0])
            #expect(root.hitIndex == nil)
            let extra = placed(640, 0, 20, 10)
            root.addSubview(extra)
            #expect(root.hitIndex == nil)
            #expect(root.hitTest(Point(x: 645, y: 5)) === extra)
            #expect(root.hitIndex != nil)
            #expect(root.hitTest(Point(x: 5, y: 5)) === root.subviews[0])
            #expect(root.hitTest(Point(x: 660, y: 5)) === root)
        }

        @Test func changesToSubviewsDropTheIndex() {
            let root = row(of: 100)
            let moving = root.subviews[10]
            #expect(root.hitTest(Point(x: 205, y: 5)) === moving)
            #expect(root.hitIndex != nil)

            moving.frame = Rect(x: 500, y: 500, width: 20, height: 20)
            #expect(root.hitIndex == nil)
            #expect(root.hitTest(Point(x: 205, y: 5)) === root)
            #expect(root.hitTest(Point(x: 519, y: 519)) === moving)
            #expect(root.hitIndex != nil)

            // Setting the same frame again keeps the index.
            moving.frame = Rect(x: 500, y: 500, width: 20, height: 20)
            #expect(root.hitIndex != nil)

            let added = placed(900, 900, 50, 50)
            root.addSubview(added)
            #expect(root.hitIndex == nil)
            #expect(root.hitTest(Point(x: 920, y: 920)) === added)

            added.removeFromSuperview()
            #expect(root.hitIndex == nil)
            #expect(root.hitTest(Point(x: 920, y: 920)) === root)

            let inserted = placed(500, 500, 10, 10)
            root.insertSubview(inserted, at: 0)
            #expect(root.hitIndex == nil)
            #expect(root.hitTest(Point(x: 505, y: 505)) === moving)
            #expect(root.hitTest(Point(x: 515, y: 515)) === moving)
            moving.isHidden = true
            #expect(root.hitTest(Point(x: 505, y: 505)) === inserted)
        }

        @Test func hidingASubviewNeedsNoRebuild() {
            let root = row(of: 100)
            let target = root.subviews[30]
            #expect(root.hitTest(Point(x: 605, y: 5)) === target)
            target.isHidden = true
            #expect(root.hitIndex != nil)
            #expect(root.hitTest(Point(x: 605, y: 5)) === root)
            target.isHidden = false
            #expect(root.hitTest(Point(x: 605, y: 5)) === target)
        }

        @Test func theFrontMostOfManyOverlappingSubviewsWins() {
            let root = placed(0, 0, 100, 100)
            for _ in 0..<50 { root.addSubview(placed(0, 0, 10, 10)) }
            #expect(root.hitTest(Point(x: 5, y: 5)) === root.subviews[49])
            root.subviews[49].isHidden = true
            #expect(root.hitTest(Point(x: 5, y: 5)) === root.subviews[48])
            #expect(root.hitTest(Point(x: 10, y: 5)) === root)
            // Outside every subview, though the grid only spans the subviews.
            #expect(root.hitTest(Point(x: 50, y: 50)) === root)
            #expect(root.hitTest(Point(x: 99, y: 99)) === root)
            #expect(root.hitIndex != nil)
        }

        /// Views spanning many grid cells are kept aside and tried with the others in
        /// back-to-front order.
        @Test func largeSubviewsKeepTheirPlaceInTheOrder() {
            let root = placed(0, 0, 1000, 1000)
            let backdrop = placed(0, 0, 1000, 1000)
            root.addSubview(backdrop)
            var grid: [[View]] = []
            for row in 0..<10 {
                grid.append([])
                for column in 0..<10 {
                    let view = placed(Double(column) * 100, Double(row) * 100, 10, 10)
                    grid[row].append(view)
                    root.addSubview(view)
                }
            }
            let banner = placed(0, 0, 1000, 300)
            root.addSubview(banner)
            #expect(root.hitTest(Point(x: 5, y: 5)) === banner)
            #expect(root.hitTest(Point(x: 505, y: 205)) === banner)
            #expect(root.hitTest(Point(x: 5, y: 505)) === grid[5][0])
            #expect(root.hitTest(Point(x: 909, y: 909)) === grid[9][9])
            #expect(root.hitTest(Point(x: 50, y: 550)) === backdrop)
            #expect(root.hitTest(Point(x: 999, y: 999)) === backdrop)
            banner.isHidden = true
            #expect(root.hitTest(Point(x: 5, y: 5)) === grid[0][0])
            #expect(root.hitTest(Point(x: 505, y: 205)) === grid[2][5])
            #expect(root.hitTest(Point(x: 515, y: 215)) === backdrop)
            #expect(root.hitIndex != nil)
        }

        /// Thousands of absolutely placed subviews, a few of them large, hidden, empty, half
        /// pixel aligned or with a subview of their own, some hanging off the top-left edge,
        /// all within `extent` px of `origin`; tried on random quarter-pixel points and on the
        /// corners of random subviews.
        @Test(arguments: [
            (UInt64(0x5EED_1A70), -20.0, 1000),
            (UInt64(42), 400.0, 200),
            (UInt64(0xDEAD_BEEF), 0.0, 3000),
        ])
        func theGridAgreesWithTryingEverySubview(seed: UInt64, origin: Double, extent: Int) {
            var rng = SplitMix64(seed: seed)
            let root = placed(0, 0, 1000, 1000)
            for _ in 0..<2500 {
                let large = rng.int(1...100) == 1
                let width = large ? rng.double(100...600) : rng.double(0...40)
                let height = large ? rng.double(100...600) : rng.double(0...40)
                let half = rng.int(1...4) == 1 ? 0.5 : 0
                let view = placed(
                    origin + rng.double(0...extent) + half, origin + rng.double(0...extent), width, height)
                if rng.int(1...20) == 1 { view.isHidden = true }
                if rng.int(1...30) == 1 { view.addSubview(placed(0, 0, (width / 2).rounded(), height)) }
                root.addSubview(view)
            }
            var points: [Point] = []
            for _ in 0..<4000 {
                points.append(Point(x: Double(rng.int(-4...4003)) / 4, y: Double(rng.int(-4...4003)) / 4))
            }
            for _ in 0..<300 {
                let frame = root.subviews[rng.int(0...root.subviews.count - 1)].frame
                points += [
                    Point(x: frame.minX, y: frame.minY), Point(x: frame.maxX, y: frame.minY),
                    Point(x: frame.minX, y: frame.maxY), Point(x: frame.maxX - 0.25, y: frame.maxY - 0.25),
                ]
            }
            var mismatches: [Point] = []
            var subviewHits = 0
            for point in points {
                let expected = referenceHit(root, point)
                if root.hitTest(point) !== expected, mismatches.count < 10 { mismatches.append(point) }
                if expected != nil && expected !== root { subviewHits += 1 }
            }
            #expect(root.hitIndex != nil)
            #expect(mismatches.isEmpty)
            // Sanity: the points land on subviews often enough for the comparison to mean something.
            #expect(subviewHits > points.count / 10)
        }

        /// A 600 px square view with `special` and 35 squares along its bottom edge: 36
        /// subviews spanning the whole view, so the grid has 6 × 6 cells 100 px square.
        private func sixBySix(_ special: View) -> View {
            let root = placed(0, 0, 600, 600)
            root.addSubview(special)
            root.addSubview(placed(0, 590, 10, 10))
            for index in 0..<34 { root.addSubview(placed(590 - Double(index) * 10, 590, 10, 10)) }
            return root
        }

        /// In 100 px cells, a frame ending at x = 100.0005 reaches into column 1, so a point at
        /// x = 100.0002, inside it, is found there.
        @Test
        func aPointJustInsideARightEdgeOnACellBoundaryIsHit() {
            let target = placed(0, 0, 100.0005, 10)
            let root = sixBySix(target)
            let point = Point(x: 100.0002, y: 5)
            #expect(referenceHit(root, point) === target)
            #expect(root.hitTest(point) === target)
        }

        /// A frame far narrower than a pixel with its left edge on a cell boundary is filed in
        /// that one cell (building the index must not compute a last column before the first).
        @Test
        func aSubviewThinnerThanTheEdgeTrimDoesNotTrap() {
            let sliver = placed(100, 0, 0.0005, 10)
            let root = sixBySix(sliver)
            #expect(root.hitTest(Point(x: 100.0001, y: 5)) === sliver)
        }

        /// A subview with an infinite frame contains every point: it is hit everywhere, below the
        /// grid's threshold and above it.
        @Test
        func aSubviewWithAnInfiniteFrameIsHitWithOrWithoutTheGrid() {
            for count in [10, 40] {
                let root = placed(0, 0, 500, 500)
                for index in 0..<count { root.addSubview(placed(Double(index) * 10, 0, 10, 10)) }
                let overlay = placed(0, 0, .infinity, .infinity)
                root.addSubview(overlay)
                #expect(referenceHit(root, Point(x: 5, y: 5)) === overlay)
                #expect(root.hitTest(Point(x: 5, y: 5)) === overlay, "with \(count) other subviews")
            }
        }
    }

    /// `Stack.hitTest`: with more than 16 children a stack finds the child under a point by
    /// binary search along its axis; the answers must match trying every child.
    @MainActor
    @Suite struct StackHitTesting {
        /// Forty children 10 px long, 2 px apart, 10 to 30 px thick, centred; child 20 has a
        /// subview over its first half.
        private func striped(horizontal: Bool) -> Stack {
            let children = (0..<40).map { index in
                let thickness = 10 + Double(index % 5) * 5
                let child = horizontal ? box(10, thickness) : box(thickness, 10)
                if index == 20 { child.addSubview(horizontal ? placed(0, 0, 5, 30) : placed(0, 0, 30, 5)) }
                return child
            }
            return layOut(horizontal ? HStack(spacing: 2) { children } : VStack(spacing: 2) { children })
        }

        @Test func anHStackAgreesWithTryingEveryChild() {
            let stack = striped(horizontal: true)
            #expect(stack.frame.size == Size(width: 40 * 10 + 39 * 2, height: 30))
            #expect(stack.hitTest(Point(x: 0, y: 15)) === stack.subviews[0])
            #expect(stack.hitTest(Point(x: 9.5, y: 15)) === stack.subviews[0])
            #expect(stack.hitTest(Point(x: 10, y: 15)) === stack)
            #expect(stack.hitTest(Point(x: 12, y: 15)) === stack.subviews[1])
            // Child 0 is 10 px tall, centred at y = 10..<20.
            #expect(stack.hitTest(Point(x: 5, y: 9)) === stack)
            #expect(stack.hitTest(Point(x: 5, y: 20)) === stack)
            #expect(stack.hitTest(Point(x: 20 * 12 + 1, y: 15)) === stack.subviews[20].subviews[0])
            #expect(stack.hitTest(Point(x: 20 * 12 + 6, y: 15)) === stack.subviews[20])
            #expect(stack.hitTest(Point(x: 477, y: 15)) === stack.subviews[39])
            #expect(stack.hitTest(Point(x: 478, y: 15)) == nil)
            #expect(disagreements(in: stack, step: 0.5).isEmpty)
        }

        @Test func aVStackAgreesWithTryingEveryChild() {
            let stack = striped(horizontal: false)
            #expect(stack.frame.size == Size(width: 30, height: 40 * 10 + 39 * 2))
            #expect(stack.hitTest(Point(x: 15, y: 0)) === stack.subviews[0])
            #expect(stack.hitTest(Point(x: 15, y: 11)) === stack)
            #expect(stack.hitTest(Point(x: 15, y: 12)) === stack.subviews[1])
            #expect(stack.hitTest(Point(x: 15, y: 20 * 12 + 1)) === stack.subviews[20].subviews[0])
            #expect(disagreements(in: stack, step: 0.5).isEmpty)
        }

        @Test func paddingAndLeftoverRoomHitTheStack() {
            let stack = layOut(
                HStack(spacing: 0, padding: 5) { (0..<20).map { _ in box(10, 10) } }, width: 300, height: 20)
            #expect(stack.hitTest(Point(x: 2, y: 10)) === stack)
            #expect(stack.hitTest(Point(x: 5, y: 10)) === stack.subviews[0])
            #expect(stack.hitTest(Point(x: 204, y: 10)) === stack.subviews[19])
            #expect(stack.hitTest(Point(x: 205, y: 10)) === stack)
            #expect(stack.hitTest(Point(x: 250, y: 10)) === stack)
            #expect(disagreements(in: stack, step: 1).isEmpty)
        }

        @Test func aHiddenStackHitsNothing() {
            let stack = striped(horizontal: true)
            stack.isHidden = true
            #expect(stack.hitTest(Point(x: 5, y: 15)) == nil)
        }

        /// Layout leaves a hidden child's frame as it was (`.zero` if it was hidden from the
        /// start); the binary search must not steer by it, nor stop at a hidden child's stale
        /// frame instead of the visible child now in that place.
        @Test
        func hiddenChildrenDoNotHideTheirNeighbours() {
            let neverShown = box(10, 10)
            neverShown.isHidden = true
            let stack = layOut(
                HStack(spacing: 0) {
                    (0..<9).map { _ in box(10, 10) }
                    neverShown
                    (10..<20).map { _ in box(10, 10) }
                })
            #expect(stack.frame.size == Size(width: 190, height: 10))
            #expect(stack.hitTest(Point(x: 5, y: 5)) === stack.subviews[0])

            let later = layOut(HStack(spacing: 0) { (0..<20).map { _ in box(10, 10) } })
            later.subviews[9].isHidden = true
            later.layoutIfNeeded()
            #expect(later.subviews[10].frame == Rect(x: 90, y: 0, width: 10, height: 10))
            #expect(later.hitTest(Point(x: 95, y: 5)) === later.subviews[10])
            #expect(disagreements(in: stack, step: 1).isEmpty)
            #expect(disagreements(in: later, step: 1).isEmpty)
        }
    }
}
