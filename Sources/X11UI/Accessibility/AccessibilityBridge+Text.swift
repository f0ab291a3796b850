/// AT-SPI2's Text interface for a `TextView` and a `Label`: the text, the caret and the
/// selection (a text view's), character extents and text attributes, in character offsets
/// (Unicode scalars, as AT-SPI2 counts them).
extension AccessibilityBridge {
    /// AT-SPI2 text granularities (`AtspiTextGranularity`) and boundaries (`AtspiTextBoundaryType`).
    private enum Unit {
        case character, word, sentence, line, paragraph

        init?(granularity: Int) {
            switch granularity {
            case 0: self = .character
            case 1: self = .word
            case 2: self = .sentence
            case 3: self = .line
            case 4: self = .paragraph
            default: return nil
            }
        }

        init?(boundary: Int) {
            switch boundary {
            case 0: self = .character
            case 1, 2: self = .word
            case 3, 4: self = .sentence
            case 5, 6: self = .line
            default: return nil
            }
        }
    }

    func text(_ node: AccessibleNode, _ member: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        guard let view = AccessibleText(node) else { return nil }
        let scalars = Array(view.text.unicodeScalars)
        let ints = arguments.compactMap(\.intValue)
        func clamp(_ offset: Int) -> Int { offset < 0 ? scalars.count : min(offset, scalars.count) }
        func string(_ start: Int, _ end: Int) -> String {
            let s = clamp(start)
            let e = max(s, clamp(end))
            var result = ""
            result.unicodeScalars.append(contentsOf: scalars[s..<e])
            return result
        }
        func unit(containing offset: Int, _ unit: Unit?) -> (String, Int, Int) {
            guard let unit, !scalars.isEmpty else { return ("", 0, 0) }
            let o = max(0, min(offset, scalars.count - 1))
            let range = Self.range(of: unit, around: o, in: scalars)
            return (string(range.lowerBound, range.upperBound), range.lowerBound, range.upperBound)
        }
        switch member {
        case "GetText":
            guard ints.count == 2 else { return nil }
            return [.string(string(ints[0], ints[1]))]
        case "GetCaretOffset": return [.int32(Int32(clamping: view.caretOffset))]
        case "SetCaretOffset":
            guard let offset = ints.first else { return nil }
            let index = view.text.unicodeScalars.index(view.text.startIndex, offsetBy: clamp(offset))
            return [.bool(view.select(index..<index))]
        case "GetCharacterAtOffset":
            guard let offset = ints.first, scalars.indices.contains(offset) else { return [.int32(0)] }
            return [.int32(Int32(bitPattern: scalars[offset].value))]
        case "GetStringAtOffset":
            guard ints.count == 2 else { return nil }
            let (text, start, end) = unit(containing: ints[0], Unit(granularity: ints[1]))
            return [.string(text), .int32(Int32(start)), .int32(Int32(end))]
        case "GetTextAtOffset":
            guard ints.count == 2 else { return nil }
            let (text, start, end) = unit(containing: ints[0], Unit(boundary: ints[1]))
            return [.string(text), .int32(Int32(start)), .int32(Int32(end))]
        case "GetNSelections":
            return [.int32(view.selectionOffsets == nil ? 0 : 1)]
        case "GetSelection":
            let range = view.selectionOffsets ?? 0..<0
            return [.int32(Int32(range.lowerBound)), .int32(Int32(range.upperBound))]
        case "AddSelection", "SetSelection":
            guard ints.count >= 2 else { return nil }
            let (start, end) = (clamp(ints[ints.count - 2]), clamp(ints[ints.count - 1]))
            let all = view.text.unicodeScalars
            let lower = all.index(all.startIndex, offsetBy: min(start, end))
            let upper = all.index(all.startIndex, offsetBy: max(start, end))
            return [.bool(view.select(lower..<upper))]
        case "RemoveSelection":
            return [.bool(view.select(nil))]
        case "GetCharacterExtents", "GetRangeExtents":
            let range =
                member == "GetCharacterExtents"
                ? ints.first.map { ($0, $0 + 1) } : ints.count >= 2 ? (ints[0], ints[1]) : nil
            guard let range else { return nil }
            let rect = view.rects(covering: Self.characters(range.0, range.1, in: view.text)).reduce(Rect.zero) {
                $0.isEmpty ? $1 : $0.union($1)
            }
            let origin = Self.origin(of: view.view, coordinates: ints.last ?? 0)
            let r = rect.offsetBy(dx: origin.x, dy: origin.y)
            return [
                .int32(Self.pixels(r.minX)), .int32(Self.pixels(r.minY)), .int32(Self.pixels(r.width)),
                .int32(Self.pixels(r.height)),
            ]
        case "GetOffsetAtPoint":
            guard ints.count >= 2 else { return nil }
            let origin = Self.origin(of: view.view, coordinates: ints.count >= 3 ? ints[2] : 0)
            let point = Point(x: Double(ints[0]) - origin.x, y: Double(ints[1]) - origin.y)
            guard view.view.bounds.contains(point) else { return [.int32(-1)] }
            let index = view.index(at: point)
            return [.int32(Int32(clamping: view.text.unicodeScalars.distance(from: view.text.startIndex, to: index)))]
        case "GetAttributeRun", "GetAttributes", "GetAttributeValue", "GetDefaultAttributes",
            "GetDefaultAttributeSet":
            return textAttributes(view.style, member, arguments)
        default:
            return nil
        }
    }

    /// Where a view's origin is in AT-SPI2 coordinates: 0 the screen, 1 the window, 2 the parent.
    private static func origin(of view: View, coordinates: Int) -> Point {
        let inWindow = view.convertToWindow(Point.zero)
        switch coordinates {
        case 1: return inWindow
        case 2: return Point(x: view.frame.minX, y: view.frame.minY)
        default: return view.frameOnScreen?.origin ?? inWindow
        }
    }

    /// The characters (grapheme clusters, as the text is drawn) covering scalar offsets
    /// `start..<end` of `text`.
    private static func characters(_ start: Int, _ end: Int, in text: String) -> Range<String.Index> {
        let scalars = text.unicodeScalars
        func index(_ offset: Int) -> String.Index {
            scalars.index(scalars.startIndex, offsetBy: max(0, min(offset, scalars.count)))
        }
        let lower = index(min(start, end))
        let upper = index(max(start, end))
        // Widen to whole characters: a scalar inside a cluster is drawn with its cluster.
        let first = text.indices.last { $0 <= lower } ?? text.startIndex
        let last = upper == text.endIndex ? upper : (text.indices.first { $0 >= upper } ?? text.endIndex)
        return first..<max(first, last)
    }

    /// The range of the word, sentence, line (one paragraph of the text: X11UI wraps lines
    /// itself, so a hard line is what stays stable) or character around `offset`.
    private static func range(of unit: Unit, around offset: Int, in scalars: [Unicode.Scalar]) -> Range<Int> {
        let isBoundary: (Unicode.Scalar) -> Bool
        switch unit {
        case .character: return offset..<(offset + 1)
        case .word: isBoundary = { $0.properties.isWhitespace }
        case .sentence: isBoundary = { ".!?\n".unicodeScalars.contains($0) }
        case .line, .paragraph: isBoundary = { $0 == "\n" }
        }
        var start = offset
        while start > 0, !isBoundary(scalars[start - 1]) { start -= 1 }
        var end = offset
        while end < scalars.count, !isBoundary(scalars[end]) { end += 1 }
        // A word, sentence or line takes the separator after it, as AT-SPI2's start boundaries do.
        if end < scalars.count { end += 1 }
        return start..<end
    }
}

extension TextView {
    /// The selection in character (Unicode scalar) offsets; nil when nothing is selected.
    var selectionOffsets: Range<Int>? {
        guard let selection, !selection.isEmpty else { return nil }
        let scalars = text.unicodeScalars
        let lower = scalars.distance(from: scalars.startIndex, to: selection.lowerBound)
        let upper = scalars.distance(from: scalars.startIndex, to: selection.upperBound)
        return lower..<upper
    }

    /// Where the caret is: the end of the selection (the text view has no caret of its own).
    var caretOffset: Int {
        guard let selection else { return 0 }
        return text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: selection.upperBound)
    }
}
