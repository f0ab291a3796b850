#!/usr/bin/python3
"""Runs Orca (Debian's, with --debug-file) against an X11UI program and prints what Orca
spoke. Run it inside its own session bus, on a display of its own:

    DISPLAY=:5 dbus-run-session -- /usr/bin/python3 scripts/orca-probe.py --walk STEP... -- PROGRAM [ARGS...]
    /usr/bin/python3 scripts/orca-probe.py --parse-log LOG NAME    (reads a saved debug log)

Orca's debug output goes to a pseudo-terminal the probe reads. Speech and braille output are
off (no speech-dispatcher is started): Orca still logs each utterance as "SPEECH OUTPUT: '…'"
before it would hand it to a synthesizer. The probe starts at-spi2-core's bus launcher and Orca
with a private home and preferences ("present tooltips" on, as a user who wants tooltips read
sets it), waits until Orca listens (its event listeners are on the accessibility registry),
launches PROGRAM with X11UI_INSPECT on, waits until Orca's log names the application, then
takes the steps in turn, each KEY=TEXT: presses KEY with xdotool (none when KEY is empty) and
waits until Orca speaks a line containing TEXT after the last step's line, or, when TEXT is
"!hidden", until the program reports its tooltip hidden and Orca has received the hiding 0.15 s
before (Orca 48 drops a tooltip's showing received within 0.1 s of another's hiding; when
"!shown", until the program last reported
it shown; when TEXT is empty, for nothing: the
next key comes after this one in the server's order); it prints "STEP", the step and "ok" or
"timeout" as each ends, and stops at the first timeout.

In TEXT, {ROLE_PUSH_BUTTON} (any of pyatspi's role constants) stands for the name this
machine's libatspi gives that role, as Orca speaks it: libatspi 2.46 asks the program ("push
button"), 2.56 names the role itself ("button"). The probe prints "ROLE ROLE_PUSH_BUTTON
button" for each it used.

Orca's log differs between versions, and the parsing below reads both: Orca 43 (Debian 12)
names an application "[application | NAME]" and writes "SPEECH OUTPUT: 'text'{…}"; Orca 48
(Debian 13) writes "[application: 'NAME']" and "SPEECH OUTPUT: 'text' {…}", and logs no
"Startup complete". Nothing here waits for a line only one version writes.

It prints one line per utterance, each "SPOKEN " and the text, with "MARK n" lines where step n
matched; "ERROR " and a reason when Orca never listens, exits, or never sees the program (at
once, not after the steps' timeouts). Orca refuses to start while another Orca of the same
user runs (its --replace would end that one: not done here)."""

import json
import os
import pty
import re
import subprocess
import sys
import tempfile
import threading
import time

# The parsing of Orca's debug log: pure functions, run on saved logs of both versions by
# --parse-log (the tests' fixtures in Tests/Fixtures).

# The utterance, then the voice as a dictionary: 'text'{'established': …} (Orca 43) or
# 'text' {'established': …} (Orca 48), or ' voice=…{…} for a message; a text of several lines
# spans lines of the log.
SPEECH = re.compile(r"SPEECH OUTPUT: '(.*?)'(?: voice=\w+)? ?\{", re.S)


def utterances(log):
    """Each utterance of the log, on one line: a line break as "\\n", without the debug
    output's indentation."""
    return [re.sub(r"\n *", "\\\\n", match.group(1)) for match in SPEECH.finditer(log)]


def names_application(log, name):
    """Whether Orca's log names the application: "[application | NAME]" (Orca 43) or
    "[application: 'NAME']" (Orca 48)."""
    return re.search(r"\[application(?: \| %s\]|: '%s')" % (re.escape(name), re.escape(name)), log) is not None


# Orca's receipt of a tool tip's hiding: "…showing for [tool tip | TEXT] in … (0, 0, 0)" (Orca
# 43) or "…showing for [tool tip: 'TEXT'] in … (0, 0, 0)" (Orca 48).
TOOL_TIP_HIDDEN = re.compile(r"EVENT MANAGER: object:state-changed:showing for \[tool tip[:| ].*\(0, 0, 0\) *$", re.M)


def tool_tips_hidden(log):
    """How many tool tips' hidings Orca has received."""
    return len(TOOL_TIP_HIDDEN.findall(log))


def orca_version(log):
    match = re.search(r"(?:Orca version|ORCA: Launching version) ([0-9][0-9.]*)", log)
    return match.group(1) if match else None


def parse_log(path, name):
    with open(path, encoding="utf-8", errors="replace") as file:
        log = file.read().replace("\r", "")
    print("VERSION %s" % orca_version(log))
    print("APPLICATION %s %s" % (name, "named" if names_application(log, name) else "absent"))
    for utterance in utterances(log):
        print("SPOKEN " + utterance)


def wait(condition, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def main(arguments):
    # --walk STEP... -- PROGRAM [ARGS...]
    steps = []
    if arguments and arguments[0] == "--walk":
        end = arguments.index("--")
        steps = [step.partition("=")[::2] for step in arguments[1:end]]
        arguments = arguments[end + 1:]

    home = tempfile.mkdtemp(prefix="x11ui-orca-")
    # Orca's debug file is block-buffered, so a file on disk shows its lines late (at exit). A
    # terminal is line-buffered: Orca writes to a pseudo-terminal, read here as it goes.
    master, terminal = pty.openpty()
    debug = os.ttyname(terminal)
    received = []

    def read_terminal():
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            received.append(chunk.decode("utf-8", errors="replace"))

    threading.Thread(target=read_terminal, daemon=True).start()
    environment = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home, XDG_DATA_HOME=home)
    inspector = os.path.join(home, "inspect.jsonl")
    # Orca's JSON settings: the defaults, with tooltips presented as they show.
    os.makedirs(os.path.join(home, "prefs"))
    with open(os.path.join(home, "prefs", "user-settings.conf"), "w") as settings:
        json.dump({"general": {"presentToolTips": True, "firstStart": False},
                   "profiles": {"default": {"profile": ["Default", "default"], "presentToolTips": True}},
                   "pronunciations": {}, "keybindings": {}}, settings)
    launcher = subprocess.Popen(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], env=environment)
    orca = subprocess.Popen(
        ["/usr/bin/orca", "-d", "speech", "-d", "braille", "--debug-file", debug,
         "-u", os.path.join(home, "prefs")],
        env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    program = None

    def log():
        return "".join(received).replace("\r", "")

    from gi.repository import Gio, GLib
    a11y = []

    def orca_listens():
        """Whether Orca's event listeners are on the accessibility registry (it registers them
        once it has started, in every version; the program's is no listener)."""
        try:
            if not a11y:
                session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
                address = session.call_sync(
                    "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                    GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 2000, None).unpack()[0]
                a11y.append(Gio.DBusConnection.new_for_address_sync(
                    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
                    | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None))
            pairs = a11y[0].call_sync(
                "org.a11y.atspi.Registry", "/org/a11y/atspi/registry", "org.a11y.atspi.Registry",
                "GetRegisteredEvents", None, None, Gio.DBusCallFlags.NONE, 2000, None).unpack()[0]
        except GLib.Error:
            return False
        # The registry spells it "Window:Activate".
        return any(event.lower().replace(":", "").startswith("windowactivate") for _, event, *rest in pairs)

    def role_names(texts):
        """{ROLE_…} in the steps' texts: the names this machine's libatspi gives those roles for
        the program's objects (what Orca speaks), found by role constant in its tree."""
        import pyatspi
        names = {}
        wanted = set(re.findall(r"\{(ROLE_[A-Z_]+)\}", " ".join(texts)))
        if not wanted:
            return names
        desktop = pyatspi.Registry.getDesktop(0)
        app = next((a for a in desktop if a is not None and a.name == os.path.basename(arguments[0])), None)

        def visit(accessible, depth):
            for constant in wanted - set(names):
                if accessible.getRole() == getattr(pyatspi, constant):
                    names[constant] = accessible.getLocalizedRoleName()
            if depth < 12:
                for child in accessible:
                    if child is not None:
                        visit(child, depth + 1)

        if app is not None:
            visit(app, 0)
        # A role no object has now (a tool tip before one shows): libatspi's own name for it.
        import gi
        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi
        for constant in wanted - set(names):
            names[constant] = Atspi.role_get_localized_name(getattr(pyatspi, constant))
        return names

    def tooltip_states():
        """The program's reports of its tooltip, "shown" or "hidden", in order."""
        try:
            with open(inspector) as lines:
                return [state for line in lines if '"event":"tooltip"' in line
                        for state in ["shown", "hidden"] if '"state":"%s"' % state in line]
        except OSError:
            return []

    try:
        if not wait(lambda: orca.poll() is not None or orca_listens(), 45):
            print("ERROR Orca did not start listening within 45 s (no event listener on the registry): "
                  + log()[-300:].replace("\n", " "), flush=True)
            return 1
        if orca.poll() is not None:
            print("ERROR Orca exited (another Orca of this user running?): " + log()[-300:].replace("\n", " "),
                  flush=True)
            return 1
        print("ORCA %s" % orca_version(log()), flush=True)
        program = subprocess.Popen(arguments, env=dict(environment, X11UI_INSPECT=inspector),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        name = os.path.basename(arguments[0])
        if not wait(lambda: names_application(log(), name) or program.poll() is not None, 30):
            print("ERROR Orca never saw the program within 30 s (its log never names %s)" % name, flush=True)
            return 1
        if program.poll() is not None:
            print("ERROR the program exited with status %d" % program.returncode, flush=True)
            return 1
        roles = role_names([text for _, text in steps])
        for constant, role in sorted(roles.items()):
            print("ROLE %s %s" % (constant, role), flush=True)
        steps = [(key, re.sub(r"\{(ROLE_[A-Z_]+)\}", lambda m: roles[m.group(1)], text)) for key, text in steps]
        # Keys go to the window under the pointer on a bare server.
        subprocess.run(["xdotool", "mousemove", "3", "3"], check=True)
        marks = {}  # step number: the index of the utterance it matched
        after = 0  # utterances before this one belong to earlier steps
        for number, (key, text) in enumerate(steps):
            hidden_before = tooltip_states().count("hidden")
            orca_hidden_before = tool_tips_hidden(log())
            if key:
                subprocess.run(["xdotool", "key", key], check=True)
            if not text:
                found = True
            elif text == "!hidden":
                # Hidden in the program, and the hiding received by Orca 0.15 s ago: Orca 48 drops
                # a tooltip's showing that it receives within 0.1 s of another's hiding.
                found = wait(lambda: tooltip_states().count("hidden") > hidden_before
                             and tool_tips_hidden(log()) > orca_hidden_before, 20)
                since = time.monotonic()
                wait(lambda: time.monotonic() - since >= 0.15, 1)
            elif text == "!shown":
                found = wait(lambda: tooltip_states()[-1:] == ["shown"], 20)
            else:
                found = wait(lambda: any(text in u for u in utterances(log())[after:]), 20)
                if found:
                    after = next(i for i, u in enumerate(utterances(log())) if i >= after and text in u)
                    marks[after] = number
                    after += 1
            print("STEP %d %s=%s %s" % (number, key, text, "ok" if found else "timeout"), flush=True)
            if not found:
                break
        for index, utterance in enumerate(utterances(log())):
            if index in marks:
                print("MARK %d" % marks[index], flush=True)
            print("SPOKEN " + utterance, flush=True)
        return 0
    finally:
        if os.environ.get("ORCA_PROBE_LOG"):  # Orca's whole debug output, for a person to read
            with open(os.environ["ORCA_PROBE_LOG"], "w") as copy:
                copy.write(log())
        for process in [program, orca, launcher]:
            if process is None:
                continue
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--parse-log"]:
        parse_log(sys.argv[2], sys.argv[3])
        sys.exit(0)
    sys.exit(main(sys.argv[1:]))
