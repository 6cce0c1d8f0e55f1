#!/bin/sh
# The optional tools of the full test run, which .ci/run requires
# (CHESS_NATIVE_REQUIRE_TOOLS=1): GNU parallel (test/units.test.ts's shards).
# Each missing one is installed with apt-get when root; otherwise this names
# it and how to get it and exits 1. (test:cross installs its own tools.)
#
#   sh test/release/require-tools.sh
set -eu
# command:Debian package
tools="parallel:parallel"
missing=""
for tool in $tools; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || missing="$missing ${tool#*:}"
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== apt-get install$missing"
    apt-get update -qq
    # shellcheck disable=SC2086 # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
    exit 0
fi
echo "require-tools: missing:$missing; install them (Debian/Ubuntu: sudo apt-get install$missing; macOS: brew install$missing)" >&2
exit 1
