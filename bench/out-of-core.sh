#!/usr/bin/env bash
# Out-of-core check (issue 7): writes a broadcast larger than this machine's RAM with the executor heap capped and
# records the process's peak resident set (GNU time's "Maximum resident set size", the kernel's high-water mark of
# the java process the launcher execs), then deletes the output.
#
#   bench/out-of-core.sh [--size 48g] [--heap 2g] [--format arrow] [--compression none] [--dir /tmp/tb-ooc]
#
# Embedded local[*]: the driver is the executor, so -Xmx is the executor heap. Refuses to start unless the disk holds
# the output with 8 GiB to spare.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=48g heap=2g format=arrow compression=none dir=/tmp/tb-ooc
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --heap) heap=$2; shift 2 ;;
        --format) format=$2; shift 2 ;;
        --compression) compression=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "bench/out-of-core.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
[[ -x /usr/bin/time ]] || { echo "bench/out-of-core.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
gib=${size%[gG]}
bytes=$(( gib << 30 ))
rows=$(( bytes / 16384 ))
mkdir -p "$dir"
free_kib=$(df --output=avail -k "$dir" | tail -n 1)
if (( free_kib < (gib + 8) << 20 )); then
    echo "bench/out-of-core.sh: $dir has $(( free_kib >> 20 )) GiB free; $size needs $(( gib + 8 )) GiB" >&2
    exit 1
fi
python3 -c "import numpy as np; np.save('$dir/row.npy', (np.arange(4096) % 1000003).astype(np.float32).reshape(1, 4096))"
rm -rf "$dir/out"
echo "writing [$rows,4096] float32 ($size) as $format ($compression) with -Xmx$heap; RAM $(free -g | awk '/^Mem:/ {print $2}') GiB" >&2
status=0
TENSOR_BROADCAST_HEAP=$heap /usr/bin/time -v -o "$dir/time.txt" "$root/tensor-broadcast" expand \
    --input "$dir/row.npy" --dialect numpy --shape "$rows,4096" --format "$format" --compression "$compression" --output "$dir/out" --json \
    >"$dir/result.json" 2>"$dir/log.txt" || status=$?
files=$(find "$dir/out" -name 'part-*' | wc -l)
written=$(du -sb "$dir/out" | cut -f1)
rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
rm -rf "$dir/out"
printf 'status %s, %s files, %s bytes, peak RSS %.2f GiB (-Xmx%s), wall %s\n' "$status" "$files" "$written" \
    "$(echo "$rss_kib / 1048576" | bc -l)" "$heap" "$wall"
cat "$dir/result.json"
