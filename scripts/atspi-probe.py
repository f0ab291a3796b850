#!/usr/bin/python3
"""Reads an X11UI program through AT-SPI2 as a screen reader does, and prints what it saw as
JSON on stdout. Run it inside its own session bus, on a display of its own:

    DISPLAY=:5 dbus-run-session -- /usr/bin/python3 scripts/atspi-probe.py [--tree-only] PROGRAM [ARGS...]
    ... scripts/atspi-probe.py --cache-listeners tooltip-demo
    ... scripts/atspi-probe.py --open-events tooltip-demo

--open-events records only the events of the program's opening (window:activate,
object:state-changed:active and :focused, focus:) for ten seconds at most, then reports them.

--cache-listeners registers no event listener at first: a tooltip shown by Tab must bring no
cache signal; then one listener is registered, and the next tooltip must bring AddAccessible.

It prints one line, "ATSPI-REPORT " and the JSON (the registry writes to stdout too).
It starts at-spi2-core's bus launcher (the registry comes by D-Bus activation), registers
listeners, launches PROGRAM, waits for it on the desktop, dumps its tree and its Cache
(org.a11y.atspi.Cache.GetItems, called with GDBus as libatspi calls it), presses Tab with
xdotool and records the focus events, the tool tip object that follows and the cache's
AddAccessible / RemoveAccessible signals, then clicks the cart button through the Action
interface and records its description changes, and reads the text and text attributes of the
text view, of a label and of the shown tool tip (the cart's as Space changes it in place). The integration tests (AccessibilityTests) judge the report."""

import json
import os
import subprocess
import sys
import time

from gi.repository import Gio, GLib

launcher = subprocess.Popen(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"])

import pyatspi  # noqa: E402  (after the launcher, so libatspi finds the bus)

events = []

# Roles as pyatspi's constant names ("ROLE_PUSH_BUTTON"), from the role's number: the English
# names differ between releases (libatspi 2.46 asks the program and hears "push button", 2.56
# names the role itself "button"), the numbers and pyatspi's constants do not.
ROLES = {int(getattr(pyatspi, name)): name for name in dir(pyatspi)
         if name.startswith("ROLE_") and isinstance(getattr(pyatspi, name), int)}


def role_of(accessible):
    role = int(accessible.getRole())
    return ROLES.get(role, "ROLE_%d" % role)



def on_event(event):
    try:
        source = event.source
        events.append({
            "type": event.type, "source": source.name if source else None,
            "role": role_of(source) if source else None, "detail1": event.detail1,
            "data": event.any_data if isinstance(event.any_data, (str, int)) else None,
        })
    except Exception as error:  # a source that went away
        events.append({"type": event.type, "error": str(error)})


# --cache-listeners: no listener at first (the program must send no cache signal), then one.
cache_listeners = sys.argv[1] == "--cache-listeners"
if cache_listeners:
    del sys.argv[1]
# --open-events: only records the events of the program's opening (its window's activation and
# its focused control, which a window manager gives before the program reaches the bus).
open_events = sys.argv[1] == "--open-events"
if open_events:
    del sys.argv[1]
    for name in ["focus:", "object:state-changed:focused", "object:state-changed:active", "window:activate"]:
        pyatspi.Registry.registerEventListener(on_event, name)
elif not cache_listeners:
    for name in ["focus:", "object:state-changed:focused", "object:state-changed:showing",
                 "object:property-change:accessible-description", "object:children-changed",
                 "window:activate", "object:text-selection-changed", "object:text-changed",
                 "object:property-change:accessible-name"]:
        pyatspi.Registry.registerEventListener(on_event, name)

context = GLib.MainContext.default()

# A plain D-Bus connection to the accessibility bus, beside libatspi's: the cache's method and
# signals as they are on the bus.
session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
a11y_address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                                 GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
a11y = Gio.DBusConnection.new_for_address_sync(
    a11y_address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
    None, None)
cache_signals = []


def cache_item(item):
    (obj, app, parent, index, child_count, interfaces, name, role, description, states) = item
    return {"bus": obj[0], "path": obj[1], "app": list(app), "parent": list(parent), "index": index,
            "childCount": child_count, "interfaces": sorted(i.replace("org.a11y.atspi.", "") for i in interfaces),
            "name": name, "role": role, "description": description, "states": list(states)}


def on_cache_signal(connection, sender, path, interface, member, parameters):
    # GLib wraps the arguments in a tuple: the signature of the signal's one argument is inside.
    entry = {"member": member, "sender": sender, "objectPath": path, "signature": parameters.get_type_string()[1:-1]}
    try:
        if member == "AddAccessible":
            entry.update(cache_item(parameters.unpack()[0]))
        elif member == "RemoveAccessible":
            entry["bus"], entry["path"] = parameters.unpack()[0]
    except Exception as error:  # a signature other than the one expected
        entry["error"] = repr(error)
    cache_signals.append(entry)


a11y.signal_subscribe(None, "org.a11y.atspi.Cache", None, None, None, Gio.DBusSignalFlags.NONE, on_cache_signal)


def bus_name_of(program_name):
    """The unique bus name of the application named `program_name`, from the registry's children."""
    children = a11y.call_sync("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
                              "org.a11y.atspi.Accessible", "GetChildren", None, None,
                              Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
    for bus, path in children:
        name = a11y.call_sync(bus, path, "org.freedesktop.DBus.Properties", "Get",
                              GLib.Variant("(ss)", ("org.a11y.atspi.Accessible", "Name")), None,
                              Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
        if name == program_name:
            return bus
    return None


def get_items(bus):
    reply = a11y.call_sync(bus, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems", None, None,
                           Gio.DBusCallFlags.NONE, 5000, None)
    return {"signature": reply.get_type_string()[1:-1], "items": [cache_item(i) for i in reply.unpack()[0]]}


def pump(condition, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        while context.pending():
            context.iteration(False)
        value = condition()
        if value:
            return value
        context.iteration(False)
        time.sleep(0.01)
    return condition()


# --tree-only: dump the tree of any program and stop (the scenario below is the demo's).
tree_only = sys.argv[1] == "--tree-only"
if tree_only:
    del sys.argv[1]
program = subprocess.Popen(sys.argv[1:])
report = {"errors": []}


def find_app():
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.name == os.path.basename(sys.argv[1]):
            return app
    return None


def node(accessible, depth=0):
    states = accessible.getState()
    entry = {
        "role": role_of(accessible), "name": accessible.name, "description": accessible.description,
        "id": accessible.accessibleId if hasattr(accessible, "accessibleId") else None,
        "states": sorted(pyatspi.stateToString(s) for s in states.getStates()),
        "interfaces": sorted(accessible.get_interfaces()),
        "indexInParent": accessible.getIndexInParent(),
    }
    try:
        extents = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        entry["extents"] = [extents.x, extents.y, extents.width, extents.height]
    except NotImplementedError:
        pass
    try:
        action = accessible.queryAction()
        entry["actions"] = [action.getName(i) for i in range(action.nActions)]
        entry["keyBindings"] = [action.getKeyBinding(i) for i in range(action.nActions)]
    except NotImplementedError:
        pass
    entry["relations"] = [
        {"type": str(r.getRelationType()), "targets": [r.getTarget(i).name for i in range(r.getNTargets())]}
        for r in accessible.getRelationSet()
    ]
    if depth < 12:
        entry["children"] = [node(accessible.getChildAtIndex(i), depth + 1) for i in range(accessible.childCount)]
    return entry


def text_of(accessible):
    """What the Text interface says of an object: its text, a word, a sentence, extents and
    attributes, as Orca's flat review and "where am I" read them."""
    t = accessible.queryText()
    attributes, start, end = t.getAttributeRun(0, True)
    return {"text": t.getText(0, -1), "characterCount": t.characterCount, "caret": t.caretOffset,
            "wordAt7": list(t.getTextAtOffset(7, pyatspi.TEXT_BOUNDARY_WORD_START)),
            "sentenceAt7": list(t.getStringAtOffset(7, pyatspi.TEXT_GRANULARITY_SENTENCE)),
            "lineAt0": list(t.getStringAtOffset(0, pyatspi.TEXT_GRANULARITY_LINE)),
            "firstCharacter": list(t.getCharacterExtents(0, pyatspi.DESKTOP_COORDS)),
            "firstCharacterInWindow": list(t.getCharacterExtents(0, pyatspi.WINDOW_COORDS)),
            "range": list(t.getRangeExtents(0, t.characterCount, pyatspi.DESKTOP_COORDS)),
            "extents": list(accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)),
            "attributes": dict(a.split(":", 1) for a in attributes), "run": [start, end],
            "default": dict(a.split(":", 1) for a in t.getDefaultAttributes().split(";") if a)}


def find(accessible, identifier):
    if accessible.accessibleId == identifier:
        return accessible
    for index in range(accessible.childCount):
        found = find(accessible.getChildAtIndex(index), identifier)
        if found is not None:
            return found
    return None


def settle(bus):
    """Round trips to the program on the connection the cache signals come by: a signal it sent
    before answering has arrived and been dispatched when this returns. Returns the items."""
    items = get_items(bus)["items"]
    while context.pending():
        context.iteration(False)
    return items


def tool_tip_items(bus):
    return [i for i in settle(bus) if i["role"] == 64]


def check_cache_listeners(app):
    bus = bus_name_of(os.path.basename(sys.argv[1]))
    report["busName"] = bus
    pump(lambda: (lambda b: b is not None and b.queryComponent().getExtents(0).width > 0)(find(app, "buy-button")), 5)
    subprocess.run(["xdotool", "mousemove", "3", "3"], check=True)
    # The window opened with the Buy button focused: Tab moves on to the cart and Shift-Tab
    # comes back, and the Buy button's focus tooltip shows: the tool tip is in the tree, and no
    # cache signal came for it, as no client registered a listener.
    subprocess.run(["xdotool", "key", "Tab"], check=True)
    subprocess.run(["xdotool", "key", "shift+Tab"], check=True)
    report["quietToolTip"] = [i["name"] for i in pump(lambda: tool_tip_items(bus), 5) or []]
    report["quietSignals"] = list(cache_signals)
    # One listener: once the program knows of it, the tool tip's going reaches the cache (the
    # cart's tooltip takes the Buy button's place; Tab to the text view hides it).
    event = "object:state-changed:focused"
    pyatspi.Registry.registerEventListener(on_event, event)

    def registered():
        pairs = a11y.call_sync("org.a11y.atspi.Registry", "/org/a11y/atspi/registry", "org.a11y.atspi.Registry",
                               "GetRegisteredEvents", None, None, Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
        # The registry spells it "Object:StateChanged:Focused".
        def plain(name):
            return name.lower().replace("-", "").replace("_", "")
        return any(plain(e) == plain(event) for _, e, *rest in pairs)

    report["registered"] = bool(pump(registered, 5))
    settle(bus)  # the registry told the program before it answered: the program knows now
    for _ in range(2):
        subprocess.run(["xdotool", "key", "Tab"], check=True)
        if pump(lambda: len(cache_signals) > 0, 3):
            break
    report["signalsWithListener"] = list(cache_signals)
    report["eventsWithListener"] = list(events)


try:
    app = pump(find_app, 20)
    if app is None:
        raise RuntimeError("the program never appeared on the desktop")
    report["parentRole"] = role_of(app.parent) if app.parent else None
    if open_events:
        def opened():
            types = [e["type"] for e in events]
            return "window:activate" in types and any(
                t == "object:state-changed:focused" for t, e in zip(types, events) if e.get("detail1") == 1)
        pump(opened, 10)
        raise SystemExit
    if tree_only:
        pump(lambda: app.childCount > 0, 5)
        report["tree"] = node(app)
        raise SystemExit
    if cache_listeners:
        check_cache_listeners(app)
        raise SystemExit
    # The layout settles after the window maps: wait for the buy button to have a place.
    pump(lambda: (lambda b: b is not None and b.queryComponent().getExtents(0).width > 0)(find(app, "buy-button")), 5)
    report["tree"] = node(app)
    bus = bus_name_of(os.path.basename(sys.argv[1]))
    report["busName"] = bus
    report["cache"] = get_items(bus)

    # Keyboard focus: keys go to the window under the pointer on a bare server.
    subprocess.run(["xdotool", "mousemove", "3", "3"], check=True)
    focus = []
    # The window opened with the Buy button focused (no focus event, the window was not active
    # yet): Tab moves on to the cart; then Shift-Tab back to Buy, the cart, Check Out (enabled by
    # Space on the cart), the text view.
    before = len([e for e in events if e["type"].startswith("focus")])
    subprocess.run(["xdotool", "key", "Tab"], check=True)
    pump(lambda: len([e for e in events if e["type"].startswith("focus")]) > before, 5)
    for key in ["shift+Tab", "Tab", "Tab", "Tab"]:
        before = len([e for e in events if e["type"].startswith("focus")])
        subprocess.run(["xdotool", "key", key], check=True)
        pump(lambda: len([e for e in events if e["type"].startswith("focus")]) > before, 5)
        focused = [e for e in events if e["type"].startswith("focus")]
        focus.append(focused[-1]["source"] if len(focused) > before else None)
        if len(focus) == 1:
            # The focus tooltip of the first button: a tool tip object while it shows.
            tip = pump(lambda: next((c for c in app if c is not None and c.getRole() == pyatspi.ROLE_TOOL_TIP), None), 5)
            if tip is not None:
                report["toolTip"] = node(tip)
                report["toolTipText"] = text_of(tip)
                buy = find(app, "buy-button")
                report["buyWhileShown"] = node(buy, 99)
        if len(focus) == 2:
            # The cart's focus tooltip; Space adds an item and the shown tooltip says so in place.
            def cart_tip():
                return next((c for c in app if c is not None and c.getRole() == pyatspi.ROLE_TOOL_TIP
                             and "cart" in c.name), None)
            tip = pump(cart_tip, 5)
            if tip is not None:
                before = len(events)
                subprocess.run(["xdotool", "key", "space"], check=True)
                pump(lambda: any(e["type"] == "object:text-changed:insert" for e in events[before:]), 5)
                report["cartToolTipChange"] = [e for e in events[before:] if e.get("role") == "ROLE_TOOL_TIP"]
                tip = cart_tip()
                report["cartToolTipText"] = text_of(tip) if tip is not None else None
    report["focus"] = focus
    # The tooltip's RemoveAccessible follows its hiding.
    pump(lambda: any(c["member"] == "RemoveAccessible" for c in cache_signals), 3)
    report["toolTipAfterFocusMoved"] = [c.name for c in app if c is not None and c.getRole() == pyatspi.ROLE_TOOL_TIP]
    # Hidden, the tool tip object keeps the text it showed last (its name and its Text).
    def tool_tip_call(interface, member, arguments):
        return a11y.call_sync(bus, "/org/a11y/atspi/accessible/tooltip", interface, member, arguments, None,
                              Gio.DBusCallFlags.NONE, 5000, None).unpack()
    report["hiddenToolTip"] = {
        "name": tool_tip_call("org.freedesktop.DBus.Properties", "Get",
                              GLib.Variant("(ss)", ("org.a11y.atspi.Accessible", "Name")))[0],
        "text": tool_tip_call("org.a11y.atspi.Text", "GetText", GLib.Variant("(ii)", (0, -1)))[0],
        "states": list(tool_tip_call("org.a11y.atspi.Accessible", "GetState", None)[0]),
    }

    # The cart's description follows its count, as a live update.
    cart = find(app, "cart-button")
    descriptions = [cart.description]
    for _ in range(2):
        before = len(events)
        cart.queryAction().doAction(0)
        pump(lambda: any(e["type"].startswith("object:property-change:accessible-description")
                         for e in events[before:]), 5)
        changed = [e for e in events[before:] if e["type"].startswith("object:property-change:accessible-desc")]
        descriptions.append(changed[-1]["data"] if changed else None)
    report["cartDescriptions"] = descriptions
    report["cartDescriptionRead"] = cart.description

    text = find(app, "text-view")
    if text is not None:
        t = text.queryText()
        t.setSelection(0, 0, 8)
        pump(lambda: any(e["type"].startswith("object:text-selection-changed") for e in events), 3)
        first = list(t.getCharacterExtents(0, pyatspi.DESKTOP_COORDS))
        tenth = list(t.getCharacterExtents(10, pyatspi.DESKTOP_COORDS))
        report["text"] = {"characterCount": t.characterCount, "start": t.getText(0, 20),
                          "selection": list(t.getSelection(0)), "nSelections": t.getNSelections(),
                          "firstCharacter": first, "tenthCharacter": tenth,
                          "offsetAtTenth": t.getOffsetAtPoint(tenth[0] + 1, tenth[1] + tenth[3] // 2,
                                                              pyatspi.DESKTOP_COORDS)}
        attributes, start, end = t.getAttributeRun(5, False)
        report["textAttributes"] = {
            "run": {"attributes": dict(a.split(":", 1) for a in attributes), "start": start, "end": end},
            "default": dict(a.split(":", 1) for a in t.getDefaultAttributes().split(";") if a),
            "weightAt5": t.getAttributeValue(5, "weight"),
            "attributesAt5": list(t.getAttributes(5)[1:]),
        }
    # A label offers its text and attributes too (read-only: no selection).
    label = find(app, "label")
    if label is not None:
        t = label.queryText()
        attributes, start, end = t.getAttributeRun(0, True)
        report["labelText"] = {"text": t.getText(0, -1), "characterCount": t.characterCount,
                               "nSelections": t.getNSelections(),
                               "firstCharacter": list(t.getCharacterExtents(0, pyatspi.DESKTOP_COORDS)),
                               "attributes": dict(a.split(":", 1) for a in attributes), "run": [start, end]}
    # A rich tooltip of two items ("6" and "31"): its Text is their titles joined by a space,
    # each character where its label draws it.
    items = find(app, "items-button")
    if items is not None:
        items.queryAction().doAction(1)  # toggle tooltip
        tip = pump(lambda: next((c for c in app if c is not None and c.getRole() == pyatspi.ROLE_TOOL_TIP
                                 and c.name == "6 31"), None), 5)
        if tip is not None:
            t = tip.queryText()
            six = list(t.getCharacterExtents(0, pyatspi.DESKTOP_COORDS))
            three = list(t.getCharacterExtents(2, pyatspi.DESKTOP_COORDS))
            report["itemsToolTipText"] = dict(
                text_of(tip), six=six, three=three,
                offsetAtThree=t.getOffsetAtPoint(three[0] + 1, three[1] + three[3] // 2,
                                                 pyatspi.DESKTOP_COORDS))
        items.queryAction().doAction(1)
    # Cut text (issue 29): its expansion tooltip only repeats the view's name, so it is no tool
    # tip object; a cut button's bubble also holds its own tooltip, which is one, saying only
    # that. The tooltip window's name says what showed.
    expansions = {}
    for identifier in ["truncated-label", "truncated-button"]:
        view = find(app, identifier)
        if view is None:
            continue
        extents = view.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        subprocess.run(["xdotool", "mousemove", "3", "3"], check=True)
        pump(lambda: False, 0.7)  # out of browse mode
        subprocess.run(["xdotool", "mousemove", str(extents.x + 40), str(extents.y + extents.height // 2)],
                       check=True)
        tip = pump(lambda: next((c for c in app if c is not None and c.getRole() == pyatspi.ROLE_TOOL_TIP), None), 1.5)
        shown = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "X11UI-ToolTip", "getwindowname",
                                "%@"], capture_output=True, text=True).stdout.strip()
        expansions[identifier] = {"name": view.name, "description": view.description, "shown": shown,
                                  "toolTip": tip.name if tip is not None else None}
    report["expansions"] = expansions
except SystemExit:
    pass
except Exception as error:
    report["errors"].append(repr(error))
finally:
    report["events"] = events
    report["cacheSignals"] = cache_signals
    program.terminate()
    try:
        program.wait(timeout=5)
    except subprocess.TimeoutExpired:
        program.kill()
    launcher.terminate()
    print("ATSPI-REPORT " + json.dumps(report), flush=True)
