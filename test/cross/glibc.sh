#!/bin/sh
# glibc floor of the Linux glibc prebuild (floor: package.json config.glibcFloor).
#
#   sh test/cross/glibc.sh           report: the newest GLIBC_x.y each Linux prebuild
#                                    built here needs, against the floor. Exits 0 when
#                                    one is above: this machine (Debian 12, glibc 2.36)
#                                    does not make release builds.
#   sh test/cross/glibc.sh release   builds the prebuild as the release workflow does
#                                    (Debian 11: gcc 10, glibc 2.31; a debootstrap root
#                                    under .cross/), enforces the floor on it and runs
#                                    the installed-package smoke test with it on this
#                                    machine and inside the Debian 11 root. About 4-5
#                                    minutes the first time (the root is kept), root only.
set -eu
. "$(dirname "$0")/lib.sh"
started=$(date +%s)
cd "$CROSS_ROOT"

need_apt readelf binutils
tuple=$(node -p 'process.platform + "-" + process.arch')
floor=$(node -p 'require("./package.json").config.glibcFloor')

# "glibc: <file> needs GLIBC_2.34, floor 2.28: ..." -> 2.34
needed_glibc() {
    sed -n 's/^glibc: .* needs GLIBC_\([0-9.]*\), floor.*/\1/p' | head -n 1
}

if [ "${1:-report}" = report ]; then
    if ! ls prebuilds/"$tuple"/*.node >/dev/null 2>&1; then
        npm run prebuild >&2
    fi
    this_glibc=$(ldd --version | head -n 1 | sed 's/.* //')
    # Every Linux prebuild present: this machine's, and any a cross script built.
    for file in prebuilds/linux-*/*.node; do
        out=$(node test/glibc-floor.mjs report "$file")
        echo "$out"
        case "$file" in *.musl.node) continue ;; esac
        needed=$(echo "$out" | needed_glibc)
        [ -n "$needed" ] || { echo "glibc: no GLIBC version found in $file" >&2; exit 1; }
        if echo "$out" | grep -q ABOVE; then verdict="above the floor"; else verdict="within the floor"; fi
        echo "cross: glibc-floor report | $file needs GLIBC_$needed, floor $floor: $verdict." \
            "NOT a release build: built on this machine (glibc $this_glibc);" \
            "release glibc prebuilds are built on Debian 11 and the floor is enforced there (sh test/cross/glibc.sh release)"
    done
    echo "glibc: $(($(date +%s) - started)) s"
    exit 0
fi

[ "$1" = release ] || { echo "usage: sh test/cross/glibc.sh [report|release]" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "glibc: release mode needs root (debootstrap, chroot)" >&2; exit 1; }
[ "$tuple" = linux-x64 ] || { echo "glibc: release mode builds linux-x64 only" >&2; exit 1; }
bullseye_root
rm -rf "$root/build-src"
mkdir -p "$root/build-src"
cp -a package.json binding.gyp csrc node_modules "$root/build-src/"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/opt/node/bin:/usr/bin:/bin npm_config_nodedir=/opt/node \
    sh -ec 'cd /build-src && npm run prebuild -- --tag-libc' >&2
binary=$root/build-src/prebuilds/linux-x64/chess-native.glibc.node
node test/glibc-floor.mjs enforce "$binary"
floor_result=ok

# The package as the release workflow packs it, with this binary as its only prebuild.
[ -f dist/index.js ] || npm run build:ts >&2
stage=$(mktemp -d)
trap 'rm -rf "$stage" "$root/consumer"' EXIT
mkdir -p "$stage/pkg/prebuilds/linux-x64"
cp -a package.json README.md binding.gyp csrc dist "$stage/pkg/"
cp "$binary" "$stage/pkg/prebuilds/linux-x64/"
(cd "$stage/pkg" && npm pack --ignore-scripts --silent --pack-destination "$stage" >/dev/null)
tarball=$(ls "$stage"/*.tgz)

# Smoke test here (glibc 2.36), then the installed project inside the Debian 11 root (glibc 2.31).
node test/tarball.mjs "$tarball"
node --input-type=module -e "
  import { cpSync } from 'node:fs';
  import { packAndInstall } from '$CROSS_ROOT/test/tarball.mjs';
  const installed = packAndInstall(process.argv[1]);
  cpSync(installed.project, process.argv[2], { recursive: true, verbatimSymlinks: true });
  installed.cleanup();
" "$tarball" "$root/consumer" >/dev/null
cp test/smoke.mjs "$root/consumer/smoke.mjs"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/opt/node/bin:/usr/bin:/bin PREBUILDS_ONLY=1 \
    sh -c 'cd /consumer && node smoke.mjs'
report linux-x64-glibc-release "Debian 11 build" "--" "floor $floor $floor_result, smoke ok"
echo "glibc: $(($(date +%s) - started)) s"
