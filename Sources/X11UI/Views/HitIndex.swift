/// A uniform grid over a view's subviews, so that finding the subviews under a point looks at
/// one cell instead of every subview (10,000 tooltip sources cost what a few do).
@MainActor
struct HitIndex {
    /// Fewer subviews than this are searched one by one.
    static let threshold = 32

    private let origin: Point
    private let cellSize: Size
    private let columns: Int
    private let rows: Int
    /// Subview indices per cell, front-most (highest index) first.
    private var cells: [[Int]]
    /// Subviews spanning too many cells to list in each: always candidates.
    private var large: [Int] = []

    init(_ subviews: [View]) {
        var bounds = Rect.zero
        for view in subviews where view.frame.isFinite { bounds = bounds.union(view.frame) }
        let side = max(1, Int(Double(subviews.count).squareRoot().rounded(.up)))
        origin = bounds.origin
        columns = side
        rows = side
        cellSize = Size(width: max(1, bounds.width / Double(side)), height: max(1, bounds.height / Double(side)))
        cells = Array(repeating: [], count: side * side)
        for index in subviews.indices.reversed() {
            let frame = subviews[index].frame
            // An infinite frame covers every cell: a candidate everywhere, as in plain hit testing.
            if !frame.isFinite {
                large.append(index)
                continue
            }
            guard !frame.isEmpty else { continue }
            let c0 = column(frame.minX)
            let c1 = max(c0, column(frame.maxX, endOfSpan: true))
            let r0 = row(frame.minY)
            let r1 = max(r0, row(frame.maxY, endOfSpan: true))
            if (c1 - c0 + 1) * (r1 - r0 + 1) > 16 {
                large.append(index)
                continue
            }
            for r in r0...r1 {
                for c in c0...c1 { cells[r * columns + c].append(index) }
            }
        }
    }

    /// The column holding `x`, clamped to the grid; with `endOfSpan`, the last column a
    /// half-open span ending at `x` reaches (an end on a boundary stops in the column before).
    private func column(_ x: Double, endOfSpan: Bool = false) -> Int {
        Self.cell((x - origin.x) / cellSize.width, count: columns, endOfSpan: endOfSpan)
    }

    /// The row holding `y`, as `column` does.
    private func row(_ y: Double, endOfSpan: Bool = false) -> Int {
        Self.cell((y - origin.y) / cellSize.height, count: rows, endOfSpan: endOfSpan)
    }

    private static func cell(_ position: Double, count: Int, endOfSpan: Bool) -> Int {
        let index = endOfSpan ? Int(position.rounded(.up)) - 1 : Int(position.rounded(.down))
        return min(count - 1, max(0, index))
    }

    /// The subviews that may contain `point`, front-most first.
    func candidates(at point: Point) -> [Int] {
        guard point.isFinite else { return [] }
        let cell = cells[row(point.y) * columns + column(point.x)]
        if large.isEmpty { return cell }
        return (cell + large).sorted(by: >)
    }
}
