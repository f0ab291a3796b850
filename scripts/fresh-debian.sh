#!/usr/bin/env bash
# fresh-debian.sh [SUITE] [MIRROR]: the README's two commands on a clean Debian system, as a
# newcomer runs them. Run as root on a Debian or Ubuntu machine with debootstrap and the Swift
# toolchain; SUITE is trixie (Debian 13) unless given.
#
#   1. debootstrap builds a minimal SUITE system (kept in $X11UI_FRESH_ROOT, /var/tmp/x11ui-fresh
#      unless set, as SUITE.base, and copied afresh for each run);
#   2. the toolchain's folder is bind-mounted read-only at the same path, /proc, /sys, /dev and
#      the host's /tmp into it (the tests pick free X display numbers by /tmp's sockets and lock
#      files, so they cannot meet another Xvfb of the machine), in a mount namespace of its own;
#   3. the toolchain's prerequisites are installed as the README's "Before the two commands"
#      table names them for that release, with make and git;
#   4. the committed HEAD of this repository is cloned into /root/X11UI, and `make demo` (no
#      display: the headless tour) then `make test` run there, each timed;
#   5. the clone's tracked files must be unchanged and nothing untracked left outside .build.
#
# Prints each step's time and the result; exit status 0 when all passed. Every process left in
# the system is stopped at the end.
set -euo pipefail

suite=${1:-trixie}
mirror=${2:-http://deb.debian.org/debian}
here=$(cd "$(dirname "$0")/.." && pwd)
state=${X11UI_FRESH_ROOT:-/var/tmp/x11ui-fresh}
base=$state/$suite.base
root=$state/$suite.run

[ "$(id -u)" = 0 ] || { echo "fresh-debian: run as root (debootstrap, chroot, mounts)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "fresh-debian: apt-get install debootstrap" >&2; exit 1; }
swift=$(readlink -f "$(command -v swift)") || { echo "fresh-debian: swift is not on PATH" >&2; exit 1; }
toolchain=$(cd "$(dirname "$swift")/../.." && pwd)   # /opt/swift for /opt/swift/usr/bin/swift

case "$suite" in
trixie) release="Debian 13" ;;
bookworm) release="Debian 12" ;;
*) echo "fresh-debian: no README row for suite $suite (trixie, bookworm)" >&2; exit 1 ;;
esac
# The README's row for the release: | Debian 13 (trixie) | `packages ...` |
prerequisites=$(grep -E "^\| *$release" "$here/README.md" | head -1 | sed -n 's/.*`\([^`]*\)`.*/\1/p' | sed 's/^.*apt-get install //')
[ -n "$prerequisites" ] || { echo "fresh-debian: the README names no prerequisites for $release" >&2; exit 1; }

mkdir -p "$state"
if [ ! -x "$base/usr/bin/apt-get" ]; then
	echo "== debootstrap $suite"
	rm -rf "$base"
	debootstrap --variant=minbase "$suite" "$base" "$mirror" >"$state/$suite.debootstrap.log" 2>&1 ||
		{ tail -5 "$state/$suite.debootstrap.log"; exit 1; }
fi

stop_processes() {
	local pid
	for pid in $(ls /proc | grep -E '^[0-9]+$'); do
		[ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root" ] && kill -KILL "$pid" 2>/dev/null
	done
	return 0
}
stop_processes
rm -rf "$root"
cp -a "$base" "$root"
trap stop_processes EXIT

# The clone's source: this repository's committed HEAD, as a bundle (nothing uncommitted).
git -C "$here" bundle create "$root/root/X11UI.bundle" HEAD >/dev/null 2>&1

mkdir -p "$root$toolchain"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
report=$state/$suite.report
: >"$report"

# Everything below runs in a mount namespace of its own: the mounts go when it ends.
unshare --mount --propagation private bash -s -- "$root" "$toolchain" "$prerequisites" "$report" <<'INSIDE'
set -euo pipefail
root=$1 toolchain=$2 prerequisites=$3 report=$4
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
mount --bind /tmp "$root/tmp"
mount --bind "$toolchain" "$root$toolchain"
mount -o remount,bind,ro "$root$toolchain"

step() {  # step NAME COMMAND: runs COMMAND in the system as a login shell, timed
	local name=$1 start=$SECONDS status=0
	shift
	echo "== $name"
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH="$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
		/bin/bash -c "$*" >"$root/root/$name.log" 2>&1 || status=$?
	tail -n 15 "$root/root/$name.log"
	echo "$name: status $status, $((SECONDS - start)) s" | tee -a "$report"
	return $status
}

step prerequisites "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make git $prerequisites"
step clone "git clone -q /root/X11UI.bundle /root/X11UI && cd /root/X11UI && git log --oneline -1"
step demo "cd /root/X11UI && unset DISPLAY && make demo"
step test "cd /root/X11UI && make test" || true
step tree "cd /root/X11UI && git status --porcelain --untracked-files=all | grep -v '^?? .build/' | { ! grep .; }" || true
INSIDE

echo "== $release ($suite): $(cat /etc/debian_version 2>/dev/null | sed 's/^/host Debian /')"
cat "$report"
! grep -v "status 0," "$report" >/dev/null
