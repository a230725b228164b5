#!/usr/bin/env bash
# zstd outputs against tensorstore (Zarr) and pyarrow (Arrow IPC, Parquet), side by side in one run, alternating
# tool by tool and rep by rep (not run by CI): a float32 row of 4096 standard-normal values (seed 0) broadcast to
# [ROWS,4096] (the issue's 8 GiB is ROWS=524288), zstd level 3.
#   - Zarr v3, chunks [8192,4096], no sharding: `tensor-broadcast expand --format zarr` against tensorstore writing
#     the same array chunk row by chunk row (`ts.open(...).write(np.broadcast_to(...))`).
#   - Arrow IPC and Parquet: ours against pyarrow writing the same table (an int64 `index` column and an
#     arrow.fixed_shape_tensor column), batch by batch from np.broadcast_to, in our batch/row group/page sizes
#     (read from our first file), pa.ipc.new_file with IpcWriteOptions(compression=Codec('zstd', 3)) and
#     pq.ParquetWriter(compression='zstd', compression_level=3, use_dictionary=False).
# Whole processes, page cache warm, each file fsynced; reads back rows 0, middle, last of every output and checks
# them against numpy. Prints a Markdown table: median seconds, bytes on disk (chunk objects / part files), ratios,
# and the 1-minute load average after each case (the machine may be shared: ratios matter more than seconds).
#
#   bench/zstd.sh [ROWS] [REPS] [WORK_DIR]      (defaults 65536 = 1 GiB, 2 reps, /tmp/tensor-broadcast-zstd-bench)
set -euo pipefail

root=$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/..
rows=${1:-65536}
reps=${2:-2}
work=${3:-/tmp/tensor-broadcast-zstd-bench}
cli="$root/tensor-broadcast"
mkdir -p "$work"
"$cli" --version >/dev/null

python3 - "$work" "$rows" "$reps" "$cli" <<'PY'
import glob, json, os, shutil, statistics, subprocess, sys, time
import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq
import tensorstore as ts

work, rows, reps, cli = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
width, chunk_rows = 4096, 8192
src = np.random.default_rng(0).standard_normal((1, width)).astype(np.float32)
npy = os.path.join(work, "src.npy")
np.save(npy, src)
target = (rows, width)


def fsync_tree(path):
    for d, _, fs in os.walk(path):
        for f in fs:
            fd = os.open(os.path.join(d, f), os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)


def size(path, pattern):
    return sum(os.path.getsize(p) for p in glob.glob(os.path.join(path, pattern), recursive=True)
               if os.path.isfile(p))


def ours(fmt, out, extra=()):
    shutil.rmtree(out, ignore_errors=True)
    start = time.monotonic()
    subprocess.run([cli, "expand", "--input", npy, "--dialect", "numpy", "--shape", f"{rows},{width}",
                    "--format", fmt, "--compression", "zstd:3", "--output", out, *extra],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def tensorstore(out):
    shutil.rmtree(out, ignore_errors=True)
    start = time.monotonic()
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": out}, "create": True,
            "metadata": {"shape": list(target), "data_type": "float32",
                         "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [chunk_rows, width]}},
                         "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                    {"name": "zstd", "configuration": {"level": 3}}]}}
    array = ts.open(spec).result()
    for first in range(0, rows, chunk_rows):
        count = min(chunk_rows, rows - first)
        array[first:first + count].write(np.broadcast_to(src, (count, width))).result()
    fsync_tree(out)
    return time.monotonic() - start


tensor_type = pa.fixed_shape_tensor(pa.float32(), [width])


def table(first, count):
    values = np.ascontiguousarray(np.broadcast_to(src, (count, width))).reshape(-1)
    storage = pa.FixedSizeListArray.from_arrays(pa.array(values), width)
    return pa.table({"index": pa.array(np.arange(first, first + count, dtype=np.int64)),
                     "tensor": pa.ExtensionArray.from_storage(tensor_type, storage)})


def pyarrow_ipc(out, batch_rows):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    start = time.monotonic()
    path = os.path.join(out, "part-0.arrow")
    options = ipc.IpcWriteOptions(compression=pa.Codec("zstd", 3))
    writer = None
    for first in range(0, rows, batch_rows):
        t = table(first, min(batch_rows, rows - first))
        if writer is None:
            writer = ipc.new_file(path, t.schema, options=options)
        writer.write_table(t)
    writer.close()
    fsync_tree(out)
    return time.monotonic() - start


def pyarrow_parquet(out, group_rows, page_bytes):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    start = time.monotonic()
    path = os.path.join(out, "part-0.parquet")
    writer = None
    for first in range(0, rows, group_rows):
        t = table(first, min(group_rows, rows - first))
        if writer is None:
            writer = pq.ParquetWriter(path, t.schema, compression="zstd", compression_level=3,
                                      use_dictionary=False, data_page_size=page_bytes)
        writer.write_table(t, row_group_size=group_rows)
    writer.close()
    fsync_tree(out)
    return time.monotonic() - start


def check_rows(read_row):
    for row in (0, rows // 2, rows - 1):
        assert np.array_equal(read_row(row), src[0]), row


def ipc_row(out, row):
    for path in sorted(glob.glob(os.path.join(out, "**/*.arrow"), recursive=True)):
        reader = ipc.open_file(path)
        for i in range(reader.num_record_batches):
            batch = reader.get_batch(i)
            hits = np.nonzero(batch.column(0).to_numpy() == row)[0]
            if len(hits):
                return batch.column(1).storage.values.to_numpy().reshape(-1, width)[hits[0]]
    raise AssertionError(row)


def parquet_row(out, row):
    for path in sorted(glob.glob(os.path.join(out, "**/*.parquet"), recursive=True)):
        pf = pq.ParquetFile(path)
        for g in range(pf.metadata.num_row_groups):
            t = pf.read_row_group(g)
            hits = np.nonzero(t.column("index").to_numpy() == row)[0]
            if len(hits):
                values = t.column("tensor").combine_chunks().storage.values
                return np.asarray(values).reshape(-1, width)[hits[0]]
    raise AssertionError(row)


gib = rows * width * 4 / 2**30
print(f"`bench/zstd.sh {rows} {reps}`: [1,4096] -> [{rows},4096] float32 ({gib:.1f} GiB), zstd level 3")
print()
print("| format | other tool | other s | ours s | ours / other | other bytes | our bytes | ours / other | load |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")

# Zarr
ours_zarr, ts_zarr = os.path.join(work, "ours.zarr"), os.path.join(work, "ts.zarr")
ours("zarr", ours_zarr, ["--chunks", f"{chunk_rows},{width}"])  # warm-up (and the class-data archive)
times = {"ours": [], "other": []}
for _ in range(reps):
    times["other"].append(tensorstore(ts_zarr))
    times["ours"].append(ours("zarr", ours_zarr, ["--chunks", f"{chunk_rows},{width}"]))
for path in (ours_zarr, ts_zarr):
    arr = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": path}}).result()
    check_rows(lambda row: arr[row].read().result())
theirs_b, ours_b = size(ts_zarr, "c/**"), size(ours_zarr, "c/**")
o, t = statistics.median(times["ours"]), statistics.median(times["other"])
objects = len([p for p in glob.glob(os.path.join(ours_zarr, "c/**"), recursive=True) if os.path.isfile(p)])
print(f"| Zarr v3, chunks [{chunk_rows},{width}] | tensorstore {ts.__version__ if hasattr(ts, '__version__') else ''} "
      f"| {t:.2f} | {o:.2f} | {o / t:.2f}x | {theirs_b:,} | {ours_b:,} ({objects} objects) | {ours_b / theirs_b:.2f}x "
      f"| {os.getloadavg()[0]:.1f} |")
shutil.rmtree(ours_zarr, ignore_errors=True)
shutil.rmtree(ts_zarr, ignore_errors=True)

# Arrow IPC
ours_ipc, pa_ipc = os.path.join(work, "ours-ipc"), os.path.join(work, "pa-ipc")
ours("arrow", ours_ipc)
first = sorted(glob.glob(os.path.join(ours_ipc, "**/*.arrow"), recursive=True))[0]
batch_rows = ipc.open_file(first).get_batch(0).num_rows
times = {"ours": [], "other": []}
for _ in range(reps):
    times["other"].append(pyarrow_ipc(pa_ipc, batch_rows))
    times["ours"].append(ours("arrow", ours_ipc))
check_rows(lambda row: ipc_row(ours_ipc, row))
check_rows(lambda row: ipc_row(pa_ipc, row))
theirs_b, ours_b = size(pa_ipc, "**/*.arrow"), size(ours_ipc, "**/*.arrow")
o, t = statistics.median(times["ours"]), statistics.median(times["other"])
print(f"| Arrow IPC, batches of {batch_rows} rows | pyarrow {pa.__version__} | {t:.2f} | {o:.2f} | {o / t:.2f}x "
      f"| {theirs_b:,} | {ours_b:,} | {ours_b / theirs_b:.2f}x | {os.getloadavg()[0]:.1f} |")
shutil.rmtree(ours_ipc, ignore_errors=True)
shutil.rmtree(pa_ipc, ignore_errors=True)

# Parquet
ours_pq, pa_pq = os.path.join(work, "ours-parquet"), os.path.join(work, "pa-parquet")
ours("parquet", ours_pq)
first = sorted(glob.glob(os.path.join(ours_pq, "**/*.parquet"), recursive=True))[0]
meta = pq.ParquetFile(first).metadata
group_rows = meta.row_group(0).num_rows
page_bytes = 1 << 20
times = {"ours": [], "other": []}
for _ in range(reps):
    times["other"].append(pyarrow_parquet(pa_pq, group_rows, page_bytes))
    times["ours"].append(ours("parquet", ours_pq))
check_rows(lambda row: parquet_row(ours_pq, row))
check_rows(lambda row: parquet_row(pa_pq, row))
theirs_b, ours_b = size(pa_pq, "**/*.parquet"), size(ours_pq, "**/*.parquet")
o, t = statistics.median(times["ours"]), statistics.median(times["other"])
print(f"| Parquet, row groups of {group_rows} rows, 1 MiB pages | pyarrow {pa.__version__} | {t:.2f} | {o:.2f} "
      f"| {o / t:.2f}x | {theirs_b:,} | {ours_b:,} | {ours_b / theirs_b:.2f}x | {os.getloadavg()[0]:.1f} |")
shutil.rmtree(ours_pq, ignore_errors=True)
shutil.rmtree(pa_pq, ignore_errors=True)
PY
