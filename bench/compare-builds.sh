#!/usr/bin/env bash
# Before and after, side by side: the same expand (or reduce) runs with the build of an older commit and with this
# checkout's, alternating run by run (old, new, old, new, ...), so both see the same disk and the same noise. Prints per
# case the median whole-process time of each (launcher start to fdatasync of every written file), their ratio new/old,
# and whether the two builds wrote the same bytes (each build's first run of a case, file by file).
#
#   bench/compare-builds.sh --base REV [--head REV] [--size 2g] [--reps 3] [--patterns rows,inner] [--dir /tmp/tb-compare]
#                           [--cases arrow,parquet,null,arrow-lz4,parquet-zstd] [--no-build]
#
# Cases: arrow, parquet, null, arrow-lz4, arrow-zstd, parquet-zstd, zarr, zarr-zstd (expand with that --format and
# --compression), zarr-zstd-8192 (zarr-zstd in chunks of [8192,4096], issue 42's),
# reduce-npy (reduce of a [rows,4096] gradient to a [1,4096] .npy; run under the rows pattern only).
# The older commit is checked out as a git worktree under --dir and built there (offline, with this machine's Maven
# repository); so is --head when given (else this checkout, as it is). --no-build skips that build of trees built
# before (the launcher still builds a tree whose jars are missing or stale). Each build's first expand (its class-data
# archive) runs before measuring. Bytes are compared as WriteBytesTest does:
# a Parquet file's pages byte for byte and its footer by content (parquet-mr orders a column chunk's encodings by
# identity hash codes), a zarr.json by content (its keys come in Map.of's per-JVM order), and a manifest field by field
# without what names the run (created, and each file's executor_id and host; a Parquet file's crc32c, of its raw
# footer, too). Needs python3 with numpy, and pyarrow
# for the Parquet footers.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
base= head= build=true size=2g reps=3 cases=arrow,parquet,null patterns=rows,inner dir=/tmp/tb-compare
while [[ $# -gt 0 ]]; do
    case "$1" in
        --base) base=$2; shift 2 ;;
        --head) head=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --cases) cases=$2; shift 2 ;;
        --patterns) patterns=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --no-build) build=false; shift ;;
        -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
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
new=$root
if [[ -n $head ]]; then
    new="$dir/head"
    [[ -d $new ]] || git -C "$root" worktree add --detach "$new" "$head" >/dev/null
    git -C "$new" checkout -q --detach "$head"
fi
echo "building $base and ${head:-this checkout} (once, before measuring)..." >&2
python3 - "$dir" <<'PY'
import numpy as np, sys
rng = np.random.default_rng(7)
np.save(f"{sys.argv[1]}/row.npy", rng.random((1, 4096), dtype=np.float32))
PY
for tree in "$old" "$new"; do
    if $build; then
        (cd "$tree" && mvn -B -q -o -DskipTests -pl job -am package >/dev/null)
    fi
    "$tree/tensor-broadcast" plan --dialect numpy --input-shape 1 --shape 2 >/dev/null
    # the first expand of a build makes its class-data archive: not part of any measured run
    "$tree/tensor-broadcast" expand --input "$dir/row.npy" --dialect numpy --shape 2,4096 --format null >/dev/null 2>&1
done
# one line per file of an output (or per field of its manifest): its name and a CRC-32 of its bytes, or of its content
# where the bytes are not stable from one JVM to the next (see the header)
cat >"$dir/sums.py" <<'PY'
import json, os, struct, sys, zlib

def crc(data):
    return "%08x" % zlib.crc32(data)

def file_crc(path):
    value = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            value = zlib.crc32(chunk, value)
    return "%08x" % value

def parquet(path):
    import pyarrow.parquet as pq
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(size - 8)
        footer = struct.unpack("<i", f.read(4))[0]
    value, left = 0, size - 8 - footer
    with open(path, "rb") as f:
        while left > 0:
            chunk = f.read(min(left, 1 << 24))
            value, left = zlib.crc32(chunk, value), left - len(chunk)
    metadata = pq.ParquetFile(path).metadata.to_dict()
    for group in metadata["row_groups"]:
        for column in group["columns"]:
            column["encodings"] = sorted(column["encodings"])
    return "%08x pages, %s footer" % (value, crc(json.dumps(metadata, sort_keys=True, default=str).encode()))

root = sys.argv[1]
if os.path.isfile(root):
    print(os.path.basename(root), file_crc(root))
    sys.exit()
for top, _, names in sorted(os.walk(root)):
    for name in sorted(names):
        path = os.path.join(top, name)
        relative = os.path.relpath(path, root)
        if name == "_manifest.json":
            manifest = json.load(open(path))
            manifest.pop("created")
            for entry in manifest["files"]:
                entry.pop("executor_id")
                entry.pop("host")
                if entry["path"].endswith(".parquet"):
                    entry.pop("crc32c")  # of the raw footer; the file's own line compares it by content
            for field, value in manifest.items():
                print(f"{relative}:{field}", crc(json.dumps(value, sort_keys=True).encode()))
        elif name == "zarr.json":
            print(relative, crc(json.dumps(json.load(open(path)), sort_keys=True).encode()))
        elif name.endswith(".parquet"):
            print(relative, parquet(path))
        else:
            print(relative, file_crc(path))
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
        arrow-zstd) echo "--format arrow --compression zstd" ;;
        parquet-zstd) echo "--format parquet --compression zstd" ;;
        zarr) echo "--format zarr" ;;
        zarr-zstd) echo "--format zarr --compression zstd" ;;
        zarr-zstd-8192) echo "--format zarr --compression zstd --chunks 8192,4096" ;;
        reduce-npy) echo "--input-shape 1,4096" ;;
        *) echo "bench/compare-builds.sh: unknown case '$1'" >&2; exit 2 ;;
    esac
}
gradient() { # -> the reduce case's [rows,4096] input
    [[ -f $dir/grad-$rows.npy ]] || python3 -c "import numpy as np, sys
np.save(sys.argv[1], np.random.default_rng(7).random((int(sys.argv[2]), 4096), dtype=np.float32))" "$dir/grad-$rows.npy" "$rows"
    echo "$dir/grad-$rows.npy"
}
run() { # tree pattern case [sums file] -> seconds; with a sums file, the output's files' checksums go there
    local tree=$1 input shape output="$dir/out" t0 t1 command=expand
    read -r input shape <<<"$(source_and_shape "$2")"
    if [[ $3 == reduce-npy ]]; then
        command=reduce input=$(gradient) output="$dir/out.npy"
    fi
    rm -rf "$output"
    local args=($command --input "$input" --dialect numpy --shape "$shape" $(options_for "$3"))
    [[ $3 == null ]] || args+=(--output "$output")
    t0=$(date +%s.%N)
    if ! "$tree/tensor-broadcast" "${args[@]}" >/dev/null 2>>"$dir/log"; then
        echo "bench/compare-builds.sh: a run failed ($tree: ${args[*]}); see $dir/log" >&2
        exit 1
    fi
    [[ -e $output ]] && find "$output" -type f -exec sync -d {} +
    t1=$(date +%s.%N)
    [[ -z ${4:-} ]] || python3 "$dir/sums.py" "$output" >"$4"
    rm -rf "$output"
    printf '%.2f' "$(echo "$t1 - $t0" | bc)"
}
median() { tr ' ' '\n' | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

echo "| pattern | case | $base (s) | $(git -C "$new" rev-parse --short HEAD) (s) | new/old | same bytes |"
echo "|---|---|---:|---:|---:|---|"
IFS=, read -r -a pattern_list <<<"$patterns"
IFS=, read -r -a case_list <<<"$cases"
for pattern in "${pattern_list[@]}"; do
    for c in "${case_list[@]}"; do
        [[ $c != reduce-npy || $pattern == rows ]] || continue
        olds=() news=()
        sums="$dir/sums-$pattern-$c"
        olds+=("$(run "$old" "$pattern" "$c" "$sums.old")")
        news+=("$(run "$new" "$pattern" "$c" "$sums.new")")
        for _ in $(seq 2 "$reps"); do
            olds+=("$(run "$old" "$pattern" "$c")")
            news+=("$(run "$new" "$pattern" "$c")")
        done
        same=yes
        if [[ $c == null ]]; then
            same="(writes nothing)"
        elif [[ ! -s $sums.new ]]; then
            same="no: nothing written ($sums.new)"
        elif ! cmp -s "$sums.old" "$sums.new"; then
            same="no: $(diff "$sums.old" "$sums.new" | grep -c '^>') of $(wc -l <"$sums.new") lines differ ($sums.*)"
        fi
        o=$(echo "${olds[*]}" | median) n=$(echo "${news[*]}" | median)
        printf '| %s | %s | %.2f (%s) | %.2f (%s) | %.2f | %s |\n' "$pattern" "$c" "$o" "${olds[*]}" "$n" "${news[*]}" \
            "$(echo "$n / $o" | bc -l)" "$same"
    done
done
