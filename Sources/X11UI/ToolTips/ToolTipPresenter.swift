/// Presents tooltips in one override-redirect window per display, a ``ToolTipHostWindow``
/// reused for every tooltip: the window, its back buffer and its shape mask are made once, so a
/// show after the first costs a handful of requests and no round trip.
@MainActor
final class ToolTipPresenter {
    unowned let application: Application
    private(set) var host: ToolTipHostWindow?
    let bubble = ToolTipBubbleView()
    let textLabel = Label("")
    /// The full text of an expansion tooltip (alone in its bubble).
    let expansionLabel = Label("")
    /// A text tooltip with its view's keyboard shortcut.
    let shortcutContent = ToolTipShortcutContent()
    private(set) var mask: ShapeMask?
    private var transientFor: UInt = 0
    private var windowName: String?

    private(set) var isShown = false
    /// The plain text of the content (`_NET_WM_NAME`).
    private(set) var text = ""
    private(set) var geometry: ToolTipGeometry?
    /// What the back buffer holds and the outline the window has, when known.
    private var painted: PaintedContent?
    private var outline: Outline?
    /// The show the hidden window was made ready for (see `prepare`).
    private var prepared: Prepared?
    /// The frame last sent to the server.
    private var sentFrame: Rect?
    /// The fade under way (ToolTipPresenter+Fade.swift).
    var fading = Fading()

    /// A tooltip's outline in window coordinates: the same wherever the window is.
    private struct Outline: Equatable {
        var size: Size
        var edge: ToolTipPlacement.Edge
        var body: Rect
        var arrow: [Point]

        init(_ geometry: ToolTipGeometry) {
            size = geometry.windowFrame.size
            edge = geometry.edge
            body = geometry.body
            arrow = geometry.arrow.map { [$0.tip, $0.base1, $0.base2] } ?? []
        }
    }

    /// What a text tooltip's paint depends on. Rich content is always repainted: a view tree
    /// cannot be compared.
    private struct PaintedContent: Equatable {
        var text: BytewiseString
        var shortcut: String?
        var style: ToolTipStyle
        var appearance: Appearance
        var scale: Double
        var maxLines: Int?
        var composited: Bool
        var outline: Outline
        var expansion: Expansion?
    }

    init(application: Application) {
        self.application = application
        textLabel.identifier = "tooltip-text"
        application.screen.onCompositingChange = { [weak self] in self?.compositingChanged() }
    }

    var windowID: X11WindowID? { host?.windowID }
    /// The popup the tooltips show in, once made.
    var hostWindow: ToolTipHostWindow? { host }

    /// Shows a tooltip, or re-renders it in place when one is already shown; `entrance` says
    /// whether it fades in (ToolTipPresenter+Fade.swift).
    func present(_ request: Request, entrance: Entrance = .atOnce) {
        guard application.connection.isUsable else { return }
        // A window destroyed by another client and not hidden since is not shown any more.
        if host == nil { isShown = false }
        // A tooltip fading out is still on the screen: the new one takes its place at once.
        let onScreen = interruptFadeOut()
        if !isShown, !onScreen, let prepared, prepared == Prepared(request, on: application), let host,
            host.native != nil, let geometry
        {
            // Made ready a moment ago (`prepare`): the window holds this tooltip, placed, sized,
            // shaped and painted. The show is the configure (raising it, in case another window
            // went above it meanwhile) and the map, as any show of content the buffer holds.
            self.prepared = nil
            send(geometry.windowFrame, to: host)
            isShown = true
            beginFadeIn(entrance)
            host.show()
            application.connection.flush()
            return
        }
        prepared = nil
        let host = lay(request)
        // Full opacity once the window holds the new tooltip (not the old one for a frame).
        if onScreen {
            showAtFullOpacity()
        } else if isShown, entrance != .update {
            finishFadeIn()
        }
        if !isShown {
            isShown = true
            if !onScreen {
                beginFadeIn(entrance)
                host.show()
            }
        }
        application.connection.flush()
    }

    /// Makes the hidden window ready for a text tooltip: measured, placed, shaped and painted,
    /// but not mapped. A `present` of the same request soon after (nothing else presented in
    /// between, the monitors and scale the same) is then only the configure and the map: the
    /// tooltip timer prepares when it wakes a moment before a show's deadline, so that the work
    /// is done by the deadline rather than after it. Rich content is not prepared: its views
    /// are made anew for each show.
    func prepare(_ request: Request) {
        // Not while a tooltip fades out: the window is still on the screen.
        guard application.connection.isUsable, !isShown, !isFadingOut, let wanted = Prepared(request, on: application),
            wanted != prepared
        else { return }
        prepared = nil
        lay(request, preparing: true)
        prepared = wanted
        application.connection.flush()
    }

    /// Everything a show does but the map: the content measured and placed, the window's
    /// frame, name, owner and shape, its buffer painted.
    @discardableResult
    private func lay(_ request: Request, preparing: Bool = false) -> ToolTipHostWindow {
        let host = ensureHost()
        let style = request.style
        let frame = Frame(style: style, scale: application.scale, composited: host.isTranslucent)
        let view: View
        let geometry: ToolTipGeometry
        if let expansion = request.expansion {
            (view, geometry) = layOutExpansion(expansion, request: request, frame: frame)
        } else {
            view = contentView(for: request.content, style: style, shortcut: request.shortcut)
            let body = measure(view, in: frame, request: request)
            geometry = ToolTipLayout.place(
                ToolTipLayout.Request(
                    body: body, arrow: frame.arrow, margins: frame.shadowMargin,
                    cornerRadius: style.cornerRadius * frame.scale, source: request.source,
                    placement: request.placement, gap: request.placement.gap * frame.scale,
                    monitors: application.screen.monitors, pointer: request.pointer, avoid: request.avoiding,
                    followsPointer: request.followsPointer, edgeMargin: ToolTipLayout.monitorMargin * frame.scale,
                    keepsEdge: request.keepsEdge, cursor: request.cursor))
        }
        let (geometryChanged, outlineChanged) = adopt(geometry)
        updateWindowState(
            host, geometry: geometry, view: view, owner: request.owner?.rawValue ?? 0, frame: frame,
            geometryChanged: geometryChanged, outlineChanged: outlineChanged, preparing: preparing)
        var paint: PaintedContent?
        if case .text(let string) = request.content, request.ownContent == nil, let outline {
            paint = PaintedContent(
                text: BytewiseString(string), shortcut: request.shortcut, style: style,
                appearance: application.appearance, scale: frame.scale,
                maxLines: request.expansion == nil ? textLabel.maxLines : (view as? Label)?.maxLines,
                composited: frame.composited, outline: outline, expansion: request.expansion)
        }
        repaint(host, unless: paint)
        return host
    }

    /// What the bubble around the content takes at this style and scale.
    struct Frame {
        var style: ToolTipStyle
        var scale: Double
        var composited: Bool
        var padding: EdgeInsets
        var arrow: Size
        var shadowMargin: EdgeInsets

        init(style: ToolTipStyle, scale: Double, composited: Bool) {
            self.style = style
            self.scale = scale
            self.composited = composited
            padding = style.padding.scaled(by: scale)
            arrow = Size(width: style.arrowSize.width * scale, height: style.arrowSize.height * scale)
            shadowMargin = composited ? ToolTipPresenter.shadowMargin(style, scale: scale) : .zero
        }
    }

    /// Puts the content in the bubble and measures it within limits that always leave room
    /// beside the pointer; returns the body's size (content and padding).
    private func measure(_ view: View, in frame: Frame, request: Request) -> Size {
        let style = frame.style
        let monitor = ToolTipLayout.chooseMonitor(
            application.screen.monitors, source: request.source, pointer: request.pointer)
        let padding = frame.padding
        let maxWidth = max(
            16,
            min(style.maxWidth * frame.scale, monitor.width - padding.horizontal - frame.shadowMargin.horizontal - 8))
        let maxHeight = max(
            16,
            min(
                style.maxHeight * frame.scale,
                ToolTipLayout.maxBodyHeight(on: monitor, cursor: request.cursor) - frame.arrow.height
                    - padding.vertical
                    - frame.shadowMargin.vertical))
        bubble.style = style
        bubble.drawsShadow = frame.composited
        bubble.setContent(view)
        if let host, host.content !== bubble { host.content = bubble }
        if view === textLabel || view === shortcutContent {
            let lineHeight = application.resources.fonts.fontSet(for: style.font).lineHeight
            textLabel.maxLines = max(1, Int(maxHeight / max(1, lineHeight)))
        }
        let fitted = view.fittingSize(for: Size(width: maxWidth, height: maxHeight))
        let contentSize = Size(
            width: min(fitted.width, maxWidth).rounded(.up), height: min(fitted.height, maxHeight).rounded(.up))
        return Size(width: contentSize.width + padding.horizontal, height: contentSize.height + padding.vertical)
    }

    /// Takes `geometry` for the bubble; returns whether it, and the outline, changed.
    private func adopt(_ geometry: ToolTipGeometry) -> (geometry: Bool, outline: Bool) {
        let geometryChanged = geometry != self.geometry
        self.geometry = geometry
        let outline = Outline(geometry)
        let outlineChanged = outline != self.outline
        self.outline = outline
        bubble.geometry = geometry
        bubble.setNeedsLayout()
        bubble.setNeedsDisplay()
        return (geometryChanged, outlineChanged)
    }

    /// The window's frame, name, owner and outline; each request only when it changed.
    private func updateWindowState(
        _ host: ToolTipHostWindow, geometry: ToolTipGeometry, view: View, owner: UInt, frame: Frame,
        geometryChanged: Bool, outlineChanged: Bool, preparing: Bool
    ) {
        if preparing {
            // Moved now, so that the server does that work before the deadline; not configured
            // again where the server has it already (the show's configure raises it), nor when
            // it was made just now (its show's configure places it: a first show stays within
            // the 25 requests of the budget).
            if let sent = sentFrame, geometry.windowFrame != sent {
                send(geometry.windowFrame, to: host)
            } else {
                host.adoptFrame(geometry.windowFrame)
            }
        } else if geometryChanged || !isShown {
            send(geometry.windowFrame, to: host)  // a show raises the window
        }
        // A text tooltip's plain text is its label's (no tree to walk, no string joined).
        text = view === textLabel ? textLabel.text : Self.plainText(of: view)
        if windowName != text {
            windowName = text
            host.native?.setUTF8Property(\.netWMName, text)
            host.native?.setUTF8Property(\.wmName, text)
        }
        if transientFor != owner {
            transientFor = owner
            host.native?.setLongProperty(\.wmTransientFor, type: \.window, [Int(owner)])
        }
        if outlineChanged, application.connection.extensions.hasShape {
            let outline = ToolTipBubbleView.outline(
                of: geometry, radius: frame.style.cornerRadius * frame.scale, inset: 0)
            shapeMask().apply(
                outline, size: geometry.windowFrame.size, to: host.xid, inputOnly: frame.composited)
        }
    }

    /// Moves, resizes and raises the window, and notes the frame the server now has.
    private func send(_ frame: Rect, to host: ToolTipHostWindow) {
        host.setFrame(frame)
        sentFrame = frame
    }

    /// Paints the back buffer, unless it already shows `paint` (the same text in the same
    /// outline, maybe elsewhere: the show is then a configure and a map).
    private func repaint(_ host: ToolTipHostWindow, unless paint: PaintedContent?) {
        if paint != nil, paint == painted, host.buffer != nil {
            host.discardDamage()
        } else {
            host.invalidate(host.bounds)
        }
        host.updateIfNeeded()
        painted = paint
    }

    /// Hides the tooltip: it fades out where fades are wanted, else its window unmaps now (it
    /// stays for the next tooltip). Hidden either way from now on, for all but the eye.
    func hide() {
        guard isShown else { return }
        isShown = false
        if let host, host.native != nil, application.connection.isUsable {
            if !beginFadeOut() { host.hide() }
            application.connection.flush()
        }
    }

    /// Destroys the window and its resources (a fade under way ends with it).
    func destroy() {
        stopFade()
        if isShown {
            isShown = false
            host?.hide()
        }
        forgetWindow()
    }

    /// Another client destroyed the window: forget it; the next show makes a new one.
    ///
    /// `isShown` stays set so that the hide that follows is a real one, reported to the
    /// inspector like any other (with no window left to unmap).
    func windowWasDestroyed() {
        forgetWindow()
    }

    /// Closes the host window and forgets everything noted about it: what the next show sends
    /// starts from nothing.
    private func forgetWindow() {
        stopFade()
        fading = Fading()
        host?.close()
        host = nil
        mask = nil
        geometry = nil
        painted = nil
        outline = nil
        prepared = nil
        sentFrame = nil
        windowName = nil
        transientFor = 0
    }

    /// The fonts or the scale changed: what was prepared or painted is not what a show would
    /// make now.
    func fontsDidChange() {
        prepared = nil
        painted = nil
    }

    private func compositingChanged() {
        // Hidden through the controller first, so that the hide is reported like any other.
        if isShown { application.toolTips.hide() }
        application.compositorDidChange()
        destroy()
    }

    private func ensureHost() -> ToolTipHostWindow {
        if let host, host.native != nil { return host }
        let host = ToolTipHostWindow(application: application, translucent: application.screen.isComposited)
        host.windowClass = (Window.programName, "X11UI-ToolTip")
        host.setFrame(Rect(x: -100, y: -100, width: 1, height: 1))
        host.createWithoutMapping()
        self.host = host
        return host
    }

    private func shapeMask() -> ShapeMask {
        if let mask { return mask }
        let created = ShapeMask(connection: application.connection, resources: application.resources)
        mask = created
        return created
    }

    nonisolated fileprivate static func shadowMargin(_ style: ToolTipStyle, scale: Double) -> EdgeInsets {
        guard let shadow = style.shadow else { return .zero }
        let r = (shadow.radius * scale).rounded(.up)
        let dx = shadow.offset.x * scale
        let dy = shadow.offset.y * scale
        return EdgeInsets(
            top: max(0, r - dy).rounded(.up), left: max(0, r - dx).rounded(.up), bottom: (r + max(0, dy)).rounded(.up),
            right: (r + max(0, dx)).rounded(.up))
    }

    /// The content presented last (the text's label, an item row, the caller's view), kept
    /// once hidden: assistive technologies read its labels through the tool tip object.
    var content: View? { bubble.content }
}
