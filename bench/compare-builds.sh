#!/usr/bin/env bash
# Before and after, side by side: the same expand runs with the build of an older commit and with this checkout's,
# alternating run by run (old, new, old, new, ...), so both see the same disk and the same noise. Prints per case the
# median whole-process time of each (launcher start to fdatasync of every part file) and their ratio new/old.
#
#   bench/compare-builds.sh --base REV [--size 2g] [--reps 3] [--cases arrow,parquet,null,arrow-lz4,parquet-zstd]
#                           [--patterns rows,inner] [--dir /tmp/tb-compare]
#
# The older commit is checked out as a git worktree under --dir and built there (offline, with this machine's Maven
# repository). Needs python3 with numpy for the source rows.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
base= size=2g reps=3 cases=arrow,parquet,null patterns=rows,inner dir=/tmp/tb-compare
while [[ $# -gt 0 ]]; do
    case "$1" in
        --base) base=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --cases) cases=$2; shift 2 ;;
        --patterns) patterns=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "bench/compare-builds.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
[[ -n $base ]] || { echo "bench/compare-builds.sh: give --base REV, the commit to compare with" >&2; exit 2; }
case "${size,,}" in
    *g) bytes=$(( ${size%[gG]} << 30 )) ;;
    *m) bytes=$(( ${size%[mM]} << 20 )) ;;
    *) bytes=$size ;;
esac
rows=$(( bytes / (4096 * 4) ))

mkdir -p "$dir"
old="$dir/base"
if [[ ! -d $old ]]; then
    git -C "$root" worktree add --detach "$old" "$base" >/dev/null
fi
git -C "$old" checkout -q --detach "$base"
echo "building $base and this checkout (once, before measuring)..." >&2
for tree in "$old" "$root"; do
    (cd "$tree" && mvn -B -q -o -DskipTests -pl job -am package >/dev/null)
    "$tree/tensor-broadcast" plan --dialect numpy --input-shape 1 --shape 2 >/dev/null
done

python3 - "$dir" <<'PY'
import numpy as np, sys
rng = np.random.default_rng(7)
np.save(f"{sys.argv[1]}/row.npy", rng.random((1, 4096), dtype=np.float32))
PY

source_and_shape() { # pattern -> "input shape"
    case "$1" in
        rows) echo "$dir/row.npy $rows,4096" ;;
        inner)
            [[ -f $dir/col-$rows.npy ]] || python3 -c "import numpy as np, sys
np.save(sys.argv[1], np.random.default_rng(7).random((int(sys.argv[2]), 1), dtype=np.float32))" "$dir/col-$rows.npy" "$rows"
            echo "$dir/col-$rows.npy $rows,4096" ;;
        *) echo "bench/compare-builds.sh: unknown pattern '$1' (rows, inner)" >&2; exit 2 ;;
    esac
}
options_for() { # case -> expand options
    case "$1" in
        arrow) echo "--format arrow" ;;
        parquet) echo "--format parquet" ;;
        null) echo "--format null" ;;
        arrow-lz4) echo "--format arrow --compression lz4" ;;
        parquet-zstd) echo "--format parquet --compression zstd" ;;
        *) echo "bench/compare-builds.sh: unknown case '$1'" >&2; exit 2 ;;
    esac
}
run() { # tree pattern case -> seconds
    local tree=$1 input shape output="$dir/out" t0 t1
    read -r input shape <<<"$(source_and_shape "$2")"
    rm -rf "$output"
    local args=(expand --input "$input" --dialect numpy --shape "$shape" $(options_for "$3"))
    [[ $3 == null ]] || args+=(--output "$output")
    t0=$(date +%s.%N)
    if ! "$tree/tensor-broadcast" "${args[@]}" >/dev/null 2>>"$dir/log"; then
        echo "bench/compare-builds.sh: a run failed ($tree: ${args[*]}); see $dir/log" >&2
        exit 1
    fi
    [[ -d $output ]] && sync -d "$output"/part-*
    t1=$(date +%s.%N)
    rm -rf "$output"
    printf '%.2f' "$(echo "$t1 - $t0" | bc)"
}
median() { tr ' ' '\n' | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

echo "| pattern | case | $base (s) | $(git -C "$root" rev-parse --short HEAD) (s) | new/old |"
echo "|---|---|---:|---:|---:|"
IFS=, read -r -a pattern_list <<<"$patterns"
IFS=, read -r -a case_list <<<"$cases"
for pattern in "${pattern_list[@]}"; do
    for c in "${case_list[@]}"; do
        olds=() news=()
        for _ in $(seq 1 "$reps"); do
            olds+=("$(run "$old" "$pattern" "$c")")
            news+=("$(run "$root" "$pattern" "$c")")
        done
        o=$(echo "${olds[*]}" | median) n=$(echo "${news[*]}" | median)
        printf '| %s | %s | %.2f (%s) | %.2f (%s) | %.2f |\n' "$pattern" "$c" "$o" "${olds[*]}" "$n" "${news[*]}" \
            "$(echo "$n / $o" | bc -l)"
    done
done
