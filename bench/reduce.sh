#!/usr/bin/env bash
# Side-by-side end-to-end benchmark of reduce (issue 12), not run by CI: a float32 gradient .npy summed back to the
# forward input's shape by tensor-broadcast and by numpy (np.load(mmap_mode='r') + sum(axis, keepdims=True)), each
# as a whole process, interleaved, from the page cache (every run reads the file once before the timings). Results
# are checked against each other. Prints a TSV line per run (whole-process seconds, and for ours the job's own
# seconds from --json, both as GB/s of gradient) and the ratios to numpy. With --base DIR, another checkout's build
# (e.g. an older commit's worktree) runs too, in the same rotation, its result compared as well (issue 28).
#
#   bench/reduce.sh [--size 8g] [--reps 3] [--patterns rows,kept] [--master 'local[*]'] [--dir /tmp/tb-reduce]
#                   [--base DIR]
#
# Without --master, both builds run on the embedded default, as a user's command does (since issue 28 a job there runs
# on the driver's threads without Spark); --master 'local[*]' forces Spark.
#
# rows: [N,4096] -> [1,4096] (the row axis summed, partials merged in a tree)
# kept: [N,8,64] -> [N,1,64] (each task writes its own rows of the result)
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=8g reps=3 patterns=rows,kept master= dir=/tmp/tb-reduce base=
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --patterns) patterns=$2; shift 2 ;;
        --master) master=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --base) base=$2; shift 2 ;;
        -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
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
[[ -z $base ]] || "$base/tensor-broadcast" --version >/dev/null

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

ours_reduce() { # cli gradient input target output: the job's seconds (from --json) into $dir/job
    "$1" reduce --input "$2" --dialect numpy --input-shape "$3" --shape "$4" --output "$5" ${master:+--master "$master"} --json \
        | python3 -c "import json, sys; print(json.load(sys.stdin)['seconds'])" >"$dir/job"
}

tools=(ours numpy)
[[ -z $base ]] || tools=(old ours numpy)
printf 'pattern\trep\ttool\tseconds\tGB/s\tjob s\tjob GB/s\n'
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
        declare -A secs=() jobs=()
        for tool in "${tools[@]}"; do
            rm -f "$dir/$tool.npy"
            case "$tool" in
                ours) secs[$tool]=$(seconds ours_reduce "$cli" "$gradient" "$input" "$target" "$dir/ours.npy")
                    jobs[$tool]=$(cat "$dir/job") ;;
                old) secs[$tool]=$(seconds ours_reduce "$base/tensor-broadcast" "$gradient" "$input" "$target" \
                        "$dir/old.npy")
                    jobs[$tool]=$(cat "$dir/job") ;;
                numpy) secs[$tool]=$(seconds numpy_reduce "$gradient" "$axis" "$dir/numpy.npy") ;;
            esac
        done
        for tool in "${tools[@]}"; do
            [[ $tool == numpy ]] && continue
            python3 -c "
import numpy as np, sys
a, b = np.load('$dir/$tool.npy'), np.load('$dir/numpy.npy')
sys.exit(0 if a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b) else '$tool: results differ')"
        done
        for tool in "${tools[@]}"; do
            job=${jobs[$tool]:-}
            printf '%s\t%d\t%s\t%.2f\t%.2f\t%s\t%s\n' "$pattern" "$rep" "$tool" "${secs[$tool]}" \
                "$(echo "$bytes / ${secs[$tool]} / 1000000000" | bc -l)" "${job:--}" \
                "$([[ -n $job ]] && printf '%.2f' "$(echo "$bytes / $job / 1000000000" | bc -l)" || echo -)"
        done
        for tool in "${tools[@]}"; do
            [[ $tool == numpy ]] && continue
            printf '%s\t%d\tratio (%s / numpy)\t%.2f\n' "$pattern" "$rep" "$tool" \
                "$(echo "${secs[$tool]} / ${secs[numpy]}" | bc -l)"
        done
        unset secs jobs
    done
done
