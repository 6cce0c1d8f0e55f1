#!/bin/sh
# Run-time dispatch: which code path each (simulated) CPU gets, and a clear
# error, not SIGILL, when pext is forced where it cannot run. The CPU is
# made to look older with the CHESS_NATIVE_CPU testing hook (csrc/init.c).
# Usage: dispatch_test.sh PERFT_TOOL [MACHINE]
# MACHINE (default: uname -m) is the tool's architecture; a cross run under
# qemu-user passes it, since uname and /proc/cpuinfo describe the host there.
tool="$1"
machine="${2:-$(uname -m)}"
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
case "$machine" in aarch64 | arm64)
    # One path on every AArch64 CPU; the x86 feature hooks change nothing.
    expect "default: arm64 path" "(arm64-magic)" 0
    expect "forced magic" "(arm64-magic)" 0 CHESS_NATIVE_SLIDERS=magic
    expect "x86 feature hooks ignored" "(arm64-magic)" 0 CHESS_NATIVE_CPU=no-bmi2,no-popcnt
    expect "pext forced: clear error" "this CPU (or build) has no BMI2 pext" 2 CHESS_NATIVE_SLIDERS=pext
    expect "bad CHESS_NATIVE_SLIDERS" "must be 'magic' or 'pext'" 2 CHESS_NATIVE_SLIDERS=fast
    echo "dispatch: $passed passed, $failed failed"
    exit $((failed != 0))
esac
if grep -q ' bmi2' /proc/cpuinfo 2>/dev/null && grep -q ' popcnt' /proc/cpuinfo; then
    expect "forced magic" "(bmi2-magic)" 0 CHESS_NATIVE_SLIDERS=magic
    expect "forced pext" "(pext)" 0 CHESS_NATIVE_SLIDERS=pext
    expect "slow pext (Zen 1/2) gets the multiply" "(bmi2-magic)" 0 CHESS_NATIVE_CPU=slow-pext
    expect "slow pext, forced pext still allowed" "(pext)" 0 CHESS_NATIVE_CPU=slow-pext CHESS_NATIVE_SLIDERS=pext
fi
expect "no BMI2: popcnt path" "(popcnt-magic)" 0 CHESS_NATIVE_CPU=no-bmi2
expect "no BMI2 and no popcnt: base path" "(base-magic)" 0 CHESS_NATIVE_CPU=no-bmi2,no-popcnt
expect "pext forced without BMI2: clear error" "this CPU (or build) has no BMI2 pext" 2 CHESS_NATIVE_CPU=no-bmi2 CHESS_NATIVE_SLIDERS=pext
expect "bad CHESS_NATIVE_SLIDERS" "must be 'magic' or 'pext'" 2 CHESS_NATIVE_SLIDERS=fast
echo "dispatch: $passed passed, $failed failed"
[ "$failed" = 0 ]
