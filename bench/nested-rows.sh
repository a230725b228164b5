#!/usr/bin/env bash
# Parquet rows flat and nested (--row-layout nested), side by side: for each row shape, the two layouts run
# alternately on the same input, each a whole launcher process with its files fsynced inside the time; prints the
# median wall time of each and the ratio nested/flat, and the files' sizes.
# Usage: bench/nested-rows.sh [--size 2g] [--reps 3] [--compression none|zstd] [--dir /tmp/tb-nested-bench]
# Row shapes: [4096] (one dimension: the layouts are the same file), [64,64], [512,8] and [2048,2] (the worst case:
# an innermost list of 2 costs a level run per pair of values).
set -euo pipefail
root=$(cd "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.." && pwd)
size=2g reps=3 compression=none dir=/tmp/tb-nested-bench
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --compression) compression=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,7p' "$0"; exit 0 ;;
        *) echo "bench/nested-rows.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
case "${size,,}" in
    *g) bytes=$(( ${size%[gG]} << 30 )) ;;
    *m) bytes=$(( ${size%[mM]} << 20 )) ;;
    *) bytes=$size ;;
esac

echo "building (once, before measuring)..." >&2
(cd "$root" && mvn -B -q -o -DskipTests -pl job -am package >/dev/null)
"$root/tensor-broadcast" expand --input "$root/examples/row4096.npy" --dialect numpy --shape 4,4096 --format null \
    --json >/dev/null 2>&1

rm -rf "$dir"; mkdir -p "$dir"
results="$dir/results.tsv"; : >"$results"
log="$dir/log.txt"; : >"$log"
trap 'echo "bench/nested-rows.sh: failed at line $LINENO (log: $log)" >&2' ERR

now() { date +%s.%N; }
run() { # rep row-shape layout
    local rep=$1 row=$2 layout=$3 rows source t0 t2 json
    rows=$(( bytes / 4 / $(echo "$row" | tr ',' '*' | bc) ))
    source="$dir/row-${row//,/x}.npy"
    [[ -f $source ]] || python3 -c 'import sys, numpy as np; s = tuple(int(v) for v in sys.argv[2].split(","));
np.save(sys.argv[1], (np.arange(int(np.prod(s))) % 1000003).astype(np.float32).reshape((1,) + s))' "$source" "$row"
    rm -rf "$dir/out"
    t0=$(now)
    json=$("$root/tensor-broadcast" expand --input "$source" --dialect numpy --shape "$rows,$row" --format parquet \
        --compression "$compression" --row-layout "$layout" --output "$dir/out" --json 2>>"$log")
    sync -d "$dir"/out/part-*
    t2=$(now)
    printf '%s\t%s\t%s\t%.3f\t%s\n' "$rep" "$row" "$layout" "$(echo "$t2 - $t0" | bc)" \
        "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["bytes"])' "$json")" >>"$results"
    printf '  %-8s %-7s %6.2f s\n' "$row" "$layout" "$(echo "$t2 - $t0" | bc)" >&2
    rm -rf "$dir/out"
}

for ((rep = 1; rep <= reps; rep++)); do
    for row in 4096 64,64 512,8 2048,2; do
        echo "rep $rep, row [$row] ($(uptime | sed 's/.*load/load/'))" >&2
        run "$rep" "$row" flat
        run "$rep" "$row" nested
    done
done

echo "Written by \`bench/nested-rows.sh --size $size --reps $reps --compression $compression\` on" \
    "$(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores; medians of $reps, whole process with fsync:"
echo
python3 - "$results" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    rep, row, layout, seconds, size = line.split("\t")
    runs.setdefault((row, layout), []).append((float(seconds), int(size)))
print("| row shape | flat | nested | nested / flat | flat file bytes | nested file bytes |")
print("|---|---|---|---|---|---|")
for row in dict.fromkeys(r for r, _ in runs):
    flat = statistics.median(s for s, _ in runs[(row, "flat")])
    nested = statistics.median(s for s, _ in runs[(row, "nested")])
    print(f"| [{row}] | {flat:.2f} s | {nested:.2f} s | {nested / flat:.2f} | {runs[(row, 'flat')][0][1]:,} |"
          f" {runs[(row, 'nested')][0][1]:,} |")
EOF
