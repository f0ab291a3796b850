/// X resources, the X11 way to configure programs: `xrdb` loads them into the
/// RESOURCE_MANAGER property and X11UI reads its tooltip defaults from there at start-up.
///
/// ```
/// X11UI*ToolTip.background:    #202020
/// X11UI*ToolTip.foreground:    #f0f0f0
/// tooltip-demo.toolTip.initialDelay: 800
/// ```
///
/// Paths are `<program>.toolTip.<attribute>` by name and `X11UI.ToolTip.<Attribute>` by class.
/// Attributes: `style` (`standard`, following the appearance, `dark` or `light`: the base the
/// others adjust), `background`,
/// `foreground`, `border` (colours: `#rgb`, `#rrggbb`, `#rrggbbaa` or a name), `font` (a
/// fontconfig family), `fontSize`, `maxWidth`, `maxHeight`, `cornerRadius`, `padding` (pixels at
/// 96 dpi), and `initialDelay`, `browseDelay`, `browseTimeout`, `hoverGrace`, `autoHide`
/// (milliseconds; `autoHide: 0` keeps tooltips until dismissed). A bad value is ignored with one
/// warning on standard error.
extension Application {
    /// The attributes the resource database keeps (the tooltip ones, by name and by class, and
    /// whether the compositor fades tooltips itself: CompositorFades.swift).
    nonisolated static var resourceAttributes: Set<String> {
        ToolTipController.resourceAttributes.union(["compositorFadesPopups", "CompositorFadesPopups"])
    }

    /// Reads the tooltip defaults from the X resources; called once at start-up.
    func applyResources() {
        guard let reader = resourceReader(component: "toolTip", componentClass: "ToolTip") else { return }
        toolTips.apply(reader)
    }
}

extension ToolTipController {
    /// The attributes read below, by name and by class. Written out: made at start-up with
    /// `map`, `uppercased()` and concatenation, they cost 0.13 M instructions, mostly the
    /// runtime's conformance lookups for that generic code.
    nonisolated static let resourceAttributes: Set<String> = [
        "style", "background", "foreground", "border", "font", "fontSize", "maxWidth", "maxHeight",
        "cornerRadius", "padding", "initialDelay", "browseDelay", "browseTimeout", "hoverGrace", "autoHide",
        "Style", "Background", "Foreground", "Border", "Font", "FontSize", "MaxWidth", "MaxHeight",
        "CornerRadius", "Padding", "InitialDelay", "BrowseDelay", "BrowseTimeout", "HoverGrace", "AutoHide",
    ]

    /// Sets the default style and timings from the resources.
    func apply(_ reader: ResourceReader) {
        var style = self.style
        if let text = reader.value("style") {
            switch text.trimmingWhitespace.lowercased() {
            case "standard": style = .standard
            case "dark": style = .dark
            case "light": style = .light
            default: reader.warn("style", text, "standard, dark or light")
            }
        }
        if let c = reader.color("background") { style.background = c }
        if let c = reader.color("foreground") { style.foreground = c }
        if let c = reader.color("border") { style.border = c }
        if let family = reader.value("font")?.trimmingWhitespace {
            if family.isEmpty || family.utf8.count > 256 {
                reader.warn("font", family, "a font family")
            } else {
                style.font = Font(family: family, size: style.font.size, weight: style.font.weight)
            }
        }
        if let size = reader.number("fontSize", in: 4...200) { style.font = style.font.withSize(size) }
        if let width = reader.number("maxWidth", in: 40...4096) { style.maxWidth = width }
        if let height = reader.number("maxHeight", in: 20...4096) { style.maxHeight = height }
        if let radius = reader.number("cornerRadius", in: 0...32) { style.cornerRadius = radius }
        if let padding = reader.number("padding", in: 0...64) { style.padding = EdgeInsets(all: padding) }
        self.style = style

        var timings = self.timings
        func delay(_ attribute: String) -> Duration? {
            reader.number(attribute, in: 0...60_000).map { .milliseconds(Int64($0)) }
        }
        if let d = delay("initialDelay") { timings.initialDelay = d }
        if let d = delay("browseDelay") { timings.browseDelay = d }
        if let d = delay("browseTimeout") { timings.browseTimeout = d }
        if let d = delay("hoverGrace") { timings.hoverGrace = d }
        if let d = delay("autoHide") { timings.autoHide = d == .zero ? nil : d }
        self.timings = timings
    }
}
