#!/usr/bin/env bash
# After a test run with X11UI_SERVER_LEDGER=LEDGER: fails when an Xvfb the run started
# outlived it (still running, or stopped only by its process's exit because its owner was
# never released), or left its lock file behind. Servers the run did not start (another
# run's, a desktop's) are not counted.
#   usage: scripts/check-test-servers.sh LEDGER
set -uo pipefail
ledger=${1:?usage: $0 LEDGER}
[ -f "$ledger" ] || { echo "check-test-servers: no ledger at $ledger"; exit 1; }
failed=0
while read -r what pid number; do
    case $what in
    left-running)
        echo "check-test-servers: Xvfb $pid (:$number) was still running when its test process exited (its owner was never released)"
        failed=1 ;;
    started)
        if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q '^/usr[a-z/]*/Xvfb -displayfd'; then
            echo "check-test-servers: Xvfb $pid (:$number) outlived the run; stopping it"
            kill "$pid"
            failed=1
        elif [ -f "/tmp/.X$number-lock" ] && [ "$(tr -d ' \n' < "/tmp/.X$number-lock")" = "$pid" ]; then
            echo "check-test-servers: the lock file of Xvfb $pid (/tmp/.X$number-lock) outlived it"
            failed=1
        fi ;;
    esac
done < "$ledger"
servers=$(grep -c '^started ' "$ledger")
[ $failed = 0 ] && echo "check-test-servers: all $servers servers of the run stopped"
exit $failed
