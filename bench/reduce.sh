#!/usr/bin/env bash
# Side-by-side end-to-end benchmark of reduce (issue 12), not run by CI: a float32 gradient .npy summed back to the
# forward input's shape by tensor-broadcast and by numpy (np.load(mmap_mode='r') + sum(axis, keepdims=True)), each
# as a whole process, interleaved, from the page cache (every run reads the file once before the timings). Results
# are checked against each other. Prints a TSV line per run and a Markdown table of the median ratios.
#
#   bench/reduce.sh [--size 8g] [--reps 3] [--patterns rows,kept] [--master 'local[*]'] [--dir /tmp/tb-reduce]
#
# rows: [N,4096] -> [1,4096] (the row axis summed, partials merged in a tree)
# kept: [N,8,64] -> [N,1,64] (each task writes its own rows of the result)
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=8g reps=3 patterns=rows,kept master='local[*]' dir=/tmp/tb-reduce
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --patterns) patterns=$2; shift 2 ;;
        --master) master=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "bench/reduce.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
bytes_of() {
    local value=${1,,}
    case "$value" in
        *k) echo $((${value%k} << 10)) ;;
        *m) echo $((${value%m} << 20)) ;;
        *g) echo $((${value%g} << 30)) ;;
        *) echo "$value" ;;
    esac
}
bytes=$(bytes_of "$size")
cli="$root/tensor-broadcast"
mkdir -p "$dir"
"$cli" --version >/dev/null # builds once, before anything is timed

# a gradient of small random integers stored as float32 (exact in any order of addition), written in 64 MiB chunks
make_gradient() { # file shape...
    python3 - "$@" <<'PY'
import sys, numpy as np
path, shape = sys.argv[1], tuple(int(d) for d in sys.argv[2:])
a = np.lib.format.open_memmap(path, mode='w+', dtype=np.float32, shape=shape)
flat = a.reshape(-1)
rng = np.random.default_rng(0)
step = 16 << 20
for start in range(0, flat.size, step):
    end = min(flat.size, start + step)
    flat[start:end] = rng.integers(-64, 65, size=end - start).astype(np.float32)
a.flush()
PY
}

numpy_reduce() { # gradient axis output
    python3 - "$@" <<'PY'
import sys, numpy as np
a = np.load(sys.argv[1], mmap_mode='r')
np.save(sys.argv[3], a.sum(axis=int(sys.argv[2]), keepdims=True))
PY
}

seconds() { # command...: prints the wall time of the whole process
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>"$dir/last.err" || { cat "$dir/last.err" >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

printf 'pattern\trep\ttool\tseconds\tGB/s\n'
for pattern in ${patterns//,/ }; do
    case "$pattern" in
        rows) rows=$((bytes / 16384)); shape="$rows 4096"; input='[1,4096]'; target="[$rows,4096]"; axis=0 ;;
        kept) rows=$((bytes / 2048)); shape="$rows 8 64"; input="[$rows,1,64]"; target="[$rows,8,64]"; axis=1 ;;
        *) echo "bench/reduce.sh: unknown pattern '$pattern'" >&2; exit 2 ;;
    esac
    gradient="$dir/$pattern.npy"
    [[ -f $gradient && $(stat -c %s "$gradient") -gt $bytes ]] || make_gradient "$gradient" $shape
    cat "$gradient" >/dev/null # into the page cache, for both tools alike
    for rep in $(seq 1 "$reps"); do
        rm -f "$dir/ours.npy" "$dir/numpy.npy"
        ours=$(seconds "$cli" reduce --input "$gradient" --dialect numpy --input-shape "$input" --shape "$target" \
            --output "$dir/ours.npy" --master "$master")
        numpy=$(seconds numpy_reduce "$gradient" "$axis" "$dir/numpy.npy")
        python3 -c "
import numpy as np, sys
a, b = np.load('$dir/ours.npy'), np.load('$dir/numpy.npy')
sys.exit(0 if a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b) else 'results differ')"
        for tool in ours numpy; do
            printf '%s\t%d\t%s\t%.2f\t%.2f\n' "$pattern" "$rep" "$tool" "${!tool}" \
                "$(echo "$bytes / ${!tool} / 1000000000" | bc -l)"
        done
        printf '%s\t%d\tratio (ours / numpy)\t%.2f\t\n' "$pattern" "$rep" "$(echo "$ours / $numpy" | bc -l)"
    done
done
