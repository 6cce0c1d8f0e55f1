#!/bin/sh
# The linux-x64-glibc build leg of prebuild.yml, run here as the leg runs it:
# the same commands, as root, in Debian 11 (the distribution of its
# node:20-bullseye image; a debootstrap root under .cross/, see
# test/cross/lib.sh bullseye_root) with this machine's Node 20.17+, from a
# copy of this checkout: npm ci, the prebuild, the glibc floor, the vitest
# suite against the prebuild.
#
#   sh test/release/linux-leg.sh     (root, Linux x64)
#
# Not in .ci/run: about 4 minutes for the root the first time, then a build
# and the whole vitest suite, 6-10 minutes on 2 cores. The arm64 legs would
# need all of it under qemu, and the musl legs an Alpine root, which no Debian
# or npm package provides: the workflow's docker commands cover those.
set -eu
. "$(dirname "$0")/../cross/lib.sh"
started=$(date +%s)
cd "$CROSS_ROOT"
[ "$(id -u)" = 0 ] || { echo "linux-leg: needs root (debootstrap, chroot)" >&2; exit 1; }
[ "$(node -p 'process.platform + "-" + process.arch')" = linux-x64 ] || { echo "linux-leg: Linux x64 only" >&2; exit 1; }
bullseye_root

leg=$root/leg
rm -rf "$leg"
mkdir -p "$leg"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$leg"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# A container has /etc/hosts; a debootstrap root does not (vitest listens on localhost).
cp /etc/hosts "$root/etc/hosts"
# The certificates this machine's npm trusts (a proxy's own CA, where there
# is one), in the root's global npmrc: test/tarball.mjs runs npm with a bare
# environment.
cafile=$(npm config get cafile)
case $cafile in null | undefined | '') ;; *)
    cp "$cafile" "$root/etc/host-ca.crt"
    mkdir -p "$root/opt/node/etc"
    echo "cafile=/etc/host-ca.crt" >"$root/opt/node/etc/npmrc" ;;
esac
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"; rm -rf "$leg"' EXIT

# The leg's script (prebuild.yml, "Build and test in ..."), less the Alpine line.
chroot "$root" /usr/bin/env -i HOME=/root PATH=/opt/node/bin:/usr/bin:/bin npm_config_nodedir=/opt/node \
    npm_config_cache=/npm-cache CI=true sh -ec '
        cd /leg
        ldd --version 2>&1 | head -n 1
        npm ci --ignore-scripts
        npm run prebuild -- --tag-libc
        npm run check:glibc -- enforce
        npm run build:ts
        PREBUILDS_ONLY=1 npm run test:js
    '
report linux-x64-glibc-leg "Debian 11 build" "--" "floor, vitest ok ($(($(date +%s) - started)) s)"
