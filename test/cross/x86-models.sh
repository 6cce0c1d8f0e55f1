#!/bin/sh
# x86-models: the C tests and the Node prebuild on emulated x86-64 CPUs, one
# on each side of every code-path boundary (qemu-x86_64 -cpu MODEL raises
# SIGILL for any instruction the model lacks). Each model must get its code
# path and the published perft counts:
#   qemu64         baseline x86-64 (SSE3, no SSSE3), no popcnt    base-magic
#   core2duo       SSSE3, no popcnt (pre-Nehalem Intel)            base-magic
#   phenom         AMD K10: popcnt and lzcnt, no SSSE3/SSE4.1      popcnt-magic
#   Nehalem-v1     popcnt and SSE4.2, no BMI                       popcnt-magic
#   Haswell-noTSX  BMI1/BMI2 with a fast pext                      pext
#   EPYC-v1        Zen 1 (AMD family 0x17): BMI2, microcoded pext  bmi2-magic
#
# By default one model per code path (qemu64, Nehalem-v1, Haswell-noTSX,
# EPYC-v1); all six with test/cross/run.sh --full.
#
# Per model: engine_test (every path the model can run, suites cut to counts
# of at most 20000 nodes), dispatch_test.sh (default, forced and hidden
# paths; perft 4), perft_tool's default path on cpw.epd up to 100k nodes
# (1M with --full); then
# Node with PREBUILDS_ONLY=1: engineInfo().impl, legal moves and their SAN
# against the suites' D1 counts, perft of suite positions, SAN cases,
# perftAsync, and CHESS_NATIVE_SLIDERS=pext: pext where BMI2 exists, else a
# clear Error at load.
#
# Usage: sh test/cross/x86-models.sh [MODEL...]   (x86-64 Linux)
set -u
here=$(cd "$(dirname "$0")" && pwd)

# emulate MODEL COMMAND...: COMMAND on the emulated CPU. qemu's notes about
# model features its TCG does not implement (none of them used by the engine)
# are dropped. dispatch_test.sh reaches it through a one-line wrapper.
emulate() {
    model=$1
    shift
    notes=$(mktemp)
    qemu-x86_64 -cpu "$model" "$@" 2> "$notes"
    status=$?
    grep -v "^qemu-x86_64: warning: TCG doesn't support requested feature" "$notes" >&2
    rm -f "$notes"
    return $status
}
if [ "${1:-}" = --emulate ]; then
    shift
    emulate "$@"
    exit
fi

. "$here/lib.sh"
root=$CROSS_ROOT
started=$(date +%s)
all_models="qemu64:base-magic core2duo:base-magic phenom:popcnt-magic Nehalem-v1:popcnt-magic Haswell-noTSX:pext EPYC-v1:bmi2-magic"
path_models="qemu64 Nehalem-v1 Haswell-noTSX EPYC-v1"
max_nodes=20000
tool_nodes=$(full 100000 1000000)

case "$(uname -m)" in
x86_64 | amd64) ;;
*)
    echo "x86-models: needs an x86-64 host (this is $(uname -m))"
    report x86-models "-" "--" "--"
    exit 0
    ;;
esac
need_apt qemu-x86_64 qemu-user || exit 1
need_apt make make || exit 1
need_apt cc gcc || exit 1

models=""
for wanted in ${*:-$(full "$path_models" all)}; do
    for entry in $all_models; do
        [ "$wanted" = all ] || [ "$wanted" = "${entry%%:*}" ] && models="$models $entry"
    done
done
[ -n "$models" ] || { echo "x86-models: no such model: $*; known: $all_models"; exit 2; }

work="$CROSS_CACHE/x86-models"
rm -rf "$work"
mkdir -p "$work/data"

# --- what the models run: the C tests' binaries, the prebuild, dist/ -------
make -j"$(cross_jobs)" -C "$root/test/c" all > "$work/make.log" 2>&1 || { cat "$work/make.log"; echo "x86-models: make failed"; exit 1; }
prebuild="$root/prebuilds/linux-x64/chess-native.node"
if [ ! -f "$prebuild" ] || [ -n "$(find "$root/csrc" "$root/binding.gyp" -newer "$prebuild" | head -1)" ] ||
    [ ! -f "$root/dist/index.js" ] || [ -n "$(find "$root/src" -newer "$root/dist/index.js" | head -1)" ]; then
    echo "x86-models: building dist/ and the prebuild"
    prefix=$(cd "$(dirname "$(command -v node)")/.." && pwd)
    [ -n "${npm_config_nodedir:-}" ] || [ ! -f "$prefix/include/node/node_api.h" ] || export npm_config_nodedir="$prefix"
    (cd "$root" && { [ -d node_modules ] || npm ci --foreground-scripts; } && npm run build:ts && npm run prebuild) \
        > "$work/prebuild.log" 2>&1 || { cat "$work/prebuild.log"; echo "x86-models: the build failed"; exit 1; }
fi
node_binary=$(command -v node)

# The suites cut to counts of at most max_nodes: engine_test's perft_job part
# reads the same files and has no node limit of its own. A line keeps its FEN
# (the move generator checks walk every position) even with no count left.
for suite in "$root"/test/data/*.epd; do
    awk -v limit="$max_nodes" '{
        semi = index($0, ";")
        fen = substr($0, 1, semi - 1)
        sub(/ +$/, "", fen)
        kept = ""
        n = split(substr($0, semi + 1), fields, ";")
        for (i = 1; i <= n; i++)
            if (split(fields[i], w, " ") == 2 && w[2] + 0 <= limit) kept = kept " ;" w[1] " " w[2]
        print fen (kept == "" ? " ;" : kept)
    }' "$suite" > "$work/data/$(basename "$suite")"
done
# engine_test --quick, where the binary offers it (its usage line says so).
quick=""
case "$("$root/test/c/build/engine_test" --usage 2>&1)" in *--quick*) quick=--quick ;; esac

# The Node checks. X86_EXPECTED: the code path, or "error" when loading must
# fail with the clear CHESS_NATIVE_SLIDERS=pext message.
node_checks='
const path = require("path");
const fs = require("fs");
const root = process.env.X86_ROOT;
const expected = process.env.X86_EXPECTED;
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };
let cn;
try {
  cn = require(root);
} catch (e) {
  if (expected !== "error") throw e;
  const clear = e instanceof Error && /^CHESS_NATIVE_SLIDERS=pext, but this CPU \(or build\) has no BMI2 pext/.test(e.message);
  console.log(`node: ${clear ? "clear error" : "FAIL: unclear error"}: ${e.message}`);
  process.exit(clear ? 0 : 1);
}
if (expected === "error") {
  console.log(`node: FAIL: loaded (${cn.engineInfo().impl}) where an error was expected`);
  process.exit(1);
}
const addons = Object.keys(require.cache).filter((file) => file.endsWith(".node"));
check(addons.length === 1 && addons[0] === path.join(root, "prebuilds", "linux-x64", "chess-native.node"), `addon: ${addons}`);
const info = cn.engineInfo();
check(info.impl === expected, `engineInfo().impl is ${info.impl}, expected ${expected}`);
check(info.sliders === (expected === "pext" ? "pext" : "magic"), `engineInfo().sliders is ${info.sliders}`);

// Published counts: D1 as legal moves (sorted, each SAN parsing back to its
// move), and perft up to a node budget.
let counts = 0;
let movesChecked = 0;
function suite(file, chess960, maxNodes, step) {
  const lines = fs.readFileSync(path.join(root, "test", "data", file), "utf8").split("\n").filter(Boolean);
  for (let i = 0; i < lines.length; i += step) {
    const [fen, ...fields] = lines[i].split(";");
    const where = `${file}:${i + 1}`;
    const pos = new cn.Position(fen.trim(), { chess960 });
    for (const field of fields) {
      const match = /^D(\d+) (\d+)$/.exec(field.trim());
      if (!match || Number(match[2]) > maxNodes) continue;
      const depth = Number(match[1]);
      const count = Number(match[2]);
      if (depth === 1) {
        const moves = pos.legalMoves();
        const sans = pos.legalMovesSan();
        check(moves.length === count, `${where}: ${moves.length} legal moves, expected ${count}`);
        check(moves.join() === [...moves].sort().join(), `${where}: legal moves not sorted`);
        check(sans.length === moves.length, `${where}: ${sans.length} SAN moves`);
        sans.forEach((san, k) => check(pos.parseSan(san) === moves[k], `${where}: SAN ${san} is not ${moves[k]}`));
        movesChecked += moves.length;
      }
      const nodes = pos.perft(depth);
      check(nodes === count, `${where} D${depth}: ${nodes}, expected ${count}`);
      counts++;
    }
  }
}
suite("perftsuite.epd", false, 20000, 1);
suite("cpw.epd", false, 100000, 1);
suite("tricky.epd", false, 100000, 1);
suite("fischer.epd", true, 20000, 24);

// SAN: disambiguation, promotion with check, castling, mate.
const knights = new cn.Position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
check(knights.san("b1d2") === "Nbd2" && knights.san("f3d2") === "Nfd2", "knight disambiguation");
check(new cn.Position("8/P7/8/8/8/8/8/k6K w - - 0 1").san("a7a8q") === "a8=Q+", "promotion with check");
const kiwipete = new cn.Position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
check(kiwipete.san("e1g1") === "O-O" && kiwipete.san("e1c1") === "O-O-O" && kiwipete.san("d5e6") === "dxe6", "kiwipete SAN");
const fools = new cn.Position().playSanLine("f3 e5 g4 Qh4#");
check(fools.isCheckmate() && fools.history().join(" ") === "f2f3 e7e5 g2g4 d8h4", "fools mate");
check(new cn.Position().sanLine("e2e4 e7e5 g1f3 b8c6 f1b5").join(" ") === "e4 e5 Nf3 Nc6 Bb5", "sanLine");

cn.perftAsync(kiwipete.fen(), 3, { threads: 2 }).then((result) => {
  check(result.nodes === 97862n, `perftAsync kiwipete D3: ${result.nodes}`);
  for (const failure of failures.slice(0, 20)) console.log(`node: FAIL: ${failure}`);
  console.log(`node: ${info.impl}: ${counts} perft counts, ${movesChecked} moves with SAN, ${failures.length} failures`);
  process.exit(failures.length ? 1 : 0);
});
'

# run_model MODEL EXPECTED-PATH: the model's checks; its log ends with the
# model's summary line (C and Node results).
run_model() {
    model=$1 expected=$2
    c=ok node=ok
    wrapper="$work/perft_tool-$model"
    printf '#!/bin/sh\nexec sh "%s" --emulate %s "%s" "$@"\n' "$here/x86-models.sh" "$model" "$root/test/c/build/perft_tool" > "$wrapper"
    chmod +x "$wrapper"
    echo "== $model: $("$wrapper" cpu 2>&1)"

    output=$(emulate "$model" "$root/test/c/build/engine_test" --perft-dir "$work/data" --max-nodes "$max_nodes" $quick 2>&1)
    status=$?
    echo "$output" | grep -E '^(init|perft (pext|bmi2-magic|popcnt-magic|base-magic) +perftsuite|perft: path|FAIL)|checks:' | head -30
    [ "$status" = 0 ] || { c=FAIL; echo "FAIL $model: engine_test exit $status$([ "$status" -gt 128 ] && echo " (signal $((status - 128)))")"; }
    case "$output" in *"active path $expected "*) ;; *) c=FAIL; echo "FAIL $model: engine_test did not choose $expected" ;; esac

    sh "$root/test/c/dispatch_test.sh" "$wrapper" || c=FAIL

    output=$("$wrapper" suite "$root/test/data/cpw.epd" "$tool_nodes" 2>&1)
    status=$?
    echo "$output"
    case "$status $output" in "0 "*", 0 failed; "*"($expected)"*) ;; *) c=FAIL; echo "FAIL $model: perft_tool suite" ;; esac

    X86_ROOT="$root" X86_EXPECTED="$expected" PREBUILDS_ONLY=1 emulate "$model" "$node_binary" -e "$node_checks" || node=FAIL
    case "$expected" in pext | bmi2-magic) forced=pext ;; *) forced=error ;; esac
    X86_ROOT="$root" X86_EXPECTED="$forced" PREBUILDS_ONLY=1 CHESS_NATIVE_SLIDERS=pext \
        emulate "$model" "$node_binary" -e "$node_checks" || node=FAIL
    echo "summary $model $expected $c $node"
}

# Two models at a time (they are single-threaded for the most part).
set -- $models
while [ $# -gt 0 ]; do
    first=$1
    shift
    echo "x86-models: ${first%%:*}${1:+ and ${1%%:*}}"
    run_model "${first%%:*}" "${first#*:}" > "$work/${first%%:*}.log" 2>&1 &
    if [ $# -gt 0 ]; then
        second=$1
        shift
        run_model "${second%%:*}" "${second#*:}" > "$work/${second%%:*}.log" 2>&1 &
    fi
    wait
done

failed=0
for entry in $models; do
    grep -v '^summary ' "$work/${entry%%:*}.log"
done
for entry in $models; do
    set -- $(grep '^summary ' "$work/${entry%%:*}.log" || echo "summary ${entry%%:*} ${entry#*:} FAIL FAIL")
    report "x86-64 $2" "$3" "$4" "$5"
    [ "$4 $5" = "ok ok" ] || failed=1
done
echo "x86-models: $(($(date +%s) - started)) s"
exit $failed
