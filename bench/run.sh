#!/usr/bin/env bash
# Side-by-side end-to-end benchmark (issue 7): in one run, for each shape pattern, the tools run interleaved
# (dd, numpy, our Arrow IPC, Arrow IPC LZ4, null sink, Parquet, Spark SQL, null sink on local[1] and local[2]; then
# the next repetition), outputs are deleted between runs, and every file a tool writes is fsynced inside its timing.
# Writes a Markdown section into docs/benchmarks-e2e.md (replacing the previous one) and docs/benchmarks-e2e.png;
# docs/benchmarks.md keeps the headline figures of the run (update its section by hand).
#
#   bench/run.sh [--size 8g] [--parquet-size 4g] [--scaling-size 32g] [--patterns all|rows,inner,middle] [--reps 1]
#                [--tools dd,numpy,arrow,arrow-lz4,null,parquet,sparksql,parquet-zstd,sparksql-zstd,scaling]
#                [--master 'local[*]'] [--dir /tmp/tb-bench] [--out docs] [--append]
#
# --master is passed to every Spark tool (ours and the Spark SQL peer): e.g. a local cluster's spark:// URL.
# --append keeps the previous run's results (docs/benchmarks-e2e.tsv) of the tools this run does not measure, so a
# rerun of some tools updates the report; ratios still pair only runs of one invocation and repetition.
# Needs python3 with numpy (the numpy peer and the source files), GNU dd and sync; builds with Maven once, before
# measuring (the measured runs start java only).
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
size=8g parquet_size= scaling_size= patterns=all reps=1 master='local[*]' dir=/tmp/tb-bench out="$root/docs" append=
tools=dd,numpy,arrow,arrow-lz4,null,parquet,sparksql,parquet-zstd,sparksql-zstd,scaling
numpy_script=${NUMPY_BASELINE:-$root/../shared/bench/numpy_baseline.py}
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --parquet-size) parquet_size=$2; shift 2 ;;
        --scaling-size) scaling_size=$2; shift 2 ;;
        --append) append=1; shift ;;
        --patterns) patterns=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --tools) tools=$2; shift 2 ;;
        --master) master=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --out) out=$(readlink -f "$2"); shift 2 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "bench/run.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
[[ $patterns == all ]] && patterns=rows,inner,middle

bytes_of() { # 8g, 512m, 1073741824
    local v=${1,,}
    case "$v" in
        *g) echo $(( ${v%g} << 30 )) ;;
        *m) echo $(( ${v%m} << 20 )) ;;
        *) echo "$v" ;;
    esac
}
bytes=$(bytes_of "$size")
pbytes=$(bytes_of "${parquet_size:-$(( bytes / 2 ))}")
# the null sink writes nothing, so it scales over more bytes: the first job's fixed cost (~1 s) would dominate
sbytes=$(bytes_of "${scaling_size:-$(( bytes * 4 ))}")
has_tool() { [[ ",$tools," == *",$1,"* ]]; }
[[ -f $numpy_script ]] || { echo "bench/run.sh: no numpy baseline at $numpy_script (set NUMPY_BASELINE)" >&2; exit 2; }

echo "building (once, before measuring)..." >&2
(cd "$root" && mvn -B -q -o -DskipTests -pl job,benchmarks -am package dependency:build-classpath \
    -Dmdep.outputFile=target/classpath.txt >/dev/null)
# the launcher's own up-to-date check and its class-data sharing archive, outside the timings
"$root/tensor-broadcast" expand --input "$root/examples/row4096.npy" --dialect numpy --shape 4,4096 --format null \
    --json >/dev/null 2>&1
read -r -a spark_jvm <<<"$(sed -n 's:.*<spark.jvm.options>\(.*\)</spark.jvm.options>.*:\1:p' "$root/pom.xml")"
bench_cp="$root/benchmarks/target/classes:$(cat "$root/benchmarks/target/classpath.txt")"

rm -rf "$dir"; mkdir -p "$dir/src"
results="$dir/results.tsv"; : >"$results"
log="$dir/log.txt"; : >"$log"

trap 'echo "bench/run.sh: failed at line $LINENO (log: $log)" >&2' ERR

# the input of a pattern for an output of b bytes, with the numpy baseline's values (arange % 1000003, float32):
# the inner pattern's input has one element per output row, so each output size has its own
source_for() { # pattern bytes
    local file in_shape
    read -r in_shape _ <<<"$(shapes "$1" "$2")"
    file="$dir/src/$1-${in_shape//,/x}.npy"
    if [[ ! -f $file ]]; then
        python3 -c 'import sys, numpy as np; s = tuple(int(v) for v in sys.argv[2].split(","));
np.save(sys.argv[1], (np.arange(int(np.prod(s)), dtype=np.int64) % 1000003).astype(np.float32).reshape(s))' \
            "$file" "$in_shape"
    fi
    echo "$file"
}

# pattern -> input shape, output shape for a byte count (float32)
shapes() {
    local pattern=$1 b=$2
    case "$pattern" in
        rows) echo "1,4096 $(( b / 16384 )),4096" ;;
        inner) echo "$(( b / 16384 )),1 $(( b / 16384 )),4096" ;;
        middle) echo "64,1,256 64,$(( b / 65536 )),256" ;;
    esac
}
peer_size() { case "$1" in rows | inner) echo $(( $2 / 16384 )) ;; middle) echo $(( $2 / 65536 )) ;; esac; }

now() { date +%s.%N; }
record() { # rep pattern tool bytes wall job
    printf '%s\t%s\t%s\t%s\t%.3f\t%s\n' "$@" >>"$results"
    printf '  %-12s %-7s %6.2f s  (after start-up: %s)\n' "$3" "$2" "$5" "$6" >&2
}
json_field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])[sys.argv[1]])' "$1"; }

# ours: the launcher (embedded Spark), then fdatasync of every file it wrote, inside the timing
ours() { # rep pattern tool bytes master extra-args...
    local rep=$1 pattern=$2 tool=$3 b=$4 m=$5; shift 5
    local in_shape shape json t0 t1 t2 job output="$dir/out"
    read -r in_shape shape <<<"$(shapes "$pattern" "$b")"
    rm -rf "$output"
    local args=(expand --input "$(source_for "$pattern" "$b")" --dialect numpy --shape "$shape" --master "$m" --json "$@")
    [[ " $* " == *" null "* ]] || args+=(--output "$output")
    t0=$(now)
    json=$("$root/tensor-broadcast" "${args[@]}" 2>>"$log")
    t1=$(now)
    [[ -d $output ]] && sync -d "$output"/part-*
    t2=$(now)
    job=$(json_field job_seconds <<<"$json")
    record "$rep" "$pattern" "$tool" "$b" "$(echo "$t2 - $t0" | bc)" "$(echo "$job + $t2 - $t1" | bc)"
    echo "$tool $pattern: $json" | cut -c1-400 >>"$log"
    rm -rf "$output"
}

# the Spark SQL peer: its whole process, then fdatasync of its files
peer() { # rep pattern tool codec
    local rep=$1 pattern=$2 tool=$3 codec=$4 partitions t0 t1 t2 job
    rm -rf "$dir/sparksql"
    partitions=$(( (pbytes + (128 << 20) - 1) / (128 << 20) ))
    t0=$(now)
    job=$(java "${spark_jvm[@]}" -cp "$bench_cp" dev.tensorbroadcast.benchmarks.endtoend.SparkSqlPeer \
        "$pattern" "$(peer_size "$pattern" "$pbytes")" "$partitions" "$dir/sparksql" "$master" "$codec" \
        2>>"$log" | sed -n 's/^job_seconds //p')
    t1=$(now)
    sync -d "$dir"/sparksql/part-*
    t2=$(now)
    record "$rep" "$pattern" "$tool" "$pbytes" "$(echo "$t2 - $t0" | bc)" "$(echo "$job + $t2 - $t1" | bc)"
    rm -rf "$dir/sparksql"
}

for ((rep = 1; rep <= reps; rep++)); do
    for pattern in ${patterns//,/ }; do
        echo "rep $rep, pattern $pattern ($(uptime | sed 's/.*load/load/'))" >&2
        read -r in_shape shape <<<"$(shapes "$pattern" "$bytes")"
        if has_tool dd; then
            t0=$(now)
            dd if=/dev/zero of="$dir/dd.bin" bs=1M count=$(( bytes >> 20 )) conv=fdatasync 2>>"$log"
            record "$rep" "$pattern" dd "$bytes" "$(echo "$(now) - $t0" | bc)" -
            rm -f "$dir/dd.bin"
        fi
        if has_tool numpy; then
            t0=$(now)
            python3 "$numpy_script" --in-shape "$in_shape" --shape "$shape" --reps 1 --no-copyto \
                --save "$dir/numpy.npy" --fsync >>"$log" 2>&1
            record "$rep" "$pattern" numpy "$bytes" "$(echo "$(now) - $t0" | bc)" -
            rm -f "$dir/numpy.npy"
        fi
        has_tool arrow && ours "$rep" "$pattern" arrow "$bytes" "$master"
        has_tool arrow-lz4 && ours "$rep" "$pattern" arrow-lz4 "$bytes" "$master" --compression lz4
        has_tool null && ours "$rep" "$pattern" null "$bytes" "$master" --format null
        has_tool parquet && ours "$rep" "$pattern" parquet "$pbytes" "$master" --format parquet
        has_tool sparksql && peer "$rep" "$pattern" sparksql none
        has_tool parquet-zstd && ours "$rep" "$pattern" parquet-zstd "$pbytes" "$master" --format parquet \
            --compression zstd
        has_tool sparksql-zstd && peer "$rep" "$pattern" sparksql-zstd zstd
        if has_tool scaling; then
            ours "$rep" "$pattern" null-local1 "$sbytes" 'local[1]' --format null
            ours "$rep" "$pattern" null-local2 "$sbytes" 'local[2]' --format null
        fi
    done
done

conditions="$dir/conditions.md"
{
    echo "Written by \`bench/run.sh --size $size --parquet-size ${parquet_size:-$(( pbytes >> 20 ))m} --scaling-size ${scaling_size:-$(( sbytes >> 20 ))m} --patterns $patterns --reps $reps --tools $tools --master '$master'${append:+ --append}\`"
    echo "on $(date -u +%Y-%m-%dT%H:%MZ): $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)),"
    echo "$(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(java -version 2>&1 | head -n 1), numpy $(python3 -c 'import numpy; print(numpy.__version__)'),"
    echo "output directory $dir on $(df -h "$dir" | awk 'NR == 2 {print $1 " (" $4 " free)"}'); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo "Page cache not dropped (no root drop_caches here): each tool's files are fsynced inside its time, outputs"
    echo "deleted after each run. Patterns: rows \`[1,4096]->[N,4096]\`, inner \`[N,1]->[N,4096]\`, middle"
    echo "\`[64,1,256]->[64,K,256]\`, float32; Parquet and Spark SQL uncompressed (-zstd: ZSTD pages), 128 MiB"
    echo "partitions for both."
    echo
} >"$conditions"
mkdir -p "$out"
if [[ -n $append && -f "$out/benchmarks-e2e.tsv" ]]; then
    # earlier results of the tools not measured now, then this run's; the runs' conditions one after the other
    awk -F'\t' -v tools=",$tools," 'index(tools, "," $3 ",") == 0 && !($3 ~ /^null-local/ && tools ~ /,scaling,/)' \
        "$out/benchmarks-e2e.tsv" >"$dir/merged.tsv"
    cat "$results" >>"$dir/merged.tsv"
    mv "$dir/merged.tsv" "$results"
    [[ -f "$out/benchmarks-e2e-runs.md" ]] && cat "$out/benchmarks-e2e-runs.md" "$conditions" >"$dir/runs.md" \
        && mv "$dir/runs.md" "$conditions"
fi
cp "$conditions" "$out/benchmarks-e2e-runs.md"
java -cp "$bench_cp" dev.tensorbroadcast.benchmarks.endtoend.BenchReport "$results" "$conditions" \
    "$out/benchmarks-e2e.md" "$out/benchmarks-e2e.png"
cp "$results" "$out/benchmarks-e2e.tsv"
echo "results: $out/benchmarks-e2e.md, $out/benchmarks-e2e.png, $out/benchmarks-e2e.tsv (log: $log)" >&2
rm -rf "$dir/src"
