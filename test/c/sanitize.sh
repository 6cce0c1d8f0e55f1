#!/bin/sh
# Sanitizer and memcheck runs of the engine's C tests.
#
#   test/c/sanitize.sh asan       ASan + UBSan build of engine_test (all C tests,
#                                 perft counts up to MAX_NODES, default 200000)
#   test/c/sanitize.sh tsan       ThreadSanitizer build of perft_job_test
#                                 (threaded and hashed perft, cancel races)
#   test/c/sanitize.sh valgrind   memcheck of the plain engine_test build
#                                 (MAX_NODES default 20000), leaks are errors
#
# Builds go to build-<sanitizer>/ next to this script. Needs gcc (or $CC)
# with the sanitizer runtimes, and valgrind for the last one; installs nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
perft_dir=${PERFT_DIR:-$here/../data}
cc=${CC:-cc}
cflags="-std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -pthread -O1 -g -fno-omit-frame-pointer"
engine_sources=$(ls "$here"/../../csrc/*.c)

case "${1:-}" in
asan)
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
        make -s -C "$here" SANITIZE=address,undefined run PERFT_DIR="$perft_dir" ARGS="--max-nodes ${MAX_NODES:-200000}"
    ;;
tsan)
    mkdir -p "$here/build-thread"
    # shellcheck disable=SC2086
    $cc $cflags -fsanitize=thread -DPERFT_JOB_TEST_MAIN -o "$here/build-thread/perft_job_test" \
        "$here/perft_job_test.c" $engine_sources
    TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1} \
        "$here/build-thread/perft_job_test" "$perft_dir"
    ;;
valgrind)
    command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }
    make -s -C "$here" build/engine_test
    valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
        "$here/build/engine_test" --perft-dir "$perft_dir" --max-nodes "${MAX_NODES:-20000}"
    ;;
*)
    echo "usage: $0 asan|tsan|valgrind" >&2
    exit 2
    ;;
esac
