/// X resources, the X11 way to configure programs: `xrdb` loads them into the
/// RESOURCE_MANAGER property, and the layers above read their keys through ``ResourceReader``
/// (the tooltip defaults: see ToolTips/ToolTipController+Resources.swift).
extension Application {
    /// A reader of the resources `<program>.<component>.<attribute>` by name and
    /// `X11UI.<ComponentClass>.<Attribute>` by class; nil when the database is empty.
    func resourceReader(component: String, componentClass: String) -> ResourceReader? {
        let database = connection.resources
        guard !database.isEmpty else { return nil }
        return ResourceReader(
            database: database, program: Window.programName, component: component, componentClass: componentClass)
    }
}

/// Typed look-ups of one component's X resources; a bad value is ignored with one warning on
/// standard error.
struct ResourceReader {
    let database: XResources
    let program: String
    let component: String
    let componentClass: String

    /// The text of an attribute, by name and by class.
    func value(_ attribute: String) -> String? {
        let className = attribute.prefix(1).uppercased() + attribute.dropFirst()
        return database.string(names: [program, component, attribute], classes: ["X11UI", componentClass, className])
    }

    func warn(_ attribute: String, _ text: String, _ expected: String) {
        Log.warning("ignoring X resource \(componentClass).\(attribute): \(Log.quoted(text)) is not \(expected)")
    }

    /// A number within `range`.
    func number(_ attribute: String, in range: ClosedRange<Double>) -> Double? {
        guard let text = value(attribute) else { return nil }
        guard let number = Double(text.trimmingWhitespace), range.contains(number) else {
            warn(attribute, text, "a number from \(range.lowerBound.compact) to \(range.upperBound.compact)")
            return nil
        }
        return number
    }

    /// A colour: `#rgb`, `#rrggbb`, `#rrggbbaa` or a name.
    func color(_ attribute: String) -> Color? {
        guard let text = value(attribute) else { return nil }
        guard let color = Color(parsing: text) else {
            warn(attribute, text, "a colour")
            return nil
        }
        return color
    }
}
