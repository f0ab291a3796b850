#!/usr/bin/python3
"""A freedesktop settings portal for tests: owns org.freedesktop.portal.Desktop on the session
bus named by DBUS_SESSION_BUS_ADDRESS (a private one the test started) and serves
org.freedesktop.portal.Settings at /org/freedesktop/portal/desktop, as xdg-desktop-portal does:
ReadOne, Read (its value inside one more variant, as the real portal answers), ReadAll, the
`version` property and SettingChanged.

    test-portal.py [--version 1|2] [--silent | --hold] [--pad BYTES] [--activated LOG] [NAMESPACE KEY VALUE]...

VALUE is GVariant text ("uint32 1", "(0.2, 0.4, 0.8)", "'dark'" for a value of the wrong
type). --version 1 is a portal without ReadOne (a call of it is an UnknownMethod error);
--silent takes every call and never answers; --hold answers the calls only when told
("release"); --pad adds a key `x-pad` of BYTES bytes to org.freedesktop.appearance (an answer of
that size). Prints "READY" once it owns the name, and "CALL <method> <key>" for each call
(`CALL ReadAll ns1,ns2` for ReadAll).
--activated is a portal the bus starts on demand: it reads no commands, appends what it would
print to LOG, and "EXIT bus closed" when its bus goes away.
Commands on standard input, one a line, each answered "DONE <command>":

    set NAMESPACE KEY VALUE    sets the value and emits SettingChanged
    emit NAMESPACE KEY VALUE   emits SettingChanged only
    release                    answers the calls held so far (--hold)
    quit

It exits when its bus goes away, whatever it was told, or when its parent ends (but with
--activated: its parent is then the bus's activation helper, which ends once the name is owned).

Uses Debian's python3-gi (Gio); no other module.
"""

import os
import sys

from gi.repository import Gio, GLib

SERVICE = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
INTERFACE = "org.freedesktop.portal.Settings"
NOT_FOUND = "org.freedesktop.portal.Error.NotFound"


def interface_xml(version):
    read_one = (
        """<method name="ReadOne"><arg type="s" direction="in"/><arg type="s" direction="in"/>
           <arg type="v" direction="out"/></method>"""
        if version >= 2
        else ""
    )
    return f"""<node><interface name="{INTERFACE}">
      <method name="ReadAll"><arg type="as" direction="in"/><arg type="a{{sa{{sv}}}}" direction="out"/></method>
      <method name="Read"><arg type="s" direction="in"/><arg type="s" direction="in"/>
        <arg type="v" direction="out"/></method>
      {read_one}
      <signal name="SettingChanged"><arg type="s"/><arg type="s"/><arg type="v"/></signal>
      <property name="version" type="u" access="read"/>
    </interface></node>"""


log = None


def say(line):
    if log:
        with open(log, "a") as file:
            file.write(line + "\n")
    else:
        print(line, flush=True)


def main():
    global log
    arguments = sys.argv[1:]
    version, silent, hold = 2, False, False
    settings = {}
    while arguments:
        option = arguments.pop(0)
        if option == "--version":
            version = int(arguments.pop(0))
        elif option == "--silent":
            silent = True
        elif option == "--hold":
            hold = True
        elif option == "--activated":
            log = arguments.pop(0)
        elif option == "--pad":
            pad = int(arguments.pop(0))
            settings.setdefault("org.freedesktop.appearance", {})["x-pad"] = GLib.Variant("s", "x" * pad)
        else:
            namespace, key, value = option, arguments.pop(0), arguments.pop(0)
            settings.setdefault(namespace, {})[key] = GLib.Variant.parse(None, value, None, None)

    address = GLib.getenv("DBUS_SESSION_BUS_ADDRESS")
    bus = Gio.DBusConnection.new_for_address_sync(
        address,
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None,
        None,
    )
    info = Gio.DBusNodeInfo.new_for_xml(interface_xml(version)).interfaces[0]
    held = []  # the calls a silent portal never answers, and a holding one answers when told

    def method_call(connection, sender, path, interface, method, parameters, invocation):
        values = parameters.unpack()
        say(f"CALL {method} {values[1] if len(values) > 1 else ','.join(values[0])}")
        if silent or hold:
            held.append((method, values, invocation))
            return
        answer(method, values, invocation)

    def answer(method, values, invocation):
        if method == "ReadAll":
            wanted = values[0]
            chosen = {
                namespace: keys
                for namespace, keys in settings.items()
                if not wanted or "" in wanted or namespace in wanted
            }
            invocation.return_value(GLib.Variant("(a{sa{sv}})", (chosen,)))
            return
        namespace, key = values
        value = settings.get(namespace, {}).get(key)
        if value is None:
            invocation.return_dbus_error(NOT_FOUND, "Requested setting not found")
        elif method == "Read":
            invocation.return_value(GLib.Variant("(v)", (GLib.Variant("v", value),)))
        else:
            invocation.return_value(GLib.Variant("(v)", (value,)))

    def get_property(connection, sender, path, interface, name):
        return GLib.Variant("u", version)

    bus.register_object(PATH, info, method_call, get_property, None)

    loop = GLib.MainLoop()

    def emit(namespace, key, value):
        bus.emit_signal(None, PATH, INTERFACE, "SettingChanged", GLib.Variant("(ssv)", (namespace, key, value)))
        bus.flush_sync(None)

    def command(channel, condition):
        line = channel.readline()
        if not line or line.strip() == "quit":
            loop.quit()
            return False
        words = line.split(None, 3)
        if words == ["release"] and not silent:
            for call in held:
                answer(*call)
            held.clear()
            bus.flush_sync(None)
            say(f"DONE {line.strip()}")
        elif len(words) == 4 and words[0] in ("set", "emit"):
            value = GLib.Variant.parse(None, words[3].strip(), None, None)
            if words[0] == "set":
                settings.setdefault(words[1], {})[words[2]] = value
            emit(words[1], words[2], value)
            say(f"DONE {line.strip()}")
        return True

    def acquired(connection, name):
        say("READY")

    def lost(connection, name):
        say("LOST")
        loop.quit()

    # It never outlives its bus, nor the test that started it: a test that fails or is stopped
    # before it says "quit" leaves no portal behind. The bus's end closes the connection; the
    # parent's makes its pidfd readable. A portal the bus started (--activated) lives as long
    # as the bus: its parent is dbus-daemon's activation helper, which ends as soon as the
    # portal owns its name, while the calls that started it are still on their way to it.
    def gone(reason):
        if log:
            say(f"EXIT {reason}")
        loop.quit()
        return False

    bus.connect("closed", lambda *_: gone("bus closed"))
    if not log:
        parent = os.getppid()
        try:
            pidfd = os.pidfd_open(parent)
            GLib.io_add_watch(
                GLib.IOChannel.unix_new(pidfd), GLib.IO_IN | GLib.IO_HUP, lambda *_: gone("parent ended")
            )
        except OSError:  # no pidfd (a kernel before 5.3): the parent is checked now and then
            GLib.timeout_add_seconds(1, lambda: gone("parent ended") if os.getppid() != parent else True)
        if os.getppid() != parent:  # the parent went before the watch was set
            return

    Gio.bus_own_name_on_connection(bus, SERVICE, Gio.BusNameOwnerFlags.DO_NOT_QUEUE, acquired, lost)
    if not log:
        GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, command)
    loop.run()


if __name__ == "__main__":
    main()
