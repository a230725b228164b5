#!/usr/bin/env bash
# Batch expansion out of core (not run by CI): a feature table of [N,1,64] float32 rows, bigger than the machine's
# memory, expanded 4x per row ([N,1,64] -> [N,4,64]) on the local process cluster (2 workers, executor heap <= 2 GiB).
# Prints time, throughput, the executors' heap (-Xmx) and their peak resident memory (VmHWM).
#
#   bench/batch-out-of-core.sh [SIZE] [WORK_DIR] [arrow|parquet]
#
# SIZE is the source's bytes of values (default 48g, twice this machine's 23 GiB of RAM; binary units: 4g, 512m).
# arrow (default): the source is written by tensor-broadcast itself: a [1,1,64] .npy broadcast to [N,1,64] into
# Arrow IPC files of 256 MiB (a dataset with many files). parquet: the source is a feature table as pyarrow writes
# it by default (snappy; `user_id` int64 and `features` list<float> of 64 random values, 1 Mi rows per file). Without a null output format the 4x output goes to WORK_DIR too, so the disk
# must hold 5x SIZE; the script refuses to start when it does not, or when another out-of-core benchmark runs.
set -euo pipefail

root=$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/..
size=${1:-48g}
work=${2:-/tmp/tensor-broadcast-out-of-core}
source_format=${3:-arrow}
cli="$root/tensor-broadcast"

bytes() {
    local value=${1,,}
    case "$value" in
        *k) echo $((${value%k} << 10)) ;;
        *m) echo $((${value%m} << 20)) ;;
        *g) echo $((${value%g} << 30)) ;;
        *) echo "$value" ;;
    esac
}

row_bytes=256 # [1,64] float32
source_bytes=$(bytes "$size")
rows=$((source_bytes / row_bytes))
output_bytes=$((rows * 4 * row_bytes))

if "$cli" expand --help | grep -q 'null'; then
    format=null
    disk_needed=$source_bytes
else
    format=arrow
    disk_needed=$((source_bytes + output_bytes))
fi

# another benchmark is any process naming out-of-core.sh but this script and the shells that started it
ours=" $$ "
ancestor=$PPID
while [[ -n "$ancestor" && "$ancestor" != 0 && "$ancestor" != 1 ]]; do
    ours+="$ancestor "
    ancestor=$(awk '{print $4}' "/proc/$ancestor/stat" 2>/dev/null || true)
done
others=""
pgrep -f 'out-of-core.sh' >"${TMPDIR:-/tmp}/out-of-core.$$" || true
while read -r pid; do
    if [[ "$ours" != *" $pid "* ]]; then others+="$pid "; fi
done <"${TMPDIR:-/tmp}/out-of-core.$$"
rm -f "${TMPDIR:-/tmp}/out-of-core.$$"
if [[ -n "$others" ]]; then
    echo "batch-out-of-core: another out-of-core benchmark runs (pids $others); not starting" >&2
    exit 2
fi
mkdir -p "$work"
free_bytes=$(($(df --output=avail -k "$work" | tail -n 1) << 10))
# keep 8 GiB for everyone else on the machine
if ((free_bytes < disk_needed + (8 << 30))); then
    echo "batch-out-of-core: $work has $((free_bytes >> 30)) GiB free; this run needs $((disk_needed >> 30)) GiB" \
        "plus 8 GiB to spare; not starting" >&2
    exit 2
fi

# a cluster of our own: its state directory is not the one 'cluster start' uses by default
export TENSOR_BROADCAST_STATE="$work/state"
rm -rf "$work/source" "$work/expanded" "$work/state"

# the seed row [1,1,64] of float32 1.0, as a .npy file (format 1.0: magic, header length, header padded to 64)
seed="$work/seed.npy"
header="{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 64), }"
while (((10 + ${#header} + 1) % 64 != 0)); do header+=" "; done
{
    printf '\x93NUMPY\x01\x00'
    printf "\\x$(printf %02x $(((${#header} + 1) & 255)))\\x$(printf %02x $(((${#header} + 1) >> 8)))"
    printf '%s\n' "$header"
    for _ in $(seq 64); do printf '\x00\x00\x80\x3f'; done
} >"$seed"

echo "source: $rows rows of [1,64] float32, $((source_bytes >> 20)) MiB, in $work/source ($source_format)"
now() { date +%s.%N; }
elapsed() { awk -v from="$1" -v to="$(now)" 'BEGIN {printf "%.1f", to - from}'; }
started=$(now)
input_options=()
if [[ $source_format == parquet ]]; then
    python3 - "$work/source" "$rows" <<'PY'
import os, sys, numpy as np, pyarrow as pa, pyarrow.parquet as pq
directory, rows = sys.argv[1], int(sys.argv[2])
os.makedirs(directory)
per_file = 1 << 20
rng = np.random.default_rng(0)
for part, start in enumerate(range(0, rows, per_file)):
    n = min(per_file, rows - start)
    features = rng.standard_normal((n, 64), dtype=np.float32)
    offsets = pa.array(np.arange(0, (n + 1) * 64, 64, dtype=np.int32))
    pq.write_table(pa.table({'user_id': np.arange(start, start + n, dtype=np.int64),
                             'features': pa.ListArray.from_arrays(offsets, pa.array(features.reshape(-1)))}),
                   f'{directory}/part-{part:05d}.parquet')
PY
    input_options=(--column features --row-shape '[1,64]')
else
    "$cli" expand --input "$seed" --dialect numpy --shape "$rows,1,64" --partition-size 256m --master 'local[2]' \
        --output "$work/source" >/dev/null
fi
echo "source written in $(elapsed "$started") s: $(ls "$work/source" | grep -c '^part-') files"

"$cli" cluster start --workers 2 --worker-memory 2g >"$work/cluster.log" 2>&1 &
cluster=$!
stop_cluster() {
    "$cli" cluster stop >/dev/null 2>&1 || true
    wait "$cluster" 2>/dev/null || true
}
trap stop_cluster EXIT
for _ in $(seq 120); do
    if "$cli" cluster status >/dev/null 2>&1; then break; fi
    if ! kill -0 "$cluster" 2>/dev/null; then
        cat "$work/cluster.log" >&2
        exit 1
    fi
    sleep 1
done

# the executor JVMs under our cluster: processes running the executor backend with our 'cluster start' as ancestor
executors() {
    local pid parent
    for pid in $(pgrep -f CoarseGrainedExecutorBackend || true); do
        parent=$pid
        while [[ -n "$parent" && "$parent" != 1 && "$parent" != "$cluster" ]]; do
            parent=$(awk '{print $4}' "/proc/$parent/stat" 2>/dev/null || true)
        done
        if [[ "$parent" == "$cluster" ]]; then echo "$pid"; fi
    done
}

# VmHWM is each process's own peak; sample it until the job ends, as the executors exit with the application
samples="$work/executor-samples.txt"
: >"$samples"
(
    while true; do
        for pid in $(executors); do
            hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
            heap=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -m 1 '^-Xmx' || true)
            if [[ -n "$hwm" ]]; then echo "$pid $hwm $heap" >>"$samples"; fi
        done
        sleep 0.5
    done
) &
sampler=$!

output="$work/expanded"
started=$(now)
output_options=(--output "$output")
[[ $format != null ]] || output_options=()
"$cli" expand --input "$work/source" "${input_options[@]}" --dialect pytorch --shape=-1,4,64 --master local-cluster \
    --format "$format" "${output_options[@]}"
seconds=$(elapsed "$started")
kill "$sampler"
wait "$sampler" 2>/dev/null || true

peaks=$(sort -k1,1n -k2,2n "$samples" | awk '{peak[$1] = $2; heap[$1] = $3} END {for (p in peak) print p, peak[p], heap[p]}')
echo
echo "expanded [$rows,1,64] -> [$rows,4,64] float32 on 2 workers in $seconds s (driver and executor start included)"
rate() { awk -v bytes="$1" -v seconds="$seconds" 'BEGIN {printf "%.1f", bytes / 1048576 / seconds}'; }
echo "read    $((source_bytes >> 20)) MiB: $(rate "$source_bytes") MiB/s"
echo "written $((output_bytes >> 20)) MiB ($format): $(rate "$output_bytes") MiB/s"
echo "executors (pid, peak RSS, heap):"
echo "$peaks" | awk '{printf "  %s %d MiB %s\n", $1, $2 / 1024, $3}'
if [[ "$format" != null ]]; then
    echo "output: $(du -sh "$output" | cut -f 1) in $(ls "$output" | grep -c '^part-') files; removing it"
    rm -rf "$output"
fi
# the disk is shared: the source goes too
rm -rf "$work/source"
