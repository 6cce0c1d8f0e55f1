#!/bin/sh
# Runs a command as an unprivileged user, as GitHub's runners run CI (the
# user `runner`): .ci/run, started as root, runs its gate this way, so that a
# step that works only as root fails here too.
#
#   sh test/release/as-user.sh DIR COMMAND [ARG...]
#
# DIR (.ci/run's scratch folder with the fresh clone) is handed to the user
# chess-native-ci (created when missing) and holds its HOME; npm's cache for
# it is kept in $CHESS_NATIVE_CROSS_CACHE/npm-user between runs.
set -eu
user=chess-native-ci
dir=$1
shift
[ "$(id -u)" = 0 ] || { echo "as-user: needs root" >&2; exit 1; }
id -u "$user" >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin "$user"
cache=${CHESS_NATIVE_CROSS_CACHE:?}/npm-user
mkdir -p "$dir/home" "$cache"
chown -R "$user:$user" "$dir" "$cache"
exec setpriv --reuid="$user" --regid="$user" --init-groups \
    env HOME="$dir/home" USER="$user" LOGNAME="$user" npm_config_cache="$cache" "$@"
