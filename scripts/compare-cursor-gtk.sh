#!/usr/bin/env bash
# compare-cursor-gtk.sh [SIZES...]: GTK 3 and X11UI tooltips against large cursors, on the same
# screen with the same cursor theme (Debian's Adwaita) and size (24, 48 and 96 px unless given).
#
# For each size, on a private 1366×768 Xvfb with XCURSOR_THEME=Adwaita XCURSOR_SIZE=size:
# GTK 3's one-button program (scripts/gtk-peer.c) is hovered at its button's centre, and
# X11UI's demo at the sample scene's label and Buy button; scripts/tooltip-under-cursor.c
# prints where each tooltip lies against the cursor's visible pixels (overlap 0 px: nothing
# of the tooltip lies under the cursor; gap: how far below the cursor's tail it starts).
# `make compare-cursor` installs what it needs, builds the demo and runs it; X11UI_DEMO names
# another build of the demo. Output: one line per tooltip, also in .build/compare-cursor.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(24 48 96)
out=.build/compare-cursor
mkdir -p "$out"
cc -O2 -o "$out/gtk-peer" scripts/gtk-peer.c $(pkg-config --cflags --libs gtk+-3.0)
cc -O2 -o "$out/tooltip-under-cursor" scripts/tooltip-under-cursor.c -lX11 -lXtst -lXfixes
demo=${X11UI_DEMO:-$(swift build --show-bin-path)/tooltip-demo}
[ -x "$demo" ] || { echo "compare-cursor-gtk: build the demo first (swift build)" >&2; exit 1; }

# A display number no server uses.
number=90
while [ -e /tmp/.X11-unix/X$number ] || [ -e /tmp/.X$number-lock ]; do number=$((number + 1)); done
export DISPLAY=:$number
server=
program=
stop() {
	local pid
	for pid in $program $server; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	program= server=
}
trap stop EXIT

start_server() {
	# -noreset: the root window's cursor stays when xsetroot disconnects.
	Xvfb "$DISPLAY" -screen 0 1366x768x24 -nolisten tcp -noreset >/dev/null 2>&1 &
	server=$!
	for _ in $(seq 100); do
		if xdotool getdisplaygeometry >/dev/null 2>&1; then
			# The desktop's arrow on the root window, as a session sets it: a window that sets no
			# cursor of its own (GTK's) shows it.
			xsetroot -cursor_name left_ptr
			return 0
		fi
		sleep 0.05
	done
	echo "compare-cursor-gtk: Xvfb did not start" >&2
	exit 1
}

# wait_for CMD...: runs CMD until it succeeds, for 10 s at most.
wait_for() {
	for _ in $(seq 200); do "$@" >/dev/null 2>&1 && return 0; sleep 0.05; done
	return 1
}

for size in "${sizes[@]}"; do
	export XCURSOR_THEME=Adwaita XCURSOR_SIZE=$size
	start_server
	"$out/gtk-peer" >/dev/null 2>&1 &
	program=$!
	wait_for xdotool search --name '^peer-gtk$'
	window=$(xdotool search --name '^peer-gtk$' | head -1)
	eval "$(xdotool getwindowgeometry --shell "$window")"
	sleep 0.5  # GTK draws and settles its button after the map
	printf 'GTK 3   %3d px  button  ' "$size"
	"$out/tooltip-under-cursor" $((X + 100)) $((Y + 40)) || echo
	stop

	start_server
	inspect=$out/inspect-$size.json
	rm -f "$inspect"
	X11UI_INSPECT=$inspect "$demo" --scene sample >/dev/null 2>&1 &
	program=$!
	wait_for grep -q '"id":"buy-button"' "$inspect"
	for id in label buy-button; do
		frame=$(grep -o "\"id\":\"$id\",[^}]*" "$inspect" | tail -1 | sed 's/.*"frame":\[\([^]]*\)\].*/\1/')
		IFS=, read -r fx fy fw fh <<<"$frame"
		printf 'X11UI   %3d px  %-7s ' "$size" "${id%-button}"
		"$out/tooltip-under-cursor" $(awk "BEGIN { printf \"%d %d\", $fx + $fw / 2, $fy + $fh / 2 }") || echo
		xdotool mousemove 1 1
		sleep 1  # the tooltip hides and the browse window ends before the next hover
	done
	stop
done
