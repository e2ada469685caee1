#!/usr/bin/env bash
# Splits the measured rules of one commit apart on the game dumps (`make
# rule-reverts`): builds commit $BASE and, beside it, $BASE with
# tests/rule_reverts.patch, renders every shared dump with each rule of the
# patch put back alone (GETILE_REVERT=name) and with all of them, and prints
# per dump and rule: the pixels that rule changes, and the MSE against
# PPSSPP's reference with that rule reverted (docs/KNOWN_DIFFERENCES.md,
# "What this does to the comparison with PPSSPP's images").
# usage: rule_reverts.sh DUMPS_DIR REF_DIR
set -euo pipefail
dumps=$1 refs=$2
BASE=b5a1c1f
RULES="centre7 uvfull tex30 fog16 anchor tables topleft notall depthlin setupexact"
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in base rev; do
    mkdir -p "$work/$t/build"
    git -C "$repo" archive "$BASE" | tar -x -C "$work/$t"
    touch "$work/$t/build/.deps-ok"
done
(cd "$work/rev" && git apply --unsafe-paths -p1 "$repo/tests/rule_reverts.patch")
for t in base rev; do
    make -C "$work/$t" -j2 -s build/getile >"$work/$t.log" 2>&1 ||
        { echo "rule_reverts.sh: the $t build failed" >&2; tail -20 "$work/$t.log" >&2; exit 1; }
done
names=()
for d in "$dumps"/*; do
    n=$(basename "$d"); n=${n%.*}; n=${n%.ppdmp}; names+=("$n")
done
render() { # GETILE OUTDIR REVERT
    mkdir -p "$2"
    local k=0
    for d in "$dumps"/*; do
        GETILE_REVERT=$3 "$1" render --threads 1 "$d" -o "$2/${names[$k]}.png" >/dev/null 2>&1 ||
            echo error >"$2/${names[$k]}.png"
        k=$((k + 1))
    done
}
render "$work/base/build/getile" "$work/img/now" ""
render "$work/rev/build/getile" "$work/img/unset" ""
all=$(echo $RULES | tr ' ' ',')
for r in $RULES all; do
    render "$work/rev/build/getile" "$work/img/$r" "$([ $r = all ] && echo "$all" || echo $r)"
done
G="$work/base/build/getile"
fig() { # a.png b.png -> "mse pixels"
    { "$G" compare "$1" "$2" 2>&1 || true; } |
        sed -n 's/.*MSE \([0-9.]*\), differing pixels \([0-9]*\).*/\1 \2/p'
}
for n in "${names[@]}"; do
    cmp -s "$work/img/now/$n.png" "$work/img/unset/$n.png" ||
        { echo "rule_reverts.sh: $n: the patched build differs with no rule reverted" >&2; exit 1; }
done
printf '| dump | now |'
for r in $RULES all; do printf ' %s |' "$r"; done
printf '\n|---|---:|'
for r in $RULES all; do printf -- '---:|'; done
printf '\n'
for n in "${names[@]}"; do
    printf '| %s | %s |' "$(echo "$n" | cut -c1-28)" \
        "$(fig "$work/img/now/$n.png" "$refs/$n-soft.png" | awk '{printf "%.3g (%d)", $1, $2}')"
    for r in $RULES all; do
        px=$(fig "$work/img/now/$n.png" "$work/img/$r/$n.png" | awk '{print $2}')
        if [ "${px:-0}" = 0 ]; then
            printf ' |'
        else
            printf ' %s px, %s |' "$px" "$(fig "$work/img/$r/$n.png" "$refs/$n-soft.png" | awk '{printf "%.3g", $1}')"
        fi
    done
    printf '\n'
done
