#!/bin/bash
# split-stdlib.sh [FOLDER]: the Swift toolchain's static standard library objects with their one
# large code section split into a section per function (tools/release-link/split-text.py), checked, and a
# wrapper around the toolchain's lld that links them in place of the library's own
# (FOLDER/ld.lld, for clang's --ld-path; tools/release-link/release-flags.sh passes it). FOLDER defaults
# to .build/split-stdlib beside this script's folder.
#
# Why: lld orders and drops code a section at a time. libswiftCore.a's Swift.o keeps most of the
# standard library's internal functions in one 1.6 MB section (the concurrency, string
# processing and regex parser libraries in sections of 0.25-0.5 MB); the 200 or so of them a
# program runs at start are scattered over it, and the kernel maps code 64 KB at a time around
# each page run, so nearly all of it was resident (1.4 MB of the sample scene's 12 MB). Split,
# those functions are placed with the rest of the code run at start (tools/release-link/startup-order.txt)
# and the ones no program calls are left out.
#
# The check: the four objects are linked twice as a shared library with every section kept,
# once as the toolchain ships them and once split, with the split functions in reverse order;
# tools/release-link/check-split.py compares the two instruction by instruction (every call, jump and
# address, and every case of every jump table, must lead to the same place). An object that
# cannot be split, or a failed check, leaves the toolchain's objects in use (a line on
# standard error says so). The result, or why there is none, is kept until the toolchain
# changes; a run takes about a minute.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
folder=${1:-$(cd "$here/../.." && pwd)/.build/split-stdlib}
swiftc=$(command -v swiftc) || { echo "split-stdlib: swiftc is not on PATH" >&2; exit 1; }
bin=$(dirname "$(readlink -f "$swiftc")")
static=$(cd "$bin/../lib/swift_static/linux" 2>/dev/null && pwd) ||
	{ echo "split-stdlib: no static standard library beside $swiftc" >&2; exit 1; }
lld=$bin/ld.lld
for tool in python3 objdump readelf nm ar; do
	command -v "$tool" >/dev/null || { echo "split-stdlib: $tool is missing" >&2; exit 1; }
done

# archive:member
objects="libswiftCore.a:Swift.o libswift_Concurrency.a:_Concurrency.o
libswift_StringProcessing.a:_StringProcessing.o libswift_RegexParser.a:_RegexParser.o"

# One run at a time (two builds may ask at once); the second finds the first's result.
mkdir -p "$(dirname "$folder")"
exec 9>"$folder.lock"
flock 9

# What the result depends on: the toolchain's archives and these scripts.
key=$( (for pair in $objects; do stat -c '%n %s %Y' "$static/${pair%%:*}"; done
	cat "$here/split-text.py" "$here/check-split.py" "$0") | cksum)
if [ -f "$folder/key" ] && [ "$(cat "$folder/key")" = "$key" ]; then
	# Done before for this toolchain: the result, or why there is none.
	[ -f "$folder/failed" ] || exit 0
	echo "$(head -1 "$folder/failed") (found before: $folder/failed)" >&2
	exit 1
fi

rm -rf "$folder"
mkdir -p "$folder/objects"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/original"

# fail REASON [DETAILS]: the library's objects stay in use; kept, so that the next run for
# this toolchain says so at once rather than trying again.
fail() {
	rm -rf "$folder/objects"
	{ echo "$1; the library's objects stay"; [ -z "${2:-}" ] || cat "$2"; } >"$folder/failed"
	echo "$key" >"$folder/key"
	head -20 "$folder/failed" >&2
	exit 1
}

split=()
for pair in $objects; do
	archive=${pair%%:*} member=${pair#*:}
	ar p "$static/$archive" "$member" >"$work/original/$member"
	if python3 "$here/split-text.py" "$work/original/$member" "$folder/objects/$member"; then
		split+=("$folder/objects/$member")
	else
		rm -f "$folder/objects/$member"
	fi
done
[ ${#split[@]} -gt 0 ] || fail "split-stdlib: nothing could be split"

# The check. The split functions in reverse order, so that none stays where it was.
originals=()
for object in "${split[@]}"; do originals+=("$work/original/$(basename "$object")"); done
for object in "${split[@]}"; do
	nm --defined-only "$object" | awk '$2 ~ /^[tTwW]$/ { print $3 }'
done | tac >"$work/order.txt"
# The rest of the runtime (what the objects call that is not in them) comes from the archives.
archives=()
for pair in $objects; do archives+=("$static/${pair%%:*}"); done
link=(-shared --no-gc-sections -z undefs --no-warn-symbol-ordering)
"$lld" "${link[@]}" -o "$work/reference.so" -Map "$work/reference.map" "${originals[@]}" \
	"${archives[@]}" 2>"$work/link.txt" || fail "split-stdlib: the original objects do not link" "$work/link.txt"
"$lld" "${link[@]}" -o "$work/split.so" -Map "$work/split.map" \
	--symbol-ordering-file="$work/order.txt" "${split[@]}" "${archives[@]}" 2>"$work/link.txt" ||
	fail "split-stdlib: the split objects do not link" "$work/link.txt"
python3 "$here/check-split.py" "$work/reference.so" "$work/reference.map" \
	"$work/split.so" "$work/split.map" "${split[@]}" >"$work/check.txt" ||
	fail "split-stdlib: the split objects do not link as the originals" "$work/check.txt"
cp "$work/check.txt" "$folder/check.txt"

# The wrapper: the split objects first in the link's group (where the compiler's objects are),
# so the archives' members they replace are never loaded.
{
	echo '#!/bin/sh'
	echo "# Written by tools/release-link/split-stdlib.sh: $lld with the split standard library objects."
	echo 'first=1 added=0'
	echo 'for argument in "$@"; do'
	echo '	if [ $first = 1 ]; then set --; first=0; fi'
	echo '	set -- "$@" "$argument"'
	echo '	if [ $added = 0 ] && [ "$argument" = --start-group ]; then'
	printf '		set -- "$@"'
	printf " '%s'" "${split[@]//\'/\'\\\'\'}"
	echo
	echo '		added=1'
	echo '	fi'
	echo 'done'
	echo "exec '$lld' \"\$@\""
} >"$folder/ld.lld"
chmod +x "$folder/ld.lld"
echo "$key" >"$folder/key"
