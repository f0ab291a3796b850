#!/usr/bin/python3
"""Runs Orca (Debian's, with --debug-file) against an X11UI program and prints what Orca
spoke. Run it inside its own session bus, on a display of its own:

    DISPLAY=:5 dbus-run-session -- /usr/bin/python3 scripts/orca-probe.py [--walk STEP...] -- PROGRAM [ARGS...]
    DISPLAY=:5 dbus-run-session -- /usr/bin/python3 scripts/orca-probe.py PROGRAM [ARGS...]

Orca's debug output goes to a pseudo-terminal the probe reads. Speech and braille output are
off (no speech-dispatcher is started): Orca still logs each utterance as "SPEECH OUTPUT: '…'"
before it would hand it to a synthesizer. The probe starts at-spi2-core's bus launcher and Orca
with a private home and preferences ("present tooltips" on, as a user who wants tooltips read
sets it), launches PROGRAM with X11UI_INSPECT on, and once it is on the desktop:

- without --walk, presses Tab and waits until Orca has spoken the focused button;
- with --walk, takes the steps in turn, each KEY=TEXT: presses KEY with xdotool (none when
  KEY is empty) and waits until Orca speaks a line containing TEXT after the last step's line,
  or, when TEXT is "!hidden", until the program reports its tooltip hidden (when TEXT is empty,
  for nothing: the next key comes after this one in the server's order); it prints "STEP",
  the step and "ok" or "timeout" as each ends.

It prints one line per utterance, each "SPOKEN " and the text, with "MARK n" lines where step n
matched. Orca refuses to start while another Orca of the same user runs (its --replace would
end that one: not done here)."""

import os
import pty
import re
import subprocess
import sys
import tempfile
import json
import threading
import time

# --walk STEP... -- PROGRAM [ARGS...]
steps = []
arguments = sys.argv[1:]
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


def wait(condition, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def utterances():
    # The utterance, then the voice as a dictionary: 'text'{'established': …}, or ' voice=…{…}
    # for a message; a text of several lines spans lines of the log.
    # Printed on one line: a line break as "\\n", without the debug output's indentation.
    return [re.sub(r"\n *", "\\\\n", match.group(1))
            for match in re.finditer(r"SPEECH OUTPUT: '(.*?)'(?: voice=\w+)?\{", log(), re.S)]


def hidden_count():
    try:
        with open(inspector) as lines:
            return sum(1 for line in lines if '"event":"tooltip"' in line and '"state":"hidden"' in line)
    except OSError:
        return 0


try:
    if not wait(lambda: "Startup complete" in log() or orca.poll() is not None, 90):
        print("ERROR Orca did not start")
    if orca.poll() is not None:
        print("ERROR Orca exited (another Orca of this user running?): " + log()[-300:].replace("\n", " "))
    program = subprocess.Popen(arguments, env=dict(environment, X11UI_INSPECT=inspector),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    name = os.path.basename(arguments[0])
    if not wait(lambda: "[application | %s]" % name in log(), 30):
        print("ERROR the program never reached Orca")
    # Keys go to the window under the pointer on a bare server.
    subprocess.run(["xdotool", "mousemove", "3", "3"], check=True)
    marks = {}  # step number: the index of the utterance it matched
    if not steps:
        subprocess.run(["xdotool", "key", "Tab"], check=True)
        wait(lambda: "SPEECH OUTPUT: 'Buy" in log(), 60)
        time.sleep(0.5)  # the rest of the utterance (role, description) follows in the same breath
    after = 0  # utterances before this one belong to earlier steps
    for number, (key, text) in enumerate(steps):
        hidden_before = hidden_count()
        if key:
            subprocess.run(["xdotool", "key", key], check=True)
        if not text:
            found = True
        elif text == "!hidden":
            found = wait(lambda: hidden_count() > hidden_before, 20)
        else:
            found = wait(lambda: any(text in u for u in utterances()[after:]), 20)
            if found:
                after = next(i for i, u in enumerate(utterances()) if i >= after and text in u)
                marks[after] = number
                after += 1
        print("STEP %d %s=%s %s" % (number, key, text, "ok" if found else "timeout"), flush=True)
    if steps:
        time.sleep(0.5)  # what Orca says after the last step in the same breath
    if os.environ.get("ORCA_PROBE_LOG"):  # Orca's whole debug output, for a person to read
        with open(os.environ["ORCA_PROBE_LOG"], "w") as copy:
            copy.write(log())
    for index, utterance in enumerate(utterances()):
        if index in marks:
            print("MARK %d" % marks[index], flush=True)
        print("SPOKEN " + utterance, flush=True)
finally:
    for process in [program, orca, launcher]:
        if process is None:
            continue
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
