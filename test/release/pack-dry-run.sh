#!/bin/sh
# A dry run of the release's pack step (test/release/pack.sh) over mock
# prebuilds, in a copy of this checkout: it packs the seven, and refuses a set
# with one missing, one extra, or a glibc build above the floor. The Linux
# mocks are small shared objects of this machine's architecture (check:glibc
# reads their symbol versions, not their CPU); the others are a few bytes.
#
#   sh test/release/pack-dry-run.sh
set -eu
if [ "$(uname -s)" != Linux ]; then
    echo "pack-dry-run: skipped: Linux only (readelf and ELF mocks), as the pack job"
    exit 0
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
started=$(date +%s)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
copy="$stage/chess-native"
mkdir "$copy"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$copy"
ln -s "$root/node_modules" "$copy/node_modules"
rm -rf "$copy/prebuilds"

# mock_so OUT C_SOURCE [CC_FLAG...]
mock_so() {
    out=$1 source=$2
    shift 2
    printf '%s\n' "$source" >"$stage/mock.c"
    cc -shared -fPIC -o "$out" "$stage/mock.c" "$@"
}
mocks="$stage/mocks"
mkdir -p "$mocks"
# malloc: a GLIBC_2.2.5 / 2.17 reference, as every glibc build has one.
mock_so "$mocks/glibc.node" '#include <stdlib.h>
void *mock(void) { return malloc(1); }'
# -nostdlib: no glibc reference at all, as a musl build.
mock_so "$mocks/musl.node" 'int mock(void) { return 0; }' -nostdlib
# pthread_create@GLIBC_2.34: above the 2.28 floor (where this glibc is 2.34+).
mock_so "$mocks/new-glibc.node" '#include <pthread.h>
void *mock(void) { return (void *)pthread_create; }' -pthread

lay_out() {
    rm -rf "$copy/prebuilds"
    for tuple in linux-x64 linux-arm64; do
        mkdir -p "$copy/prebuilds/$tuple"
        cp "$mocks/glibc.node" "$copy/prebuilds/$tuple/chess-native.glibc.node"
        cp "$mocks/musl.node" "$copy/prebuilds/$tuple/chess-native.musl.node"
    done
    for tuple in darwin-arm64 darwin-x64 win32-x64; do
        mkdir -p "$copy/prebuilds/$tuple"
        printf 'mock %s\n' "$tuple" >"$copy/prebuilds/$tuple/chess-native.node"
    done
}

# refuses WHAT REASON: pack.sh must fail on the prebuilds/ laid out now,
# saying REASON (an extended regular expression).
refuses() {
    if ! sh "$copy/test/release/pack.sh" "$stage/out" >"$stage/log" 2>&1 && grep -Eq "$2" "$stage/log"; then
        echo "pack-dry-run: refused $1: $(grep -m 1 -E "$2" "$stage/log")"
        return
    fi
    cat "$stage/log"
    echo "pack-dry-run: FAIL: pack.sh did not refuse $1 saying /$2/" >&2
    exit 1
}

lay_out
rm "$copy/prebuilds/darwin-x64/chess-native.node"
refuses 'a set without darwin-x64' '^< darwin-x64/chess-native.node'
lay_out
cp "$mocks/glibc.node" "$copy/prebuilds/linux-x64/chess-native.node"
refuses 'a set with an untagged linux-x64 binary' '^> linux-x64/chess-native.node'
lay_out
if readelf -V "$mocks/new-glibc.node" | grep -q 'GLIBC_2\.3[4-9]'; then
    cp "$mocks/new-glibc.node" "$copy/prebuilds/linux-arm64/chess-native.glibc.node"
    refuses 'a glibc build above the floor' 'linux-arm64/chess-native.glibc.node needs GLIBC_2.3[4-9].*ABOVE'
    lay_out
fi

sh "$copy/test/release/pack.sh" "$stage/out"
echo "pack-dry-run: ok in $(($(date +%s) - started)) s"
