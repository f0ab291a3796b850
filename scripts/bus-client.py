#!/usr/bin/python3
"""A hostile client of a private session bus, for tests: it owns no name unless told, and sends
what any client of the bus can send to a program on it. The bus is the one named by
DBUS_SESSION_BUS_ADDRESS (a private one the test started). Prints "READY" once connected.
Commands on standard input, one a line, each answered "DONE <command>" once sent (flushed):

    find PID                          prints "NAME <unique name>" of the connection of process PID
    setting-changed DEST NS KEY VALUE a SettingChanged to DEST alone (VALUE: GVariant text)
    name-owner-changed DEST COUNT     COUNT forged NameOwnerChanged of the portal's name to DEST
    big-signal DEST BYTES             a signal to DEST carrying an array of BYTES bytes
    own-a11y ADDRESS                  owns org.a11y.Bus; its GetAddress answers ADDRESS
    quit

Uses Debian's python3-gi (Gio); no other module.
"""

import sys

from gi.repository import Gio, GLib

PORTAL = "org.freedesktop.portal.Desktop"
A11Y_XML = """<node><interface name="org.a11y.Bus">
  <method name="GetAddress"><arg type="s" direction="out"/></method>
</interface></node>"""


def main():
    bus = Gio.DBusConnection.new_for_address_sync(
        GLib.getenv("DBUS_SESSION_BUS_ADDRESS"),
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None,
        None,
    )
    loop = GLib.MainLoop()
    print("READY", flush=True)

    def call_bus(method, parameters, reply_type):
        return bus.call_sync(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, parameters,
            GLib.VariantType(reply_type), Gio.DBusCallFlags.NONE, 5000, None,
        ).unpack()[0]

    def find(pid):
        for name in call_bus("ListNames", None, "(as)"):
            if not name.startswith(":"):
                continue
            try:
                if call_bus("GetConnectionUnixProcessID", GLib.Variant("(s)", (name,)), "(u)") == pid:
                    return name
            except GLib.Error:
                pass
        return ""

    def own_a11y(address):
        info = Gio.DBusNodeInfo.new_for_xml(A11Y_XML).interfaces[0]

        def method_call(connection, sender, path, interface, method, parameters, invocation):
            invocation.return_value(GLib.Variant("(s)", (address,)))

        bus.register_object("/org/a11y/bus", info, method_call, None, None)
        call_bus("RequestName", GLib.Variant("(su)", ("org.a11y.Bus", 4)), "(u)")

    def command(channel, condition):
        line = channel.readline()
        if not line or line.strip() == "quit":
            loop.quit()
            return False
        words = line.split(None, 4)
        if words[0] == "find":
            print(f"NAME {find(int(words[1]))}", flush=True)
        elif words[0] == "setting-changed":
            _, destination, namespace, key, value = words
            bus.emit_signal(
                destination, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Settings", "SettingChanged",
                GLib.Variant("(ssv)", (namespace, key, GLib.Variant.parse(None, value.strip(), None, None))),
            )
        elif words[0] == "name-owner-changed":
            destination, count = words[1], int(words[2])
            for index in range(count):
                bus.emit_signal(
                    destination, "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged",
                    GLib.Variant("(sss)", (PORTAL, "", f":1.{9000 + index % 50}")),
                )
                if index % 1000 == 999:
                    bus.flush_sync(None)
        elif words[0] == "big-signal":
            destination, size = words[1], int(words[2])
            array = GLib.Variant.new_from_bytes(GLib.VariantType("ay"), GLib.Bytes.new(bytes(size)), True)
            payload = GLib.Variant.new_tuple(array)
            bus.emit_signal(destination, "/org/example/Big", "org.example.Big", "Big", payload)
        elif words[0] == "own-a11y":
            own_a11y(words[1].strip())
        bus.flush_sync(None)
        print(f"DONE {line.strip()}", flush=True)
        return True

    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, command)
    loop.run()


if __name__ == "__main__":
    main()
