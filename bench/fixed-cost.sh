#!/usr/bin/env bash
# The fixed cost of a run (issue 28), before and after: a small expand to the null sink, the same on Spark (--master
# 'local[*]', which a small job needs to start Spark since it runs in the driver otherwise), a small reduce into a .npy
# and a plan, each as a whole process from the shell to exit, with this checkout's launcher and, alternating run by
# run, with another checkout's (--base DIR, built by its own launcher). Prints a TSV line per run with the wall time
# and the CPU time (user + sys) the process used, which a shared machine's noise moves less; then the medians.
#
#   bench/fixed-cost.sh [--base /path/to/other/checkout] [--reps 5] [--dir /tmp/tb-fixed]
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
base= reps=5 dir=/tmp/tb-fixed
while [[ $# -gt 0 ]]; do
    case "$1" in
        --base) base=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,7p' "$0"; exit 0 ;;
        *) echo "bench/fixed-cost.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
mkdir -p "$dir"
python3 -c "import numpy as np; np.save('$dir/g.npy', np.arange(64 * 16, dtype=np.float32).reshape(64, 16))"
builds=(new)
[[ -n $base ]] && builds=(old new)
cli_of() { if [[ $1 == old ]]; then echo "$base/tensor-broadcast"; else echo "$root/tensor-broadcast"; fi; }
for build in "${builds[@]}"; do
    # builds once and makes the class-data sharing archive, before anything is timed
    "$(cli_of "$build")" expand --input "$root/examples/row4096.npy" --dialect numpy --shape 64,4096 --format null \
        >/dev/null 2>&1
done
run() { # build case: prints wall and cpu seconds
    local cli
    cli=$(cli_of "$1")
    rm -rf "$dir/out.npy"
    case "$2" in
        expand) set -- "$cli" expand --input "$root/examples/row4096.npy" --dialect numpy --shape 64,4096 --format null ;;
        expand-spark) set -- "$cli" expand --input "$root/examples/row4096.npy" --dialect numpy --shape 64,4096 \
            --format null --master 'local[*]' ;;
        reduce) set -- "$cli" reduce --input "$dir/g.npy" --dialect numpy --input-shape '[1,16]' --shape '[64,16]' \
            --output "$dir/out.npy" ;;
        plan) set -- "$cli" plan --dialect numpy --input-shape '[1,16]' --shape '[64,16]' ;;
    esac
    /usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
    read -r wall user sys <"$dir/time"
    echo "$wall $(echo "$user + $sys" | bc -l)"
}
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'case\trep\tbuild\twall s\tcpu s\n' | tee "$dir/runs.tsv"
for rep in $(seq 1 "$reps"); do
    for case in expand expand-spark reduce plan; do
        for build in "${builds[@]}"; do
            read -r wall cpu < <(run "$build" "$case")
            printf '%s\t%d\t%s\t%.2f\t%.2f\n' "$case" "$rep" "$build" "$wall" "$cpu" | tee -a "$dir/runs.tsv"
        done
    done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 - "$dir/runs.tsv" <<'PY2'
import csv, statistics, sys
rows = list(csv.reader(open(sys.argv[1]), delimiter='\t'))[1:]
print('| case | build | median wall s | median cpu s |')
print('|------|-------|------:|------:|')
for case in dict.fromkeys(r[0] for r in rows):
    for build in dict.fromkeys(r[2] for r in rows):
        mine = [r for r in rows if r[0] == case and r[2] == build]
        print(f'| {case} | {build} | {statistics.median(float(r[3]) for r in mine):.2f} |'
              f' {statistics.median(float(r[4]) for r in mine):.2f} |')
PY2
