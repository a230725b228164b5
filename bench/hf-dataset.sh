#!/usr/bin/env bash
# Side-by-side end-to-end benchmark for issue 27, not run by CI: a Hugging Face dataset saved with save_to_disk
# (`user_id` int64, `label` int32, `features` Array2D (1,64) float32; 2 Mi rows by default) expanded [1,64] -> [8,64]
# per row with its other columns (4 GiB of values) by tensor-broadcast (`expand --input DIR`, Parquet with nested
# rows, which datasets.load_dataset("parquet") reads) and by the HF user's idiom (bench/hf_dataset.py map:
# load_from_disk, ds.map(batched=True) with numpy's broadcast, save_to_disk), each as a whole process, alternating,
# with the source in the page cache. Our output is read back with datasets.load_dataset("parquet") and checked
# (bench/hf_dataset.py check). Prints a TSV line per run and the ratio of the medians.
#
#   bench/hf-dataset.sh [--rows 2097152] [--reps 3] [--master 'local[*]'] [--dir /tmp/tb-hf]
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rows=2097152 reps=3 master='local[*]' dir=/tmp/tb-hf
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rows) rows=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --master) master=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "bench/hf-dataset.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
cli="$root/tensor-broadcast"
mkdir -p "$dir"
"$cli" --version >/dev/null # builds once, before anything is timed

source="$dir/hf-$rows"
if [[ ! -f $source/state.json ]]; then
    rm -rf "$source"
    python3 "$root/bench/hf_dataset.py" make "$source" "$rows"
fi
cat "$source"/*.arrow >/dev/null # into the page cache

seconds() { # command... -> wall seconds of the whole process
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>"$dir/last.err" || { cat "$dir/last.err" >&2; return 1; }
    sync
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

ours=() theirs=()
printf 'run\ttool\tseconds\n'
for ((rep = 1; rep <= reps; rep++)); do
    rm -rf "$dir/ours"
    t=$(seconds "$cli" expand --input "$source" --column features --dialect pytorch --shape '[-1,8,64]' \
        --format parquet --row-layout nested --master "$master" --output "$dir/ours")
    ours+=("$t")
    printf '%d\ttensor-broadcast\t%s\n' "$rep" "$t"
    rm -rf "$dir/theirs" "$source"/cache-*.arrow
    t=$(seconds python3 "$root/bench/hf_dataset.py" map "$source" "$dir/theirs")
    theirs+=("$t")
    printf '%d\tdatasets map+save_to_disk\t%s\n' "$rep" "$t"
done
python3 "$root/bench/hf_dataset.py" check "$dir/ours" "$rows"
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
mo=$(median "${ours[@]}") mt=$(median "${theirs[@]}")
printf 'median\ttensor-broadcast %s s, datasets %s s, ratio %.2f\n' "$mo" "$mt" "$(echo "$mo / $mt" | bc -l)"
du -sh "$dir/ours" "$dir/theirs" "$source" | sed 's/^/size\t/'
rm -rf "$source"/cache-*.arrow
