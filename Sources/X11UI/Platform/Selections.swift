internal import CX11

/// Owns the PRIMARY and CLIPBOARD selections for the application's text and answers other
/// programs that paste it (ICCCM: TARGETS, UTF8_STRING, STRING, TEXT).
@MainActor
final class Selections: EventTarget {
    private unowned let application: Application
    private var window: UInt = 0
    private var contents: [UInt: String] = [:]

    /// The most text offered in one selection.
    static let maxBytes = 1 << 20

    init(application: Application) {
        self.application = application
    }

    /// Offers `text` as the contents of a selection (`PRIMARY` or `CLIPBOARD`).
    func own(_ selection: UInt, text: String, time: UInt) {
        let connection = application.connection
        guard connection.isUsable else { return }
        if window == 0 {
            var attributes = XSetWindowAttributes()
            window = XCreateWindow(
                connection.display, connection.root, -10, -10, 1, 1, 0, 0, UInt32(InputOnly), nil, 0, &attributes)
            connection.adopt(window)
            application.register(self, for: window)
        }
        contents[selection] = String(decoding: text.utf8.prefix(Self.maxBytes), as: UTF8.self)
        XSetSelectionOwner(connection.display, selection, window, time)
    }

    /// The text X11UI offers for a selection, if it owns it.
    func text(of selection: UInt) -> String? { contents[selection] }

    func handle(_ event: Event) -> Bool {
        switch event {
        case .selectionRequest(let request): answer(request)
        case .selectionClear(_, let selection): lost(selection)
        default: break
        }
        return true
    }

    /// Another client took the selection.
    func lost(_ selection: UInt) { contents[selection] = nil }

    /// Converts the selection for a requestor and tells it so.
    func answer(_ request: SelectionConversionRequest) {
        let connection = application.connection
        let atoms = connection.atoms
        // Obsolete clients send property None: use the target as the property (ICCCM 2.2).
        let property = request.property != 0 ? request.property : request.target
        var replied = property
        if let text = contents[request.selection] {
            switch request.target {
            case atoms.targets:
                let list = [atoms.targets, atoms.utf8String, atoms.string, atoms.text].map { Int($0) }
                connection.setLongProperty(request.requestor, property, type: atoms.atom, list)
            case atoms.utf8String, atoms.text:
                connection.setUTF8Property(request.requestor, property, text, limit: Self.maxBytes)
            case atoms.string:
                connection.setStringProperty(request.requestor, property, [text])
            default:
                replied = 0
            }
        } else {
            replied = 0
        }
        var notify = XEvent()
        notify.xselection.type = SelectionNotify
        notify.xselection.requestor = request.requestor
        notify.xselection.selection = request.selection
        notify.xselection.target = request.target
        notify.xselection.property = replied
        notify.xselection.time = request.time
        XSendEvent(connection.display, request.requestor, 0, 0, &notify)
    }

    /// Destroys the selection window.
    func tearDown() {
        guard window != 0 else { return }
        if application.connection.isUsable { XDestroyWindow(application.connection.display, window) }
        application.unregister(window: window)
        window = 0
    }
}
