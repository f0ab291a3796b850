#!/usr/bin/env bash
# install-deps.sh TIER...: installs the Debian or Ubuntu packages a tier needs that are missing.
#
#   demo   building the library and the demo, running it, and its headless tour: the X11, Xft,
#          fontconfig, cairo and extension headers, the libraries X11UI opens at run time
#          (libthai, ICU, libXcursor, libXi, libdbus), the fonts the demo shows, and Xvfb
#   test   the demo's, and the test tools: Orca, at-spi2-core, pyatspi, xdotool, gdb, openbox,
#          xcompmgr, xrandr, setxkbmap, a D-Bus daemon, python3-gi (the test settings portal),
#          the desktop's real settings portal with its GTK backend and dconf (tests against
#          it), Adwaita's cursors (large cursor tests), a C compiler and the C++ runtime's
#          static library (the release link's tests)
#   bench  the demo's, a C compiler (the C floor client) and libstdc++.a; bench-gtk: GTK 3's
#          headers; startup-order: valgrind and xdotool; compare-cursor: GTK 3's headers, xdotool,
#          xsetroot and Adwaita's cursors (scripts/compare-cursor-gtk.sh)
#
# Names are the same on Debian 12 and 13 and Ubuntu 22.04 and 24.04, except where a line below
# says how the release's own name is found (ICU's library carries its version in its name).
# Nothing is installed when all is there. As root, apt-get runs directly; otherwise through
# sudo, which asks for the password. X11UI_NO_INSTALL=1, no sudo, or a refused sudo: the
# missing packages are listed with the command that installs them, nothing is changed, and
# the exit status is 1.
set -euo pipefail

demo=(
	pkg-config libx11-dev libxext-dev libxrender-dev libxft-dev libfontconfig-dev libcairo2-dev
	libxrandr-dev libxfixes-dev libfribidi-dev libharfbuzz-dev libxtst-dev libxres-dev
	libxcursor1 libxi6 libthai0 libthai-data libdbus-1-3 @icu
	xvfb
	fonts-dejavu-core fonts-nanum fonts-ipafont-gothic fonts-lohit-deva fonts-tlwg-loma-ttf
	fonts-noto-color-emoji fonts-lao fonts-khmeros fonts-sil-padauk
)
test=(
	x11-xserver-utils x11-xkb-utils xcompmgr openbox desktop-file-utils
	dbus-daemon@dbus dbus-bin@dbus at-spi2-core python3 python3-pyatspi python3-gi xdotool orca
	fonts-urw-base35 binutils gdb gcc g++ adwaita-icon-theme
	xdg-desktop-portal xdg-desktop-portal-gtk dconf-service gsettings-desktop-schemas libglib2.0-bin
)
bench=(gcc g++)
bench_gtk=(libgtk-3-dev)
startup_order=(valgrind xdotool)
compare_cursor=(gcc libgtk-3-dev xdotool x11-xserver-utils adwaita-icon-theme)

wanted=()
for tier in "$@"; do
	case "$tier" in
	demo) wanted+=("${demo[@]}") ;;
	test) wanted+=("${demo[@]}" "${test[@]}") ;;
	bench) wanted+=("${demo[@]}" "${bench[@]}") ;;
	bench-gtk) wanted+=("${demo[@]}" "${bench[@]}" "${bench_gtk[@]}") ;;
	startup-order) wanted+=("${demo[@]}" "${bench[@]}" "${startup_order[@]}") ;;
	compare-cursor) wanted+=("${demo[@]}" "${compare_cursor[@]}") ;;
	*) echo "install-deps: no tier \"$tier\" (demo, test, bench, bench-gtk, startup-order, compare-cursor)" >&2; exit 2 ;;
	esac
done

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
known() { [ -n "$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -v '(none)')" ]; }

# Whether an entry is there. "@icu": any libicuNN. "name@other": name, or the release's older
# package that had it (Ubuntu 22.04 has dbus-daemon and dbus-bin inside "dbus").
present() {
	case "$1" in
	@icu) dpkg-query -W -f='${Package} ${Status}\n' 'libicu[0-9]*' 2>/dev/null |
		grep -Eq '^libicu[0-9]+ .*ok installed' ;;
	*@*) installed "${1%@*}" || installed "${1#*@}" ;;
	*) installed "$1" ;;
	esac
}

# The release's package for an entry (apt's lists must be read first).
resolve() {
	case "$1" in
	@icu) # libicu-dev has the same name everywhere and depends on this release's libicuNN.
		apt-cache depends libicu-dev 2>/dev/null | sed -n 's/^ *Depends: \(libicu[0-9][0-9]*\)$/\1/p' |
			head -1 | grep . || echo libicu-dev ;;
	*@*) if known "${1%@*}"; then echo "${1%@*}"; else echo "${1#*@}"; fi ;;
	*) echo "$1" ;;
	esac
}

missing=()
declare -A seen=()
for entry in "${wanted[@]}"; do
	[ -n "${seen[$entry]:-}" ] && continue
	seen[$entry]=1
	present "$entry" || missing+=("$entry")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
	echo "install-deps: no apt-get here; install the equivalents of: ${missing[*]}" >&2
	exit 1
fi

run=()
if [ "$(id -u)" != 0 ]; then
	if [ "${X11UI_NO_INSTALL:-0}" = 1 ] || ! command -v sudo >/dev/null; then run=(none); else run=(sudo); fi
fi
tell() {
	local names=()
	for entry in "${missing[@]}"; do names+=("$(resolve "$entry")"); done
	echo "install-deps: these packages are missing: ${names[*]}" >&2
	echo "install-deps: install them with: sudo apt-get install ${names[*]}" >&2
	exit 1
}
[ "${run[*]}" = none ] && tell

# One transaction: apt-get installs all of them or, when one cannot be had, none.
"${run[@]}" apt-get update -qq || tell
packages=()
for entry in "${missing[@]}"; do packages+=("$(resolve "$entry")"); done
echo "Installing: ${packages[*]}"
"${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	"${packages[@]}" || tell
