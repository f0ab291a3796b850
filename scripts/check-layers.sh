#!/usr/bin/env bash
# The layer rules of Sources/X11UI, checked on the source tree:
#   - only the folders at the X edge import CX11 (Xlib, Xft, cairo, fontconfig): Platform/ (the
#     connection, events, X-level windows), Desktop/ (XSETTINGS, X resources, cursor themes,
#     the buses' addresses), Fonts/, Text/ (FriBidi, HarfBuzz, ICU) and Drawing/ (cairo);
#     DBus/, Appearance/, Accessibility/, Views/, Windows/ and ToolTips/ reach X through their
#     types;
#   - no library file is longer than 400 lines.
# X11UICore (geometry, the clock, the tooltip rules) cannot import CX11 at all: Package.swift
# gives it no dependency, so the compiler holds that layer; this script checks it stays so.
# Executables that drive Xlib themselves (embed-example, tooltip-bench, async-example), the test
# support and the tests may import CX11. Prints one line per offending file; exits 1 if any.
set -euo pipefail
cd "$(dirname "$0")/.."

max_lines=400
status=0
while IFS= read -r -d '' file; do
    case "$file" in
    Sources/X11UI/Platform/* | Sources/X11UI/Desktop/* | Sources/X11UI/Fonts/* | Sources/X11UI/Text/* | \
        Sources/X11UI/Drawing/*) ;;
    *)
        if grep -Eq '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+(struct[[:space:]]+|func[[:space:]]+|var[[:space:]]+|let[[:space:]]+|class[[:space:]]+|enum[[:space:]]+)?CX11\b' "$file"; then
            echo "$file: imports CX11 outside the X edge (Platform, Desktop, Fonts, Text, Drawing)"
            status=1
        fi
        ;;
    esac
    lines=$(wc -l <"$file")
    if [ "$lines" -gt "$max_lines" ]; then
        echo "$file: $lines lines (at most $max_lines for a library file)"
        status=1
    fi
done < <(find Sources/X11UI Sources/X11UICore -name '*.swift' -print0 | sort -z)

if ! grep -Eq '\.target\(name: "X11UICore"\)' Package.swift; then
    echo "Package.swift: X11UICore must be a target without dependencies (it needs no X server)"
    status=1
fi

if [ "$status" = 0 ]; then
    echo "check-layers: CX11 only at the X edge; X11UICore without dependencies; no library file over $max_lines lines"
fi
exit "$status"
