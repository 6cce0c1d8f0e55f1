#!/bin/sh
# The release's pack step (prebuild.yml's pack job runs it): prebuilds/ must
# hold the seven prebuilds below and nothing else; every Linux one within the
# glibc floor (npm run check:glibc -- enforce); then `npm pack` (its
# `prepare` builds dist/) into DEST, and the tarball's .node files must be the
# same seven.
#
#   sh test/release/pack.sh DEST
#
# node-gyp-build picks the directory by platform and arch, then the file whose
# libc tag matches (musl when /etc/alpine-release exists or LIBC=musl).
set -eu
[ $# = 1 ] || { echo "usage: sh test/release/pack.sh DEST" >&2; exit 2; }
dest=$1
cd "$(dirname "$0")/../.."

expected='darwin-arm64/chess-native.node
darwin-x64/chess-native.node
linux-arm64/chess-native.glibc.node
linux-arm64/chess-native.musl.node
linux-x64/chess-native.glibc.node
linux-x64/chess-native.musl.node
win32-x64/chess-native.node'

# same_list WHAT ACTUAL: ACTUAL (one path a line) must be the seven above.
same_list() {
    if [ "$2" != "$expected" ]; then
        echo "pack: $1 is not the seven prebuilds (< expected, > found):" >&2
        printf '%s\n' "$expected" >"$dest/.expected"
        printf '%s\n' "$2" | diff "$dest/.expected" - >&2 || true
        rm -f "$dest/.expected"
        exit 1
    fi
}

mkdir -p "$dest"
same_list prebuilds/ "$( (cd prebuilds && find . -type f ! -name '.*' | sed 's|^\./||') | LC_ALL=C sort)"
npm run -s check:glibc -- enforce
tarball=$(npm pack --silent --pack-destination "$dest" | tail -n 1)
same_list "$dest/$tarball" "$(tar tzf "$dest/$tarball" | sed -n 's|^package/prebuilds/||p' | LC_ALL=C sort)"
echo "pack: $dest/$tarball holds the seven prebuilds"
