#!/usr/bin/env bash
# Traces the game dumps' difference from PPSSPP's references through a chain
# of commits (`make rule-chain`), one measured rule per commit: each commit
# is built in a scratch tree, every shared dump is rendered, and the table
# gives, per dump and commit, the MSE (differing pixels) against the
# reference and how many pixels that commit changed from the one before.
# Because consecutive builds differ only in that commit's rule, the pixels it
# changes are that rule's, and the chain telescopes from the first commit's
# figures (explained by the compat evidence table) to the last's.
# usage: rule_chain.sh DUMPS_DIR REF_DIR COMMIT...
set -euo pipefail
dumps=$1 refs=$2
shift 2
[ $# -ge 2 ] || { echo "rule_chain.sh: need at least two commits" >&2; exit 2; }
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names=()
for d in "$dumps"/*; do
    n=$(basename "$d"); n=${n%.*}; n=${n%.ppdmp}; names+=("$n")
done
i=0
for c in "$@"; do
    src="$work/src$i"
    mkdir -p "$src" "$work/img$i"
    git -C "$repo" archive "$c" | tar -x -C "$src"
    mkdir -p "$src/build" && touch "$src/build/.deps-ok"
    if ! make -C "$src" -j2 -s build/getile >"$work/build$i.log" 2>&1; then
        echo "rule_chain.sh: commit $c does not build (see below)" >&2
        tail -20 "$work/build$i.log" >&2; exit 1
    fi
    k=0
    for d in "$dumps"/*; do
        "$src/build/getile" render --threads 1 "$d" -o "$work/img$i/${names[$k]}.png" >/dev/null 2>&1 ||
            echo "error" >"$work/img$i/${names[$k]}.png"
        k=$((k + 1))
    done
    [ "$i" -gt 0 ] && rm -rf "$work/src$((i - 1))"
    last="$src/build/getile"
    i=$((i + 1))
done
cmpfig() { # a.png b.png -> "mse (pixels)"
    { "$last" compare "$1" "$2" 2>&1 || true; } |
        sed -n 's/.*MSE \([0-9.]*\), differing pixels \([0-9]*\).*/\1 \2/p' |
        awk '{printf "%.3g (%d)", $1, $2}'
}
printf '| dump |'
for c in "$@"; do printf ' %s |' "$(git -C "$repo" rev-parse --short "$c")"; done
printf '\n|---|'
for c in "$@"; do printf -- '---:|'; done
printf '\n'
k=0
for n in "${names[@]}"; do
    printf '| %s |' "$(echo "$n" | cut -c1-40)"
    for ((j = 0; j < i; j++)); do
        f="$work/img$j/$n.png"
        cell=$(cmpfig "$f" "$refs/$n-soft.png")
        if [ "$j" -gt 0 ]; then
            moved=$(cmpfig "$work/img$((j - 1))/$n.png" "$f" | sed -n 's/.*(\([0-9]*\))/\1/p')
            cell="$cell, ${moved:-?} changed"
        fi
        printf ' %s |' "$cell"
    done
    printf '\n'
    k=$((k + 1))
done
