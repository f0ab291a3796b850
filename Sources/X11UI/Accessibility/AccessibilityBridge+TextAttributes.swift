/// AT-SPI2 text attributes (`GetAttributeRun`, `GetAttributes`, `GetAttributeValue`,
/// `GetDefaultAttributes`, `GetDefaultAttributeSet`) for the text of a view: what it is drawn
/// with, named and written as GTK writes them (`gtkatspipango.c`): `family-name`, `size` in
/// points, `weight` as a CSS number, `fg-color` and `bg-color` as 16-bit `r,g,b`, `direction`,
/// `justification`, `wrap-mode`, `language`.
///
/// A view draws all its text in one font and colour, so the attributes change only where the
/// direction does: a run is a stretch of paragraphs of one direction, the whole text when it
/// has one direction.
extension AccessibilityBridge {
    /// What a text view's text is drawn with.
    struct TextStyle {
        var text: String
        var font: Font
        var color: Color
        var background: Color?
        var alignment: TextAlignment
        var wraps: Bool
        /// Space between the view's edges and the text, in pixels.
        var margin: Double
        /// The family of the face the font resolved to, when the view is on a display.
        var resolvedFamily: String?
    }

    /// The attributes every character of the text has, with the first paragraph's direction.
    static func defaultAttributes(_ style: TextStyle) -> [(String, String)] {
        attributes(style, rightToLeft: Bidi.paragraphIsRightToLeft(style.text[...]))
    }

    /// The attributes of the run around `offset` (in Unicode scalars) and the run's bounds.
    static func attributeRun(_ style: TextStyle, at offset: Int) -> (attributes: [(String, String)], range: Range<Int>)
    {
        let runs = directionRuns(of: style.text)
        let count = runs.last?.range.upperBound ?? 0
        let clamped = max(0, min(offset, count))
        let run = runs.first { $0.range.contains(clamped) } ?? runs.last ?? (0..<0, false)
        return (attributes(style, rightToLeft: run.rightToLeft), run.range)
    }

    private static func attributes(_ style: TextStyle, rightToLeft: Bool) -> [(String, String)] {
        let justification: String
        switch style.alignment {
        case .leading: justification = rightToLeft ? "right" : "left"
        case .center: justification = "center"
        case .trailing: justification = rightToLeft ? "left" : "right"
        }
        let weight: Int
        switch style.font.weight {
        case .regular: weight = 400
        case .medium: weight = 500
        case .semibold: weight = 600
        case .bold: weight = 700
        }
        var result: [(String, String)] = [
            ("family-name", style.resolvedFamily ?? style.font.family),
            // Points: the size is in pixels at 96 dpi, 72 points an inch.
            ("size", String(Int((style.font.size * 0.75).rounded()))),
            ("weight", String(weight)),
            ("style", "normal"),
            ("variant", "normal"),
            ("stretch", "normal"),
            ("fg-color", rgb16(style.color)),
        ]
        if let background = style.background { result.append(("bg-color", rgb16(background))) }
        result += [
            ("direction", rightToLeft ? "rtl" : "ltr"),
            ("justification", justification),
            ("wrap-mode", style.wraps ? "word-char" : "none"),
            ("underline", "none"),
            ("strikethrough", "false"),
            ("invisible", "false"),
            ("editable", "false"),
            ("scale", "1"),
            ("rise", "0"),
            ("indent", "0"),
            ("left-margin", String(Int(style.margin.rounded()))),
            ("right-margin", String(Int(style.margin.rounded()))),
        ]
        if let language = textLanguage { result.append(("language", language)) }
        return result
    }

    /// A colour as AT-SPI2 toolkits write it: 16-bit red, green and blue ("7196,7196,7710").
    static func rgb16(_ color: Color) -> String {
        [color.red, color.green, color.blue].map { String(Int(($0 * 65535).rounded())) }.joined(separator: ",")
    }

    /// The language of the text as GTK writes it ("en-us"), from the locale; nil for the C
    /// locale (unknown).
    static var textLanguage: String? {
        let locale = locale
        let language = locale.prefix { $0 != "." && $0 != "@" }.replacingUnderscores
        guard !language.isEmpty, language != "c", language != "posix" else { return nil }
        return language
    }

    /// The text's runs of one direction: paragraphs (with their separators), merged while the
    /// direction stays the same. Offsets are in Unicode scalars.
    static func directionRuns(of text: String) -> [(range: Range<Int>, rightToLeft: Bool)] {
        var runs: [(range: Range<Int>, rightToLeft: Bool)] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var offset = 0
        while start < scalars.endIndex || runs.isEmpty {
            var end = start
            var length = 0
            while end < scalars.endIndex {
                let scalar = scalars[end]
                end = scalars.index(after: end)
                length += 1
                if Bidi.isParagraphSeparator(scalar) { break }
            }
            let rightToLeft = Bidi.paragraphIsRightToLeft(text[start..<end])
            let range = offset..<(offset + length)
            if let last = runs.last, last.rightToLeft == rightToLeft {
                runs[runs.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                runs.append((range, rightToLeft))
            }
            offset += length
            start = end
            if length == 0 { break }
        }
        return runs
    }

    /// The Text interface's attribute calls; nil for another member.
    func textAttributes(_ style: TextStyle, _ member: String, _ arguments: [DBusValue]) -> [DBusValue]? {
        func dictionary(_ pairs: [(String, String)]) -> DBusValue {
            .array(element: "{ss}", pairs.map { .dictionaryEntry(.string($0.0), .string($0.1)) })
        }
        let offset = arguments.first?.intValue ?? 0
        switch member {
        case "GetAttributeRun", "GetAttributes":
            // Every attribute is the text's own: with or without the defaults, the run says them all.
            let run = Self.attributeRun(style, at: offset)
            return [
                dictionary(run.attributes), .int32(Int32(clamping: run.range.lowerBound)),
                .int32(Int32(clamping: run.range.upperBound)),
            ]
        case "GetAttributeValue":
            guard arguments.count >= 2, let name = arguments[1].stringValue else { return nil }
            let run = Self.attributeRun(style, at: offset)
            return [.string(run.attributes.first { $0.0 == name }?.1 ?? "")]
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            return [dictionary(Self.defaultAttributes(style))]
        default:
            return nil
        }
    }
}

extension Substring {
    /// Lower case, with `_` as `-` ("en_US" → "en-us").
    fileprivate var replacingUnderscores: String {
        String(self.lowercased().map { $0 == "_" ? "-" : $0 })
    }
}
