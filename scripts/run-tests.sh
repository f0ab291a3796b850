#!/usr/bin/env bash
# Runs a test command (`swift test ...`) with a time limit, so that a test that hangs fails the
# run in minutes rather than holding CI until its own limit, and says why.
#
# On a hang it prints, last (where a log's tail shows it), where each thread of the test process
# waits: the first frames of its stack in the tests, X11UI or the C libraries they call (gdb's
# backtraces, demangled; the whole dump goes to .build/test-hang-<pid>.txt). Then it stops the
# run.
#
#   scripts/run-tests.sh swift test --skip-build
#
# X11UI_TEST_TIME_LIMIT: seconds (900 unless set; the suite takes a few minutes on two cores).
set -uo pipefail

limit=${X11UI_TEST_TIME_LIMIT:-900}
mkdir -p .build

# A process group of its own (job control), so that stopping it stops everything it started
# that stayed in it; its id is the command's pid.
set -m
"$@" &
runner=$!
trap 'kill -TERM -- "-$runner" 2>/dev/null; exit 130' INT TERM HUP

start=$SECONDS
while kill -0 "$runner" 2>/dev/null && ((SECONDS - start < limit)); do sleep 1; done

if ! kill -0 "$runner" 2>/dev/null; then
    wait "$runner"
    exit $?
fi

echo
echo "run-tests: the tests did not finish within $limit s (X11UI_TEST_TIME_LIMIT)."
demangler=$(dirname "$(readlink -f "$(command -v swift)")")/swift-demangle
demangle() { if [ -x "$demangler" ]; then "$demangler" --simplified; else cat; fi; }
for pid in $(pgrep -g "$runner" -f '\.xctest'); do
    dump=".build/test-hang-$pid.txt"
    if command -v gdb >/dev/null; then
        timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt" 2>&1 | demangle >"$dump"
    else
        for task in /proc/"$pid"/task/*; do
            echo "Thread ${task##*/} ($(cat "$task/comm")) waits in $(cat "$task/wchan" 2>/dev/null)"
        done >"$dump"
    fi
    echo "run-tests: where the threads of process $pid wait (all of it in $dump):"
    # Each thread's first frames in the project's code or in the C libraries it calls.
    awk '/^Thread / { print; shown = 0; next }
         /^#/ && /X11UI|X11TestSupport|Tests\.|libX11|libxcb|libdbus|poll|wait|lock|read/ && shown < 8 { print; shown++ }' \
        "$dump" | cut -c1-240
done
kill -KILL -- "-$runner" 2>/dev/null
wait "$runner" 2>/dev/null
exit 124
