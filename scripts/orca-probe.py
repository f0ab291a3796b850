#!/usr/bin/python3
"""Runs Orca (Debian's, with --debug-file) against an X11UI program and prints what Orca
spoke. Run it inside its own session bus, on a display of its own:

    DISPLAY=:5 dbus-run-session -- /usr/bin/python3 scripts/orca-probe.py PROGRAM [ARGS...]

Orca's debug output goes to a pseudo-terminal the probe reads. Speech and braille output are off (no speech-dispatcher is started): Orca still logs each
utterance as "SPEECH OUTPUT: '…'" before it would hand it to a synthesizer. The probe starts
at-spi2-core's bus launcher and Orca with a private home and preferences, launches PROGRAM,
presses Tab once it is on the desktop, waits until Orca has spoken the focused button, and
prints one line per utterance, each "SPOKEN " and the text. Orca refuses to start while
another Orca of the same user runs (its --replace would end that one: not done here)."""

import os
import pty
import subprocess
import sys
import tempfile
import threading
import time

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


try:
    if not wait(lambda: "Startup complete" in log() or orca.poll() is not None, 90):
        print("ERROR Orca did not start")
    if orca.poll() is not None:
        print("ERROR Orca exited (another Orca of this user running?): " + log()[-300:].replace("\n", " "))
    program = subprocess.Popen(sys.argv[1:], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    name = os.path.basename(sys.argv[1])
    if not wait(lambda: "[application | %s]" % name in log(), 30):
        print("ERROR the program never reached Orca")
    # Keys go to the window under the pointer on a bare server.
    subprocess.run(["xdotool", "mousemove", "3", "3"], check=True)
    subprocess.run(["xdotool", "key", "Tab"], check=True)
    wait(lambda: "SPEECH OUTPUT: 'Buy" in log(), 60)
    time.sleep(0.5)  # the rest of the utterance (role, description) follows in the same breath
    for line in log().splitlines():
        start = line.find("SPEECH OUTPUT: '")
        if start >= 0:  # the utterance, then the voice as a dictionary: 'text'{'established': …}
            text = line[start + len("SPEECH OUTPUT: '"):]
            end = text.rfind("'{") if "'{" in text else text.rfind("'")
            print("SPOKEN " + text[:end], flush=True)
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
