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
            let c1 = max(c0, lastCell(frame.maxX, origin: origin.x, size: cellSize.width, count: columns))
            let r0 = row(frame.minY)
            let r1 = max(r0, lastCell(frame.maxY, origin: origin.y, size: cellSize.height, count: rows))
            if (c1 - c0 + 1) * (r1 - r0 + 1) > 16 {
                large.append(index)
                continue
            }
            for r in r0...r1 {
                for c in c0...c1 { cells[r * columns + c].append(index) }
            }
        }
    }

    private func column(_ x: Double) -> Int {
        min(columns - 1, max(0, Int(((x - origin.x) / cellSize.width).rounded(.down))))
    }

    private func row(_ y: Double) -> Int {
        min(rows - 1, max(0, Int(((y - origin.y) / cellSize.height).rounded(.down))))
    }

    /// The last cell a half-open span ending at `end` reaches (an end on a cell boundary stops
    /// in the cell before it).
    private func lastCell(_ end: Double, origin: Double, size: Double, count: Int) -> Int {
        min(count - 1, max(0, Int(((end - origin) / size).rounded(.up)) - 1))
    }

    /// The subviews that may contain `point`, front-most first.
    func candidates(at point: Point) -> [Int] {
        guard point.isFinite else { return [] }
        let cell = cells[row(point.y) * columns + column(point.x)]
        if large.isEmpty { return cell }
        return (cell + large).sorted(by: >)
    }
}
