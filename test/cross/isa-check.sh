#!/bin/sh
# isa-check: no x86-64 code path uses an instruction its run-time check does
# not cover. One binary serves every x86-64 CPU: the code outside the variants
# and base-magic must be baseline x86-64 (SSE2), popcnt-magic may add popcnt
# only, bmi2-magic and pext may add popcnt, lzcnt, BMI1 and BMI2
# (cn_impl_runnable in csrc/engine/init.c checks exactly those bits).
#
# Disassembles, function by function (objdump -d):
#   1. the engine objects built here with gcc and with clang (-O3, as
#      binding.gyp and test/c build them); a function's class is its
#      object's (the variants are the static functions of
#      csrc/engine/variants/<variant>.c, each of which compiles the hot code
#      through variant.h);
#   2. the addon as node-gyp links it, classed by the symbol table: a local
#      function listed under FILE <variant>.c belongs to that variant;
#   3. the stripped prebuild, whose code must be byte for byte that addon's.
# Negative controls (the popcnt variant built with -msse4.2, the base one with
# BMI2) must be flagged, so a check that cannot fail does not pass silently.
#
# Usage: sh test/cross/isa-check.sh   (x86-64 Linux; builds what is missing)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
root=$CROSS_ROOT
started=$(date +%s)
work="$CROSS_CACHE/isa-check"
rm -rf "$work"
mkdir -p "$work"

# Every finding is a "FAIL isa:" line; the counts at the end are of those.
fail() {
    echo "FAIL isa: $*"
}

case "$(uname -m)" in
x86_64 | amd64) ;;
*)
    echo "isa-check: x86-64 only (this is $(uname -m))"
    report isa-check "-" "--" "--"
    exit 0
    ;;
esac
need_apt objdump binutils || exit 1
need_apt gcc gcc || exit 1
need_apt clang clang || exit 1

# The scanner. Input: `objdump -d --no-show-raw-insn -M intel`. Variables:
#   label          what is scanned, for the messages
#   default_class  class of the functions the map does not name
#   map            optional file of "ADDRESS CLASS" lines (linked binaries)
# Classes and what they may use beyond SSE2: base nothing; popcnt POPCNT;
# bmi2 and pext POPCNT, LZCNT, BMI1, BMI2; any: the union of all classes.
# The tzcnt encoding is `rep bsf`: gcc emits it for count-trailing-zeros in
# baseline code and CPUs without BMI1 run it as bsf, with the same result for
# the non-zero input that ctz requires. In base and popcnt code it is counted
# as rep-bsf; the compilers' assembly (checked below) tells a real tzcnt from it.
# Output lines: "F CLASS FUNCTIONS", "N CLASS MNEMONIC COUNT" (extension
# instructions used) and "V CLASS FUNCTION MNEMONIC EXTENSION COUNT".
scan_program='
function add(list, extension,    words, i) {
    split(list, words, " ")
    for (i in words) ext[words[i]] = extension
}
function extension_of(m) {
    if (m in ext) return ext[m]
    # VEX and EVEX vector instructions (AVX, AVX2, AVX-512, FMA, F16C, XOP) all
    # begin with v; verr and verw are old system instructions.
    if (m ~ /^v/ && m != "verr" && m != "verw") return "AVX"
    if (m ~ /^k(add|and|andn|mov|not|or|ortest|shiftl|shiftr|test|unpck|xnor|xor)[bwdq]+$/) return "AVX512"
    if (m ~ /^pclmul/) return "PCLMUL"
    if (m ~ /^(aes|sha1|sha256|gf2p8)/) return "AES-SHA-GFNI"
    if (m ~ /^(xsave|xrstor)/) return "XSAVE"
    if (m ~ /^pf/) return "3DNOW"
    return ""
}
BEGIN {
    add("addsubpd addsubps haddpd haddps hsubpd hsubps lddqu movddup movshdup movsldup fisttp monitor mwait", "SSE3")
    add("pabsb pabsd pabsw palignr phaddd phaddsw phaddw phsubd phsubsw phsubw pmaddubsw pmulhrsw pshufb psignb psignd psignw", "SSSE3")
    add("blendpd blendps blendvpd blendvps dppd dpps extractps insertps movntdqa mpsadbw packusdw pblendvb pblendw " \
        "pcmpeqq pextrb pextrd pextrq phminposuw pinsrb pinsrd pinsrq pmaxsb pmaxsd pmaxud pmaxuw pminsb pminsd " \
        "pminud pminuw pmovsxbd pmovsxbq pmovsxbw pmovsxdq pmovsxwd pmovsxwq pmovzxbd pmovzxbq pmovzxbw pmovzxdq " \
        "pmovzxwd pmovzxwq pmuldq pmulld ptest roundpd roundps roundsd roundss", "SSE4.1")
    add("crc32 pcmpestri pcmpestrm pcmpgtq pcmpistri pcmpistrm", "SSE4.2")
    add("extrq insertq movntsd movntss", "SSE4a")
    add("popcnt", "POPCNT")
    add("lzcnt", "LZCNT")
    add("andn bextr blsi blsmsk blsr tzcnt", "BMI1")
    add("bzhi mulx pdep pext rorx sarx shlx shrx", "BMI2")
    add("blcfill blci blcic blcmsk blcs blsfill blsic t1mskc tzmsk", "TBM")
    add("adcx adox", "ADX")
    add("movbe", "MOVBE")
    add("cmpxchg16b", "CX16")
    add("lahf sahf", "LAHF64")
    add("rdrand rdseed", "RDRAND")
    add("prefetchw prefetchwt1", "PRFCHW")
    add("clflushopt clwb xgetbv femms pavgusb pi2fd pi2fw pmulhrw pswapd", "OTHER")
    allowed["popcnt", "POPCNT"] = 1
    split("bmi2 pext any", bmi_classes, " ")
    for (i in bmi_classes) {
        c = bmi_classes[i]
        allowed[c, "POPCNT"] = allowed[c, "LZCNT"] = allowed[c, "BMI1"] = allowed[c, "BMI2"] = 1
    }
    allowed["base", "REP-BSF"] = allowed["popcnt", "REP-BSF"] = 1
    split("lock rep repz repe repnz repne data16 data32 addr32 cs ds es fs gs ss notrack bnd xacquire xrelease", p, " ")
    for (i in p) prefix[p[i]] = 1
    if (map != "")
        while ((getline line < map) > 0) {
            split(line, f, " ")
            class_at[f[1]] = f[2]
        }
    class = default_class
    fn = "(no symbol)"
}
/^[0-9a-f]+ <.*>:$/ {
    fn = substr($2, 2, length($2) - 3)
    class = ($1 in class_at) ? class_at[$1] : default_class
    functions[class]++
    next
}
/^ *[0-9a-f]+:\t/ {
    split($0, parts, "\t")
    n = split(parts[2], w, " ")
    i = 1
    while (i <= n && ((w[i] in prefix) || w[i] ~ /^rex/)) i++
    if (i > n) next
    m = w[i]
    e = m == "(bad)" ? "UNDECODABLE" : extension_of(m)
    if (e == "") next
    if (m == "tzcnt" && (class == "base" || class == "popcnt")) {
        m = "rep-bsf"
        e = "REP-BSF"
    }
    seen[class SUBSEP m]++
    if (!((class, e) in allowed)) bad[class SUBSEP fn SUBSEP m SUBSEP e]++
}
END {
    for (c in functions) print "F", c, functions[c]
    for (k in seen) {
        split(k, f, SUBSEP)
        print "N", f[1], f[2], seen[k]
    }
    for (k in bad) {
        split(k, f, SUBSEP)
        print "V", f[1], f[2], f[3], f[4], bad[k]
    }
}'

# scan LABEL BINARY DEFAULT_CLASS [MAP] > facts
scan() {
    objdump -d --no-show-raw-insn -M intel "$2" | awk -v label="$1" -v default_class="$3" -v map="${4:-}" "$scan_program"
}

# class_of_source popcnt_magic.c -> popcnt: the variant a source file (named
# for its code path) compiles. Any other file, base_magic.c and arm64_magic.c
# included, is held to baseline.
class_of_source() {
    case "$1" in
    popcnt_magic.*) echo popcnt ;;
    bmi2_magic.*) echo bmi2 ;;
    pext.*) echo pext ;;
    *) echo base ;;
    esac
}

# judge LABEL FACTS [sanity]: prints the summary and the violations of one
# scanned unit; with "sanity", also requires every class to have functions
# and each variant its own instructions (popcnt-magic popcnt, bmi2-magic
# BMI1/BMI2, pext pext), which shows the function map found the variants and
# their target pragmas took effect.
judge() {
    label=$1 facts=$2 sanity=${3:-}
    summary=$(awk '
        $1 == "F" { fns[$2] += $3 }
        $1 == "N" { used[$2 " " $3] += $4 }
        END {
            split("base popcnt bmi2 pext any", order, " ")
            for (i = 1; i <= 5; i++) {
                c = order[i]
                if (!(c in fns)) continue
                list = ""
                for (k in used) if (split(k, f, " ") && f[1] == c) list = list " " f[2] " x" used[k]
                printf "%s%s: %d functions,%s", (i > 1 ? "; " : ""), c, fns[c], (list == "" ? " nothing beyond SSE2" : list)
            }
        }' "$facts")
    echo "isa: $label: $summary"
    awk '$1 == "V" { printf "FAIL isa: %s: %s function %s uses %s (%s) %d times\n", label, $2, $3, $4, $5, $6 }' label="$label" "$facts" | sort
    [ "$sanity" = sanity ] || return 0
    for class in base popcnt bmi2 pext; do
        grep -q "^F $class [1-9]" "$facts" || fail "$label: no $class functions found"
    done
    grep -q '^N popcnt popcnt ' "$facts" || fail "$label: popcnt-magic has no popcnt"
    grep -Eq '^N bmi2 (andn|blsr|shlx|shrx|tzcnt) ' "$facts" || fail "$label: bmi2-magic has no BMI instruction"
    grep -q '^N pext pext ' "$facts" || fail "$label: the pext variant has no pext"
}

# check_objects COMPILER: builds every engine source as binding.gyp does
# (-O3) and judges every object, then the negative controls.
check_objects() {
    compiler=$1
    dir="$work/$compiler"
    mkdir -p "$dir"
    : > "$dir/facts"
    for source in "$root"/csrc/engine/*.c "$root"/csrc/engine/variants/*.c; do
        name=$(basename "$source" .c)
        class=$(class_of_source "$name.c")
        # Warnings are the C tests' business; here they would only hide the findings.
        if ! (cd "$dir" && $compiler $flags -save-temps=obj -c -o "$name.o" "$source" 2> "$name.log"); then
            fail "$compiler: $name.c does not compile: $(cat "$dir/$name.log")"
            continue
        fi
        scan "$compiler $name.o" "$dir/$name.o" "$class" >> "$dir/facts"
        # A real tzcnt in the assembly of base or popcnt code is a BMI1
        # instruction, not the rep bsf that the scanner lets pass.
        if [ "$class" = base ] || [ "$class" = popcnt ]; then
            ! grep -Eq '^[[:space:]]+tzcnt[wlq]?[[:space:]]' "$dir/$name.s" ||
                fail "$compiler: $name.c ($class) has a real tzcnt in its assembly"
        fi
    done
    judge "$compiler objects" "$dir/facts" sanity

    # Negative controls: the check must reject these.
    if $compiler $flags -msse4.2 -c -o "$dir/control_popcnt.o" "$root/csrc/engine/variants/popcnt_magic.c" &&
        $compiler $flags -mpopcnt -mbmi -mbmi2 -c -o "$dir/control_base.o" "$root/csrc/engine/variants/base_magic.c"; then
        flagged=$(scan control "$dir/control_popcnt.o" popcnt | awk '$1 == "V" { print $4 "(" $5 ")" }' | sort -u | tr '\n' ' ')
        [ -n "$flagged" ] || fail "$compiler: popcnt-magic built with -msse4.2 was not flagged"
        echo "isa: $compiler control: popcnt-magic built with -msse4.2 is flagged: $flagged"
        flagged=$(scan control "$dir/control_base.o" base | awk '$1 == "V" { print $4 "(" $5 ")" }' | sort -u | tr '\n' ' ')
        [ -n "$flagged" ] || fail "$compiler: base-magic built with BMI was not flagged"
        echo "isa: $compiler control: base-magic built with popcnt and BMI is flagged: $flagged"
    else
        fail "$compiler: the negative controls do not compile"
    fi
}

# map_of BINARY: "ADDRESS CLASS" for each function a variant file defines.
map_of() {
    readelf -sW "$1" | awk '
        $4 == "FILE" { file = $8 }
        $4 == "FUNC" && $5 == "LOCAL" { print $2, file }' |
        while read -r address file; do
            class=$(class_of_source "$file")
            [ "$class" = base ] || echo "$address $class"
        done
}

# code_of BINARY: a checksum of each executable section, to compare builds.
code_of() {
    for section in $(readelf -SW "$1" | awk '/^ *\[ *[0-9]+\]/ { sub(/^ *\[ *[0-9]+\] */, ""); if ($7 ~ /X/) print $1 }'); do
        objcopy -O binary --only-section="$section" "$1" "$work/section.bin" &&
            echo "$section $(cksum < "$work/section.bin")"
    done
}

# check_addon: the addon node-gyp linked (relinked unstripped from its
# objects, with the command node-gyp recorded), build/Release's copy when it
# has symbols, and the prebuilds, whose code must be that addon's.
check_addon() {
    link_record="$root/build/Release/.deps/Release/obj.target/chess_native.node.d"
    prebuild="$root/prebuilds/linux-x64/chess-native.node"
    if [ ! -f "$link_record" ] || [ ! -f "$prebuild" ] ||
        [ -n "$(find "$root/csrc" "$root/binding.gyp" -newer "$prebuild" | head -1)" ]; then
        echo "isa: building the addon and the prebuild (npm run prebuild)"
        prefix=$(cd "$(dirname "$(command -v node)")/.." && pwd)
        [ -n "${npm_config_nodedir:-}" ] || [ ! -f "$prefix/include/node/node_api.h" ] || export npm_config_nodedir="$prefix"
        if ! (cd "$root" && { [ -d node_modules ] || npm ci --foreground-scripts; } && npm run prebuild) > "$work/prebuild.log" 2>&1; then
            cat "$work/prebuild.log"
            fail "npm run prebuild failed"
            return
        fi
    fi
    linked="$work/relinked.node"
    link_command=$(sed -n 's/^cmd_Release\/obj\.target\/chess_native\.node := //p' "$link_record")
    case "$link_command" in
    *"-o Release/obj.target/chess_native.node "*) ;;
    *)
        fail "no link command in $link_record"
        return
        ;;
    esac
    if ! (cd "$root/build" && eval "$(echo "$link_command" | sed "s#-o Release/obj.target/chess_native.node #-o '$linked' #")"); then
        fail "relinking the addon failed"
        return
    fi
    map_of "$linked" > "$work/addon.map"
    scan addon "$linked" base "$work/addon.map" > "$work/addon.facts"
    judge "addon (node-gyp objects, linked)" "$work/addon.facts" sanity

    addon="$root/build/Release/chess_native.node"
    if [ -f "$addon" ] && readelf -SW "$addon" | grep -q ' \.symtab '; then
        map_of "$addon" > "$work/build.map"
        scan build "$addon" base "$work/build.map" > "$work/build.facts"
        judge "build/Release/chess_native.node" "$work/build.facts" sanity
    fi
    reference=$(code_of "$linked")
    for binary in "$root"/prebuilds/linux-x64/*.node; do
        if [ "$(code_of "$binary")" = "$reference" ]; then
            echo "isa: ${binary#"$root/"}: its code is byte for byte the checked addon's"
        elif [ "$binary" = "$prebuild" ]; then
            fail "${binary#"$root/"}: its code differs from build/'s (run npm run prebuild again)"
        else
            # Another libc's build (no symbols, other objects): at least no
            # instruction that no variant may use.
            scan other "$binary" any > "$work/other.facts"
            judge "${binary#"$root/"} (stripped, whole binary)" "$work/other.facts"
        fi
    done
}

# gcc and clang side by side (2 cores), then the addon.
flags="-std=c11 -O3 -fPIC -fvisibility=hidden -pthread"
check_objects gcc > "$work/gcc.log" 2>&1 &
check_objects clang > "$work/clang.log" 2>&1 &
wait
cat "$work/gcc.log" "$work/clang.log"
check_addon > "$work/addon.log" 2>&1
cat "$work/addon.log"

objects_failures=$(cat "$work/gcc.log" "$work/clang.log" | grep -c '^FAIL isa:')
addon_failures=$(grep -c '^FAIL isa:' "$work/addon.log")
[ "$objects_failures" = 0 ] && objects=ok || objects=FAIL
[ "$addon_failures" = 0 ] && addon=ok || addon=FAIL
echo "isa-check: $((objects_failures + addon_failures)) failure(s) in $(($(date +%s) - started)) s"
report "isa-check x86-64" "all variants" "$objects" "$addon"
[ "$objects" = ok ] && [ "$addon" = ok ]
