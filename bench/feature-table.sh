#!/usr/bin/env bash
# Side-by-side end-to-end benchmark of batch expansion of a feature table (issue 13), not run by CI: a table as
# pyarrow writes it by default (snappy; `user_id` int64, `label` int32, `features` list<float> of 64 values; 2 Mi
# rows in 8 files) expanded [1,64] -> [8,64] per row to Parquet (4 GiB of values) by tensor-broadcast, and by a
# pyarrow + numpy script doing the same (bench/pyarrow_expand.py: read batches, np.broadcast_to, write a
# fixed_shape_tensor column with the other columns, fsync), each as a whole process, interleaved, with the source
# in the page cache. The outputs are checked against each other (row counts, a sample of rows). Prints a TSV line per
# run and the ratio.
#
#   bench/feature-table.sh [--rows 2097152] [--reps 3] [--codecs none,snappy,zstd] [--master 'local[*]']
#                          [--dir /tmp/tb-features]
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rows=2097152 reps=3 codecs=none master='local[*]' dir=/tmp/tb-features
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rows) rows=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --codecs) codecs=$2; shift 2 ;;
        --master) master=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "bench/feature-table.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
cli="$root/tensor-broadcast"
mkdir -p "$dir"
"$cli" --version >/dev/null # builds once, before anything is timed

table="$dir/table-$rows"
if [[ ! -f $table/part-7.parquet ]]; then
    rm -rf "$table"
    mkdir -p "$table"
    python3 - "$table" "$rows" <<'PY'
import sys, numpy as np, pyarrow as pa, pyarrow.parquet as pq
table, rows = sys.argv[1], int(sys.argv[2])
per_file = rows // 8
rng = np.random.default_rng(13)
for part in range(8):
    ids = np.arange(part * per_file, (part + 1) * per_file, dtype=np.int64)
    features = rng.standard_normal((per_file, 64), dtype=np.float32)
    offsets = pa.array(np.arange(0, (per_file + 1) * 64, 64, dtype=np.int32))
    pq.write_table(pa.table({'user_id': ids, 'label': (ids % 2).astype(np.int32),
                             'features': pa.ListArray.from_arrays(offsets, pa.array(features.reshape(-1)))}),
                   f'{table}/part-{part}.parquet')
PY
fi
cat "$table"/* >/dev/null # into the page cache, for both tools alike
# a first run prepares the JVM's class-data archive; no timed run pays it
"$cli" expand --input "$table" --column features --row-shape '[1,64]' --dialect pytorch --shape '[-1,8,64]' \
    --format null --master "$master" >/dev/null 2>&1

seconds() { # command...: prints the wall time of the whole process
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>"$dir/last.err" || { cat "$dir/last.err" >&2; exit 1; }
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

ours_expand() { # codec output
    local compression=()
    [[ $1 == none ]] || compression=(--compression "$1")
    "$cli" expand --input "$table" --column features --row-shape '[1,64]' --dialect pytorch --shape '[-1,8,64]' \
        --format parquet "${compression[@]}" --output "$2" --master "$master" && sync -f "$2"
}

printf 'codec\trep\ttool\tseconds\tGB/s\n'
out_bytes=$((rows * 8 * 64 * 4))
for codec in ${codecs//,/ }; do
    for rep in $(seq 1 "$reps"); do
        rm -rf "$dir/ours" "$dir/pyarrow"
        ours=$(seconds ours_expand "$codec" "$dir/ours")
        pyarrow=$(seconds python3 "$root/bench/pyarrow_expand.py" "$table" "$dir/pyarrow" "$codec")
        python3 - "$dir/ours" "$dir/pyarrow" "$rows" <<'PY'
import sys, numpy as np, pyarrow.dataset as ds
ours, theirs = (ds.dataset(path, format='parquet', exclude_invalid_files=True) for path in sys.argv[1:3])
rows = int(sys.argv[3])
assert ours.count_rows() == theirs.count_rows() == rows, 'row counts differ'
sample = sorted({0, rows // 3, rows - 1})
a = ours.to_table(filter=ds.field('index').isin(sample)).sort_by('index')
b = theirs.to_table(filter=ds.field('user_id').isin(sample)).sort_by('user_id')
assert a.column('user_id').to_pylist() == b.column('user_id').to_pylist() == sample, 'user ids differ'
assert np.array_equal(a.column('tensor').combine_chunks().to_numpy_ndarray(),
                      b.column('tensor').combine_chunks().to_numpy_ndarray()), 'values differ'
PY
        for tool in ours pyarrow; do
            printf '%s\t%d\t%s\t%.2f\t%.2f\n' "$codec" "$rep" "$tool" "${!tool}" \
                "$(echo "$out_bytes / ${!tool} / 1000000000" | bc -l)"
        done
        printf '%s\t%d\tratio (ours / pyarrow)\t%.2f\t\n' "$codec" "$rep" "$(echo "$ours / $pyarrow" | bc -l)"
    done
done
