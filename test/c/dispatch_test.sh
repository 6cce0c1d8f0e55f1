#!/bin/sh
# Run-time dispatch: which code path this CPU gets, by default, with a path
# forced (CHESS_NATIVE_SLIDERS) and with features hidden (CHESS_NATIVE_CPU, the
# testing hook in csrc/engine/init.c), and a clear error, not SIGILL, where a forced
# path cannot run. What to expect follows from the CPU as the engine itself
# detects it (`perft_tool cpu`: the architecture, then the features present),
# so the script holds on any machine, emulated ones included.
# Usage: dispatch_test.sh PERFT_TOOL
tool="$1"
failed=0
passed=0
expect() { # expect DESCRIPTION EXPECTED-SUBSTRING EXPECTED-EXIT env...
    description="$1"; expected="$2"; expected_exit="$3"; shift 3
    output=$(env "$@" "$tool" perft 4 2>&1); status=$?
    case "$output" in
    *"$expected"*) ;;
    *) echo "FAIL dispatch: $description: expected '$expected' in: $output"; failed=$((failed + 1)); return ;;
    esac
    if [ "$status" != "$expected_exit" ]; then
        echo "FAIL dispatch: $description: exit $status, expected $expected_exit"; failed=$((failed + 1)); return
    fi
    case "$expected_exit" in 0)
        case "$output" in *"nodes 197281 "*) ;; *) echo "FAIL dispatch: $description: wrong perft: $output"; failed=$((failed + 1)); return ;; esac
    esac
    passed=$((passed + 1))
}

cpu=$("$tool" cpu) || { echo "FAIL dispatch: $tool cpu: $cpu"; exit 1; }
cpu=$(printf '%s' "$cpu" | tr -d '\r') # a Windows build's line ends in \r\n
has() { case " $cpu " in *" $1 "*) return 0 ;; esac; return 1; }
echo "dispatch: CPU: $cpu"

# Per architecture, the path each situation should get:
#   magic           the best multiply path (CHESS_NATIVE_SLIDERS=magic)
#   with_pext       yes when the pext path can run
#   without_bmi2    the path once BMI2 is hidden
#   without_bits    the path once BMI2 and popcnt are hidden
# The default is pext where it can run and is fast, else magic.
case "${cpu%% *}" in
x86-64)
    without_bits=base-magic
    if has popcnt; then without_bmi2=popcnt-magic; else without_bmi2=base-magic; fi
    if has popcnt && has bmi1 && has bmi2 && has lzcnt; then
        magic=bmi2-magic with_pext=yes
    else
        magic=$without_bmi2 with_pext=no
    fi
    ;;
arm64)
    # One path on every AArch64 CPU (the hardware popcount is baseline there);
    # hiding x86 features changes nothing.
    magic=arm64-magic with_pext=no without_bmi2=arm64-magic without_bits=arm64-magic
    ;;
*)
    # No variant but the portable one.
    magic=base-magic with_pext=no without_bmi2=base-magic without_bits=base-magic
    ;;
esac
if [ "$with_pext" = yes ] && ! has slow-pext; then default=pext; else default=$magic; fi

pext_error="this CPU (or build) has no BMI2 pext"
expect "default path" "($default)" 0
expect "forced magic" "($magic)" 0 CHESS_NATIVE_SLIDERS=magic
if [ "$with_pext" = yes ]; then
    expect "forced pext" "(pext)" 0 CHESS_NATIVE_SLIDERS=pext
    expect "slow pext (Zen 1/2) gets the multiply" "($magic)" 0 CHESS_NATIVE_CPU=slow-pext
    expect "slow pext, forced pext still allowed" "(pext)" 0 CHESS_NATIVE_CPU=slow-pext CHESS_NATIVE_SLIDERS=pext
else
    expect "pext forced where it cannot run: clear error" "$pext_error" 2 CHESS_NATIVE_SLIDERS=pext
fi
expect "BMI2 hidden" "($without_bmi2)" 0 CHESS_NATIVE_CPU=no-bmi2
expect "BMI2 and popcnt hidden" "($without_bits)" 0 CHESS_NATIVE_CPU=no-bmi2,no-popcnt
expect "pext forced with BMI2 hidden: clear error" "$pext_error" 2 CHESS_NATIVE_CPU=no-bmi2 CHESS_NATIVE_SLIDERS=pext
expect "bad CHESS_NATIVE_SLIDERS" "must be 'magic' or 'pext'" 2 CHESS_NATIVE_SLIDERS=fast
echo "dispatch: $passed passed, $failed failed"
[ "$failed" = 0 ]
