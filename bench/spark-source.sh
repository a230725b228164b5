#!/usr/bin/env bash
# Side-by-side benchmark of the `tensorbroadcast` Spark data source (issue 41), not run by CI. One float32 broadcast
# [1,4096] -> [N,4096] (--size of values, uncompressed), each tool a whole process on the same Spark master, interleaved:
#   source->parquet  spark.read.format("tensorbroadcast")...load().write.parquet(...)   (SparkSourcePeer)
#   expand           tensor-broadcast expand --format parquet (its defaults: uncompressed, PLAIN values)
#   spark idiom      spark.range + the row as an array literal, write.parquet             (SparkSqlPeer rows)
#   source->sink     the data source's rows written by our own sink as Parquet (format("tensorbroadcast"))
#   source->noop     the data source's rows, each consumed by Spark's noop sink
#   idiom->noop      the Spark idiom's rows, each consumed by Spark's noop sink (the idiom before any sink)
#   parquet->noop    Spark reading the same values from Parquet (expand's files), into the noop sink
#   arrow->noop      the data source reading our Arrow IPC dataset of the same values (load(dir)); n/a where the
#                    data source does not read datasets back
# Spark's Parquet sink runs twice for the source and the idiom: with Spark's defaults (snappy, dictionary encoding),
# and with expand's settings (uncompressed, no dictionary: `compression none`, `parquet.enable.dictionary false`).
# Written files are synced inside the timing. The Parquet outputs are checked against each other (row counts, a sample
# of rows). Prints a TSV line per run, then the ratios of each rep.
#
#   bench/spark-source.sh [--size 1g] [--reps 2] [--master 'local[*]'] [--dir /tmp/tb-spark-source]
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=1g reps=2 master='local[*]' dir=/tmp/tb-spark-source
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --master) master=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "bench/spark-source.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
case "${size,,}" in
    *g) bytes=$(( ${size%[gG]} << 30 )) ;;
    *m) bytes=$(( ${size%[mM]} << 20 )) ;;
    *) bytes=$size ;;
esac
rows=$(( bytes / 16384 ))
partitions=$(( (bytes + (128 << 20) - 1) / (128 << 20) ))
input="$root/examples/row4096.npy" # arange(4096) as float32: the Spark idiom's values too
cli="$root/tensor-broadcast"
mkdir -p "$dir"
log="$dir/log.txt"; : >"$log"

echo "building (once, before measuring)..." >&2
"$cli" --version >/dev/null # the launcher's jars, and its own up-to-date check
(cd "$root" && mvn -B -q -o -DskipTests -pl benchmarks -am package >/dev/null)
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/pom.xml" | head -1)
read -r -a spark_jvm <<<"$(sed -n 's:.*<spark.jvm.options>\(.*\)</spark.jvm.options>.*:\1:p' "$root/pom.xml")"
# the job module's jar and everything it runs on (Spark included): a Spark application with the data source
peer_cp="$root/job/target/tensor-broadcast-job-$version.jar:$root/job/target/lib/*:$root/benchmarks/target/classes"
peers=dev.tensorbroadcast.benchmarks.endtoend
# the launcher's class-data archive, and the datasets the readers read: expand's Parquet and Arrow IPC files
"$cli" expand --input "$input" --dialect numpy --shape 4,4096 --format null >/dev/null 2>&1
rm -rf "$dir/ref.parquet" "$dir/ref.arrow"
"$cli" expand --input "$input" --dialect numpy --shape "$rows,4096" --format parquet --output "$dir/ref.parquet" \
    --master "$master" >/dev/null 2>>"$log"
"$cli" expand --input "$input" --dialect numpy --shape "$rows,4096" --output "$dir/ref.arrow" --master "$master" \
    >/dev/null 2>>"$log"
cat "$dir"/ref.parquet/* "$dir"/ref.arrow/* >/dev/null # into the page cache, for every reader alike

now() { date +%s.%N; }
timed() { # output command...: the whole process and the sync of its output; prints "wall job"
    local output=$1 t0 t1 job
    shift
    t0=$(now)
    job=$("$@" 2>>"$log" | sed -n 's/^job_seconds //p') || return 1
    [[ $output == - ]] || sync -f "$output"
    t1=$(now)
    echo "$(echo "$t1 - $t0" | bc) ${job:--}"
}
peer() { java "${spark_jvm[@]}" -cp "$peer_cp" "$peers.SparkSourcePeer" "$@"; }
expand_parquet() { "$cli" expand --input "$input" --dialect numpy --shape "$rows,4096" --format parquet \
    --output "$1" --master "$master" --json | python3 -c 'import json,sys; print("job_seconds",
    json.loads(sys.stdin.read().strip().splitlines()[-1])["job_seconds"])'; }
idiom() { # output codec dictionary
    java "${spark_jvm[@]}" -cp "$peer_cp" "$peers.SparkSqlPeer" rows "$rows" "$partitions" "$1" "$master" "$2" "$3"; }

printf 'rep\ttool\tseconds\tjob seconds\tMB/s\n'
for rep in $(seq 1 "$reps"); do
    echo "rep $rep ($(uptime | sed 's/.*load/load/'))" >&2
    declare -A wall=()
    outputs=("$dir/source" "$dir/expand" "$dir/idiom" "$dir/source-defaults" "$dir/idiom-defaults" "$dir/sink")
    rm -rf "${outputs[@]}"
    for tool in source-parquet expand idiom source-parquet-defaults idiom-defaults source-sink source-noop idiom-noop \
        parquet-noop arrow-noop; do
        case $tool in
            source-parquet) result=$(timed "$dir/source" peer source-parquet "$input" "$rows,4096" "$dir/source" \
                "$master" none off) ;;
            expand) result=$(timed "$dir/expand" expand_parquet "$dir/expand") ;;
            idiom) result=$(timed "$dir/idiom" idiom "$dir/idiom" none off) ;;
            source-parquet-defaults) result=$(timed "$dir/source-defaults" peer source-parquet "$input" "$rows,4096" \
                "$dir/source-defaults" "$master") ;;
            idiom-defaults) result=$(timed "$dir/idiom-defaults" idiom "$dir/idiom-defaults" snappy on) ;;
            source-sink) result=$(timed "$dir/sink" peer source-sink "$input" "$rows,4096" "$dir/sink" "$master") ;;
            source-noop) result=$(timed - peer source-noop "$input" "$rows,4096" - "$master") ;;
            idiom-noop) result=$(timed - idiom - none off) ;;
            parquet-noop) result=$(timed - peer parquet-noop "$dir/ref.parquet" - - "$master") ;;
            arrow-noop) result=$(timed - peer dataset-noop "$dir/ref.arrow" - - "$master") || result="n/a n/a" ;;
        esac
        read -r seconds job <<<"$result"
        wall[$tool]=$seconds
        if [[ $seconds == n/a ]]; then
            printf '%d\t%s\tn/a (the data source does not read datasets back here)\t\t\n' "$rep" "$tool"
        else
            printf '%d\t%s\t%.2f\t%s\t%.1f\n' "$rep" "$tool" "$seconds" "$job" \
                "$(echo "$bytes / $seconds / 1000000" | bc -l)"
        fi
    done
    python3 - "$rows" "${outputs[@]}" <<'PY'
import sys, numpy as np, pyarrow.dataset as ds
rows = int(sys.argv[1])
tables = [ds.dataset(path, format='parquet', exclude_invalid_files=True) for path in sys.argv[2:]]
assert all(t.count_rows() == rows for t in tables), 'row counts differ'
sample = sorted({0, rows // 3, rows - 1})
expected = np.arange(4096, dtype=np.float32)
for t in tables:
    index = 'index' if 'index' in t.schema.names else t.schema.names[0]
    got = t.to_table(filter=ds.field(index).isin(sample)).column('tensor').to_pylist()
    assert len(got) == len(sample) and all(np.array_equal(np.asarray(r, dtype=np.float32), expected) for r in got), \
        'values differ'
PY
    ratio() { [[ ${wall[$1]} == n/a || ${wall[$2]} == n/a ]] && echo n/a || printf '%.2f' "$(echo "${wall[$1]} / ${wall[$2]}" | bc -l)"; }
    printf '%d\tratio source->parquet / expand, same settings\t%s\t\t\n' "$rep" "$(ratio source-parquet expand)"
    printf '%d\tratio source->parquet / expand, defaults\t%s\t\t\n' "$rep" "$(ratio source-parquet-defaults expand)"
    printf '%d\tratio spark idiom / source->parquet, same settings\t%s\t\t\n' "$rep" "$(ratio idiom source-parquet)"
    printf '%d\tratio spark idiom / source->parquet, defaults\t%s\t\t\n' "$rep" \
        "$(ratio idiom-defaults source-parquet-defaults)"
    printf '%d\tratio spark idiom / expand, same settings (the sink alone)\t%s\t\t\n' "$rep" "$(ratio idiom expand)"
    printf '%d\tratio source->sink / expand\t%s\t\t\n' "$rep" "$(ratio source-sink expand)"
    printf '%d\tratio source->noop / expand\t%s\t\t\n' "$rep" "$(ratio source-noop expand)"
    printf '%d\tratio idiom->noop / source->noop\t%s\t\t\n' "$rep" "$(ratio idiom-noop source-noop)"
    printf '%d\tratio arrow->noop / parquet->noop\t%s\t\t\n' "$rep" "$(ratio arrow-noop parquet-noop)"
    rm -rf "${outputs[@]}"
done
