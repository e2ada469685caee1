#!/usr/bin/env bash
# The evidence table of docs/KNOWN_DIFFERENCES.md (`make compat-table`).
# For every shared dump: MSE and differing pixels against PPSSPP's reference
# for the normal build (GE-HARDWARE.md rules), for the diagnostic build with
# every PPSSPP switch of pipeline/compat.h, and with every switch but one
# (the column names the switch left out, i.e. that one rule back to the
# hardware's). usage: compat_table.sh GETILE COMPAT_GETILE DUMPS_DIR REF_DIR
set -euo pipefail
hw=$1 compat=$2 dumps=$3 refs=$4
switches=(arith planes merge viewer light replay texcache atest atforce round rectedge aaline lod lineedge zeroarea patch)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mse() { # getile-binary dump env-value -> "mse/pixels"
    local bin=$1 dump=$2 sw=$3 name ref
    name=$(basename "$dump"); name=${name%.*}; name=${name%.ppdmp}
    ref="$refs/$name-soft.png"
    if ! GETILE_PPSSPP_COMPAT=$sw "$bin" render --threads 1 "$dump" -o "$out/o.png" >/dev/null 2>"$out/err"; then
        echo "error"; return
    fi
    "$bin" compare "$out/o.png" "$ref" 2>&1 | sed -n 's/.*MSE \([0-9.]*\), differing pixels \([0-9]*\).*/\1 \2/p' |
        awk '{printf "%.3g (%d)", $1, $2}'
}
printf '| dump | getile | all PPSSPP switches |'
for s in "${switches[@]}"; do printf ' all but %s |' "$s"; done
printf '\n|---|---:|---:|'
for s in "${switches[@]}"; do printf -- '---:|'; done
printf '\n'
for dump in "$dumps"/*; do
    name=$(basename "$dump"); name=${name%.*}; name=${name%.ppdmp}
    printf '| %s | %s | %s |' "$(echo "$name" | cut -c1-40)" "$(mse "$hw" "$dump" none)" "$(mse "$compat" "$dump" all)"
    for s in "${switches[@]}"; do printf ' %s |' "$(mse "$compat" "$dump" "all,-$s")"; done
    printf '\n'
done
