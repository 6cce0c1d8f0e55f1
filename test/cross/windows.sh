#!/bin/sh
# Windows x86-64: the engine's C tests (engine_test with the perft job tests,
# and the dispatch test through perft_tool) built with mingw-w64 and run
# under wine. The engine's _WIN32 code is what runs: InitOnceExecuteOnce,
# _beginthreadex threads and QueryPerformanceCounter.
#
# Not covered here: the MSVC build and the Node addon on Windows (no MSVC
# and no Windows Node here); the same _WIN32 code paths are compiled by gcc.
#
# Usage: sh test/cross/windows.sh [--max-nodes N]   (perft counts per depth
# for engine_test: 200000 by default, enough to run every code path under
# wine; 5000000, as `npm run test:c`, with test/cross/run.sh --full)
. "$(dirname "$0")/lib.sh"
started=$(date +%s)
max_nodes=$(full 200000 5000000)
[ "${1:-}" = --max-nodes ] && max_nodes=$2

need_apt x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64 || exit 1
need_apt wine wine wine64 || exit 1

build="$CROSS_ROOT/test/c/build-mingw"
if ! nice make -s -j"$(cross_jobs)" -C "$CROSS_ROOT/test/c" CC=x86_64-w64-mingw32-gcc BUILD=build-mingw EXE=.exe LDFLAGS=-static all; then
    report "win32-x64 (mingw, wine)" "--" FAIL "--"
    exit 1
fi
built=$(date +%s)

# A prefix of its own; no display, no Mono or Gecko (their installers would
# want a download and a window), no menu entries.
export WINEPREFIX="$CROSS_CACHE/wine-x64" WINEARCH=win64 WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
unset DISPLAY WAYLAND_DISPLAY
# One wineserver for the whole run (each wine start would otherwise pay for
# its own), started with the prefix's services before any test output is
# captured: they live on and would hold a capturing pipe open.
wineserver -p </dev/null >/dev/null 2>&1
wine wineboot -i </dev/null >/dev/null 2>&1
trap 'wineserver -k >/dev/null 2>&1' EXIT
# A new prefix links drive Z: to / and the user's folders to $HOME: links
# that would lead anything walking the repository (vitest looking for tests)
# through the whole file system. The programs need neither: wine runs them
# by their Unix path, and relative paths resolve from the working directory.
outward_links() {
    find "$WINEPREFIX" -type l | while read -r link; do
        case $(readlink "$link") in /*) [ -d "$link" ] && echo "$link" ;; esac
    done
}
outward_links | while read -r link; do rm -f "$link"; done
if [ -n "$(outward_links)" ]; then
    echo "windows: cannot remove the links out of $WINEPREFIX: $(outward_links)"
    report "win32-x64 (mingw, wine)" "--" FAIL "--"
    exit 1
fi

# wine's own link between a program and the wineserver can break under load
# ("wine client error: ... recvmsg: Connection reset by peer"): that is wine
# failing, not the program; so is a run that prints nothing at all, since
# every program run here prints. wine_run runs a program under wine and
# repeats such a run, at most twice, saying so on stderr; any other output,
# and the exit status, are the program's own.
cat >"$build/wine_run" <<'WINE_RUN'
#!/bin/sh
out=$(mktemp) err=$(mktemp)
attempt=1
while :; do
    wine "$@" >"$out" 2>"$err"; status=$?
    if grep -q "wine client error" "$out" "$err"; then why="wine client error"
    elif [ ! -s "$out" ] && [ ! -s "$err" ]; then why="no output at all (exit $status)"
    else break
    fi
    [ "$attempt" -lt 3 ] || break
    attempt=$((attempt + 1))
    echo "wine_run: $why, running $1 again (attempt $attempt)" >&2
    wineserver -p </dev/null >/dev/null 2>&1
done
cat "$out"; cat "$err" >&2
rm -f "$out" "$err"
exit $status
WINE_RUN
chmod +x "$build/wine_run"

# dispatch_test.sh runs its tool with `env VAR=... TOOL perft 4`: a script
# that hands the arguments to perft_tool.exe under wine (wine passes the
# environment on).
cat >"$build/perft_tool" <<EOF
#!/bin/sh
exec "$build/wine_run" "$build/perft_tool.exe" "\$@"
EOF
chmod +x "$build/perft_tool"

c_result=ok
# Windows text output ends lines with \r\n: the \r goes before display.
(cd "$CROSS_ROOT" && nice "$build/wine_run" "$build/engine_test.exe" --perft-dir test/data --max-nodes "$max_nodes") >"$build/engine_test.log" 2>&1 || c_result=FAIL
tr -d '\r' <"$build/engine_test.log" | sed 's/^/  /'
code_path=$(tr -d '\r' <"$build/engine_test.log" | sed -n 's/^init: .*active path \([^ ]*\) .*/\1/p')

(cd "$CROSS_ROOT/test/c" && sh ./dispatch_test.sh "$build/perft_tool") >"$build/dispatch.log" 2>&1 || c_result=FAIL
tr -d '\r' <"$build/dispatch.log" | sed 's/^/  /'

echo "windows: $(($(date +%s) - started)) s (build $((built - started)) s)"
report "win32-x64 (mingw, wine)" "${code_path:---}" "$c_result" "--"
[ "$c_result" = ok ]
