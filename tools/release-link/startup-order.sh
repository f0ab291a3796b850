#!/bin/bash
# Writes the function order the release build links tooltip-demo with (tools/release-link/startup-order.txt,
# read by `make bench` through lld's --symbol-ordering-file): the functions the demo runs from
# exec until its window is up, then those it runs to show and hide tooltips.
#
# The kernel maps an executable's code into a process 64 KB at a time around each page it
# touches (fault-around), so code run at start that is scattered over the executable makes most
# of it resident. Placed together, that code costs about its own size (0.9 MB of code resident
# in the sample scene with a tooltip shown). lld places sections: the release build gives every
# function one (tools/release-link/release-flags.sh), the standard library's private functions a symbol
# the list can name, and the compiler's private functions in X11UI, which callgrind reports by
# address only, a section together (tools/release-link/private-functions.ld).
#
# Measured with valgrind's callgrind (every function that runs, not a sample), on a private Xvfb:
# the sample scene and the whole demo, each first started (dump 1), then the pointer rests on
# views with tooltips, Escape hides them, and icons are clicked (dump 2). The pointer positions
# are those of the default layout at 96 dpi (README's overview screenshot); if the layout
# moves, fewer tooltips show and the order covers less, but it stays correct: a function
# missing from the list is only placed after those on it, and a name that no longer exists is
# ignored.
#
# Usage: tools/release-link/startup-order.sh [RELEASE-TOOLTIP-DEMO] [OUTPUT]   (make startup-order)
set -euo pipefail

demo=$(readlink -f "${1:-.build/release/tooltip-demo}")
output=${2:-tools/release-link/startup-order.txt}
command -v valgrind >/dev/null || { echo "startup-order: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
[ -x "$demo" ] || { echo "startup-order: $demo is not built" >&2; exit 1; }

work=$(mktemp -d)
server=""
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# Debian 12's valgrind (3.19) cannot read the DWARF 5 the Swift toolchain writes and gives up on
# the executable; callgrind names functions from the symbol table, so it profiles a copy
# without the debug sections (same code, same symbols and addresses).
profiled="$work/tooltip-demo"
objcopy --strip-debug "$demo" "$profiled"

# A free display number: the first without a socket or lock file.
number=400
while [ -e "/tmp/.X11-unix/X$number" ] || [ -e "/tmp/.X$number-lock" ]; do number=$((number + 1)); done
Xvfb ":$number" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
server=$!
export DISPLAY=":$number"
for _ in $(seq 200); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.05; done

# Fontconfig's answers are kept between runs (FontMatchStore, here in a folder of this run's):
# each scene starts once first, so that the profiled starts take the path every start after a
# program's first takes (the answers read, no configuration loaded).
export XDG_CACHE_HOME="$work/cache"
warm() {
	"$demo" "$@" &
	local child=$!
	timeout 60 xdotool search --sync --onlyvisible --name "X11UI Tooltips" >/dev/null ||
		{ echo "startup-order: the demo did not show its window" >&2; exit 1; }
	for _ in $(seq 100); do ls "$XDG_CACHE_HOME"/x11ui/font-matches-* >/dev/null 2>&1 && break; sleep 0.1; done
	sleep 1 # the answers of the start's last fonts written too
	kill "$child"
	wait "$child" || true
}
warm --scene sample
warm

# profile NAME "POINTS" "CLICKS" ARGS...: callgrind of the demo with ARGS; rests the pointer on
# each of POINTS ("x,y ...") and clicks each of CLICKS, after dumping what ran until the window
# showed. After each rest the tooltip is hidden by Escape and shown again.
profile() {
	local name=$1 points=$2 clicks=$3
	shift 3
	valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no --compress-pos=no \
		--callgrind-out-file="$work/$name" "$profiled" "$@" 2>"$work/$name.log" &
	local child=$!
	timeout 300 xdotool search --sync --onlyvisible --name "X11UI Tooltips" >/dev/null ||
		{ echo "startup-order: the demo did not show its window" >&2; exit 1; }
	sleep 5 # the first paint and the start-up work after the map, at valgrind's pace
	callgrind_control -d "$child" >/dev/null 2>&1
	local point
	for point in $points; do
		xdotool mousemove "${point%,*}" "${point#*,}"
		sleep 4 # the tooltip's 500 ms delay and its drawing, at valgrind's pace
		xdotool key Escape # hidden by the key, as tooltip-bench hides it
		sleep 2
		xdotool mousemove "${point%,*}" $((${point#*,} + 1))
		sleep 4 # shown again: the show of an unchanged tooltip
	done
	for point in $clicks; do
		xdotool mousemove "${point%,*}" "${point#*,}" click 1
		sleep 4
		xdotool key Escape
		sleep 2
	done
	kill "$child"
	wait "$child" || true
}

# Rest points: the sample scene's green view, the Buy button, the yellow view (tooltip each),
# and an empty place between them so each show starts from nothing. Clicks: the home icon and
# a placement button (click tooltips).
profile sample "190,75 1000,640 60,180 1000,640 190,290" "" --scene sample
profile all "190,75 1000,640" "438,150 715,93"

python3 - "$profiled" "$work" "$output" <<'EOF'
import os, subprocess, sys

demo, work, output = sys.argv[1:]

def functions(path):
    """The demo's own functions in one callgrind dump, in the order the file names them."""
    names, current = [], None
    for line in open(path, errors="replace"):
        if line.startswith("ob="):
            current = line[3:].strip()
        elif line.startswith("fn=") and current == demo:
            name = line[3:].strip().split("'")[0]  # callgrind marks recursion as name'2
            if not name.startswith("0x"):
                names.append(name)
    return names

# Where each function is in the executable profiled: each group below keeps that order, which
# is the link's (a source file's functions together, near the code they share a section with:
# measured, 0.1-0.2 MB less resident than the same functions sorted by name), and is stable
# when the profiled executable was itself linked with the list.
address = {}
for line in subprocess.run(["nm", "--defined-only", demo], capture_output=True, text=True, check=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 3:
        address.setdefault(fields[2], int(fields[0], 16))

# The functions run at start, then those run for tooltips.
order = []
for group in [["sample.1", "all.1"], ["sample", "all"]]:
    names = set()
    for dump in group:
        path = os.path.join(work, dump)  # callgrind writes dump n of OUT to OUT.n, the rest to OUT
        if os.path.exists(path):
            names.update(functions(path))
    order += sorted(names - set(order), key=lambda name: (address.get(name, 1 << 64), name))
if len(order) < 500:
    sys.exit(f"startup-order: only {len(order)} functions recorded; did the demo start?")
with open(output, "w") as f:
    f.write("\n".join(order) + "\n")
print(f"startup-order: {len(order)} functions written to {output}")
EOF
