import CX11
import X11UI

#if canImport(Glibc)
    import Glibc
#endif

// A plain Xlib program with its own window, its own drawing and its own XNextEvent loop, that
// uses X11UI for two things only: a hover tooltip over a bar chart it draws itself (a delegate
// names the bar under the pointer), and one embedded X11UI button with a click tooltip.

func die(_ message: String) -> Never {
    var bytes = Array("embed-example: \(message)\n".utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// MARK: - The host's own window, made with Xlib

guard let display = XOpenDisplay(nil) else {
    die("cannot open display \"\(String(cString: getenv("DISPLAY") ?? strdup("")))\"")
}
let screen = XDefaultScreen(display)
let root = XRootWindow(display, screen)
let white = XWhitePixel(display, screen)
let black = XBlackPixel(display, screen)
let hostWindow = XCreateSimpleWindow(display, root, 0, 0, 520, 320, 0, black, white)
XSelectInput(display, hostWindow, ExposureMask | KeyPressMask | StructureNotifyMask)
var classHint = XClassHint()
"embed-example".withCString { name in
    "Embed-example".withCString { className in
        classHint.res_name = UnsafeMutablePointer(mutating: name)
        classHint.res_class = UnsafeMutablePointer(mutating: className)
        XSetClassHint(display, hostWindow, &classHint)
    }
}
XStoreName(display, hostWindow, "embed-example")
var deleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", 0)
XSetWMProtocols(display, hostWindow, &deleteWindow, 1)
let gc = XCreateGC(display, hostWindow, 0, nil)

/// A colour by name from the default colormap.
@MainActor func pixel(_ name: String) -> UInt {
    var color = XColor()
    var exact = XColor()
    XAllocNamedColor(display, XDefaultColormap(display, screen), name, &color, &exact)
    return color.pixel
}

struct Bar {
    let quarter: String
    let units: Int
    let color: UInt
}
let bars = [
    Bar(quarter: "Q1", units: 30, color: pixel("steel blue")),
    Bar(quarter: "Q2", units: 42, color: pixel("sea green")),
    Bar(quarter: "Q3", units: 25, color: pixel("dark orange")),
    Bar(quarter: "Q4", units: 55, color: pixel("firebrick")),
]
let chart = Rect(x: 30, y: 40, width: 240, height: 240)
let barWidth = chart.width / Double(bars.count)

@MainActor func barRect(_ index: Int) -> Rect {
    let height = Double(bars[index].units) * 4
    return Rect(
        x: chart.minX + Double(index) * barWidth + 8, y: chart.maxY - height, width: barWidth - 16, height: height)
}

@MainActor func drawHost() {
    XSetForeground(display, gc, white)
    XFillRectangle(display, hostWindow, gc, 0, 0, 520, 320)
    XSetForeground(display, gc, black)
    let title = "Units sold (drawn with Xlib; hover a bar)"
    XDrawString(display, hostWindow, gc, 30, 24, title, Int32(title.utf8.count))
    XDrawLine(display, hostWindow, gc, Int32(chart.minX), Int32(chart.maxY), Int32(chart.maxX), Int32(chart.maxY))
    for (index, bar) in bars.enumerated() {
        let r = barRect(index)
        XSetForeground(display, gc, bar.color)
        XFillRectangle(display, hostWindow, gc, Int32(r.minX), Int32(r.minY), UInt32(r.width), UInt32(r.height))
        XSetForeground(display, gc, black)
        XDrawString(display, hostWindow, gc, Int32(r.minX + 10), Int32(chart.maxY + 16), bar.quarter, 2)
    }
}

// MARK: - X11UI on the host's display

let app = Application(display: display)

/// Names the bar under the pointer; the tooltip's region is that bar's column, so moving to
/// the next bar asks again and the text follows the pointer.
@MainActor
final class ChartToolTips: ToolTipInteractionDelegate {
    func toolTipInteraction(_ interaction: ToolTipInteraction, configurationAt point: Point) -> ToolTipConfiguration? {
        let index = Int(point.x / barWidth)
        guard bars.indices.contains(index) else { return nil }
        let column = Rect(x: Double(index) * barWidth, y: 0, width: barWidth, height: chart.height)
        let bar = bars[index]
        return ToolTipConfiguration(toolTip: "\(bar.quarter): \(bar.units) units", in: column)
    }
}

let foreign = ForeignWindow(windowID: X11WindowID(rawValue: hostWindow), application: app)
let chartRegion = foreign.addRegion(chart)
chartRegion.identifier = "host-chart"
let chartToolTips = ChartToolTips()
let chartTip = ToolTipInteraction()
chartTip.delegate = chartToolTips
chartRegion.addInteraction(chartTip)

var clicks = 0
let button = Button(title: "X11UI button", subtitle: "clicked 0 times")
button.identifier = "embedded-button"
button.action = {
    clicks += 1
    button.subtitle = "clicked \(clicks) time\(clicks == 1 ? "" : "s")"
}
button.addInteraction(
    ToolTipInteraction(trigger: .click, placement: .top, defaultToolTip: "An X11UI view inside an Xlib window"))
let embedded = Window(
    embeddedIn: X11WindowID(rawValue: hostWindow), frame: Rect(x: 300, y: 120, width: 190, height: 90),
    content: VStack(padding: 8) { button }, application: app)
embedded.show()
XMapWindow(display, hostWindow)

// MARK: - The host's loop: XNextEvent, passing events through X11UI

var running = true
var event = XEvent()
while running {
    while XPending(display) > 0 {
        XNextEvent(display, &event)
        if app.handle(event) { continue }  // X11UI's own windows
        switch event.type {
        case Expose where event.xexpose.count == 0:
            drawHost()
        case KeyPress:
            var keysym: KeySym = 0
            XLookupString(&event.xkey, nil, 0, &keysym, nil)
            if keysym == 0x71 { running = false }  // q
        case ClientMessage where UInt(event.xclient.data.l.0) == deleteWindow:
            running = false  // the window manager's close
        default:
            break
        }
    }
    app.processJobs()  // timers (tooltip delays), jobs for the main actor
    app.flush()
    if app.isConnectionLost { die("lost the connection to the X server") }
    // Look at `running` before blocking: q or a close in this batch ends the loop now.
    guard running, XPending(display) == 0 else { continue }
    let timeout = app.nextDeadline.map { Int32(max(0, ($0 - .now()).milliseconds.rounded(.up))) } ?? -1
    var descriptor = pollfd(fd: app.fileDescriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&descriptor, 1, timeout)
}
app.close()  // X11UI lets go of the display; the host closes it
XFreeGC(display, gc)
XCloseDisplay(display)
