#!/bin/sh
# Runs one libFuzzer harness on its seed corpus for a number of seconds.
#
#   test/fuzz/run.sh <fen|moves|san|position|pgn|all> <seconds> [libFuzzer flags...]
#
# Builds the harness first (clang with the libFuzzer runtime is needed; on
# Debian 12: apt-get install clang-14 libclang-rt-14-dev). Installs nothing.
# New corpus entries go to test/fuzz/build/corpus-<target>/ (the committed
# seeds in corpus/<target>/ are only read); a crash or failed check leaves
# its input in test/fuzz/build/artifacts/ and makes this script exit non-zero.
# "all" runs every target for <seconds> each, one after the other.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 2 ]; then
    echo "usage: $0 <fen|moves|san|position|pgn|all> <seconds> [libFuzzer flags...]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2
case "$seconds" in
    ''|*[!0-9]*) echo "seconds must be a whole number" >&2; exit 2 ;;
esac
if [ "$target" = all ]; then
    for t in fen moves san position pgn; do "$0" "$t" "$seconds" "$@"; done
    exit 0
fi
case "$target" in
    fen|moves|san|position|pgn) ;;
    *) echo "unknown target '$target' (fen, moves, san, position, pgn, all)" >&2; exit 2 ;;
esac
make -s -C "$here" "build/fuzz_$target"
work="$here/build/corpus-$target"
mkdir -p "$work" "$here/build/artifacts"
dict=""
[ -f "$here/$target.dict" ] && dict="-dict=$here/$target.dict"
log="$here/build/fuzz_$target.log"
echo "fuzz_$target: ${seconds}s, seeds from corpus/$target, log in $log"
set +e
# shellcheck disable=SC2086
"$here/build/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$here/build/artifacts/$target-" $dict "$@" "$work" "$here/corpus/$target" >"$log" 2>&1
status=$?
set -e
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
elapsed=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
if [ $status -ne 0 ]; then
    grep -E "FUZZ CHECK|ERROR|runtime error|SUMMARY|Test unit written" "$log" >&2 || tail -n 30 "$log" >&2
    echo "fuzz_$target: FAILED after ${execs:-?} runs (exit $status)" >&2
    exit $status
fi
echo "fuzz_$target: clean, ${execs:-?} runs in ${elapsed:-$seconds} s"
