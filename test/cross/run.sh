#!/bin/sh
# npm run test:cross: every cross-target check in this folder, then one
# summary line per target. Exits non-zero when any target failed.
#   sh test/cross/run.sh [--full] [TARGET...]   (default: all; TARGET names TARGET.sh)
# By default each target tests its platform: perft counts small enough for
# an emulator (the native `npm test` proves the published counts), one CPU
# model per code path, the Node suites that touch the binding. --full (or
# CHESS_NATIVE_CROSS_FULL=1) runs the full depths, every model and the
# whole vitest suite on every Node major.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --full ]; then
    export CHESS_NATIVE_CROSS_FULL=1
    shift
fi
targets=${*:-"isa-check x86-models arm64 windows musl node-majors glibc"}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed=""
for target in $targets; do
    script="$here/$target.sh"
    if [ ! -f "$script" ]; then
        echo "cross: no such target: $target" >&2
        failed="$failed $target"
        continue
    fi
    echo "== cross: $target"
    started=$(date +%s)
    { sh "$script"; echo $? > "$logs/$target.status"; } 2>&1 | tee "$logs/$target.log"
    status=$(cat "$logs/$target.status")
    echo "== cross: $target: exit $status in $(( $(date +%s) - started )) s"
    [ "$status" = 0 ] || failed="$failed $target"
done

echo
echo "== cross-target summary"
for target in $targets; do
    [ -f "$logs/$target.log" ] && grep '^cross: ' "$logs/$target.log"
done
if [ -n "$failed" ]; then
    # What each failed target said of its failure, where a reader of the
    # summary alone sees it.
    for target in $failed; do
        [ -f "$logs/$target.log" ] || continue
        echo "== why $target failed (its lines that name a failure, at most 40):"
        grep -E 'FAIL|[Ee]rror|signal|[Ss]egmentation|Illegal|Aborted|not found|exited with' "$logs/$target.log" | grep -v '^cross: .*|' | tail -40
    done
    echo "cross: FAILED:$failed"
    exit 1
fi
echo "cross: all targets passed"
