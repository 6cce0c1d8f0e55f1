#!/bin/sh
# Sanitizer and memcheck runs of the engine's C tests.
#
#   test/c/sanitize.sh asan       ASan + UBSan build of engine_test (all C tests,
#                                 perft counts up to MAX_NODES, default 200000)
#   test/c/sanitize.sh tsan       ThreadSanitizer build of engine_test: all C
#                                 tests, among them the perft job's (threaded and
#                                 hashed perft, cancel races) and the threaded
#                                 PGN reader; perft counts up to 2000 nodes
#   test/c/sanitize.sh valgrind   memcheck of the plain engine_test build
#                                 (MAX_NODES default 20000), leaks are errors
#
# Builds and runs go through the Makefile next to this script (builds in
# build-<sanitizer>/; the suites from PERFT_DIR, see test/engine.mk). Needs
# gcc (or $CC) with the sanitizer runtimes, and valgrind for the last one;
# installs nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# Builds compile on every core; the runs go one after the other.
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

case "${1:-}" in
asan)
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
        make -s -j"$jobs" -C "$here" SANITIZE=address,undefined run ARGS="--max-nodes ${MAX_NODES:-200000}"
    ;;
tsan)
    # engine_test runs perft_job_test's tests too, so that program is not run again here.
    make -s -j"$jobs" -C "$here" SANITIZE=thread build-thread/engine_test
    TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1} \
        make -s -C "$here" SANITIZE=thread engine-test ARGS="--max-nodes 2000"
    ;;
valgrind)
    command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }
    make -s -j"$jobs" -C "$here" engine-test ARGS="--max-nodes ${MAX_NODES:-20000}" \
        RUNNER="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible"
    ;;
*)
    echo "usage: $0 asan|tsan|valgrind" >&2
    exit 2
    ;;
esac
