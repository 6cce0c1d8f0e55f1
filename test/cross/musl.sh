#!/bin/sh
# Linux x86-64 with musl: the engine's C tests (engine_test with the perft
# job tests, and the dispatch test) built with musl-gcc -static and run
# here. musl differs from glibc where the engine leans on the C library:
# a 128 KiB default thread stack (the perft job sets its own), strtoull,
# snprintf, clock_gettime.
#
# Perft counts up to 200000 nodes a depth (5000000, as `npm run test:c`,
# with test/cross/run.sh --full).
#
# Not covered here: the Node addon on musl (Alpine's Node).
. "$(dirname "$0")/lib.sh"
started=$(date +%s)
max_nodes=$(full 200000 5000000)

need_apt musl-gcc musl-tools || exit 1

build="$CROSS_ROOT/test/c/build-musl"
if ! nice make -s -j"$(cross_jobs)" -C "$CROSS_ROOT/test/c" CC=musl-gcc BUILD=build-musl LDFLAGS=-static all; then
    report "linux-x64-musl (static)" "--" FAIL "--"
    exit 1
fi
built=$(date +%s)
# Static: no program interpreter, so no glibc can be loaded in musl's place.
if readelf -l "$build/engine_test" | grep -q 'program interpreter'; then
    echo "musl: $build/engine_test is not static"
    report "linux-x64-musl (static)" "--" FAIL "--"
    exit 1
fi

c_result=ok
(cd "$CROSS_ROOT" && nice "$build/engine_test" --perft-dir test/data --max-nodes "$max_nodes") >"$build/engine_test.log" 2>&1 || c_result=FAIL
sed 's/^/  /' "$build/engine_test.log"
code_path=$(sed -n 's/^init: .*active path \([^ ]*\) .*/\1/p' "$build/engine_test.log")

(cd "$CROSS_ROOT/test/c" && sh ./dispatch_test.sh "$build/perft_tool") >"$build/dispatch.log" 2>&1 || c_result=FAIL
sed 's/^/  /' "$build/dispatch.log"

echo "musl: $(($(date +%s) - started)) s (build $((built - started)) s)"
report "linux-x64-musl (static)" "${code_path:---}" "$c_result" "--"
[ "$c_result" = ok ]
