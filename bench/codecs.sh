#!/usr/bin/env bash
# Compression per pattern and codec (issue 14): our Arrow IPC and Parquet outputs against the zstd and lz4
# command-line tools compressing the same output as raw bytes (numpy's .npy of the broadcast), the reference for
# what a codec alone costs. Prints a Markdown table: seconds (whole process, fsync included; ours also after
# start-up), bytes written and the ratio to the raw bytes.
#
#   bench/codecs.sh [--size 1g] [--patterns rows,inner,middle] [--dir /tmp/tb-codecs]
#
# The command-line tools run on one thread (-T1) from a file in the page cache; ours runs on local[*] (2 cores here),
# computing the broadcast as it goes.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=1g patterns=rows,inner,middle dir=/tmp/tb-codecs
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --patterns) patterns=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "bench/codecs.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
for tool in zstd lz4 python3; do
    command -v "$tool" >/dev/null || { echo "bench/codecs.sh: needs $tool (apt install zstd lz4)" >&2; exit 2; }
done
case "${size,,}" in
    *g) bytes=$(( ${size%[gG]} << 30 )) ;;
    *m) bytes=$(( ${size%[mM]} << 20 )) ;;
    *) bytes=$size ;;
esac

shapes() { # the patterns of bench/run.sh, float32
    case "$1" in
        rows) echo "1,4096 $(( bytes / 16384 )),4096" ;;
        inner) echo "$(( bytes / 16384 )),1 $(( bytes / 16384 )),4096" ;;
        middle) echo "64,1,256 64,$(( bytes / 65536 )),256" ;;
    esac
}
now() { date +%s.%N; }

(cd "$root" && mvn -B -q -o -DskipTests -pl job -am package >/dev/null)
rm -rf "$dir"; mkdir -p "$dir"
echo "| pattern | tool | codec | seconds | after start-up | bytes | raw / bytes |"
echo "|---|---|---|---:|---:|---:|---:|"
for pattern in ${patterns//,/ }; do
    read -r in_shape shape <<<"$(shapes "$pattern")"
    python3 -c 'import sys, numpy as np
i = tuple(int(v) for v in sys.argv[1].split(",")); o = tuple(int(v) for v in sys.argv[2].split(","))
src = (np.arange(int(np.prod(i)), dtype=np.int64) % 1000003).astype(np.float32).reshape(i)
np.save(sys.argv[3], src); np.save(sys.argv[4], np.broadcast_to(src, o))' \
        "$in_shape" "$shape" "$dir/in.npy" "$dir/raw.npy"
    raw=$(stat -c %s "$dir/raw.npy")
    cat "$dir/raw.npy" >/dev/null
    for cli in "zstd -1" "zstd -3" "lz4 -1"; do
        read -r tool level <<<"$cli"
        threads=(); [[ $tool == zstd ]] && threads=(-T1)
        t0=$(now)
        $tool -q "$level" "${threads[@]}" -c "$dir/raw.npy" >"$dir/out.bin"
        sync -d "$dir/out.bin"
        t1=$(now)
        out=$(stat -c %s "$dir/out.bin")
        printf '| %s | `%s` CLI | %s | %.2f | | %d | %.0f |\n' "$pattern" "$tool" "${level#-}" \
            "$(echo "$t1 - $t0" | bc)" "$out" "$(echo "$raw / $out" | bc -l)"
        rm -f "$dir/out.bin"
    done
    for ours in "arrow lz4" "arrow zstd" "parquet lz4" "parquet zstd:1" "parquet zstd"; do
        read -r format codec <<<"$ours"
        rm -rf "$dir/out"
        t0=$(now)
        json=$("$root/tensor-broadcast" expand --input "$dir/in.npy" --dialect numpy --shape "$shape" \
            --output "$dir/out" --format "$format" --compression "$codec" --json 2>>"$dir/log.txt")
        t1=$(now)
        sync -d "$dir"/out/part-*
        t2=$(now)
        job=$(python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["job_seconds"])' \
            <<<"$json")
        out=$(cat "$dir"/out/part-* | wc -c)
        printf '| %s | ours, %s | %s | %.2f | %.2f | %d | %.0f |\n' "$pattern" "$format" "$codec" \
            "$(echo "$t2 - $t0" | bc)" "$(echo "$job + $t2 - $t1" | bc)" "$out" "$(echo "$raw / $out" | bc -l)"
        rm -rf "$dir/out"
    done
    rm -f "$dir/raw.npy" "$dir/in.npy"
done
