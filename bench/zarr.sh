#!/usr/bin/env bash
# Zarr v3 output against tensorstore (not run by CI): the same broadcast written as the same Zarr array (same chunks,
# zstd level 3, no sharding) by `tensor-broadcast expand --format zarr` (local Spark, all cores) and by tensorstore
# (`ts.open(...).write(np.broadcast_to(...))`, chunk row by chunk row, so its memory stays bounded too), side by side
# in one run. Both arrays are then read back by tensorstore and compared with numpy's broadcast (a sample of rows).
#
#   bench/zarr.sh [ROWS_4096] [FRAMES_512] [WORK_DIR]
#
# The issue's sizes are 16 GiB: ROWS_4096=1048576 ([1,4096] -> [N,4096] float32) and FRAMES_512=16384
# ([1,512,512] -> [T,512,512] float32). The defaults are 1 GiB each (65536 and 1024), for a shared machine.
set -euo pipefail

root=$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/..
rows=${1:-65536}
frames=${2:-1024}
work=${3:-/tmp/tensor-broadcast-zarr-bench}
cli="$root/tensor-broadcast"
mkdir -p "$work"
"$cli" --version >/dev/null

python3 - "$work" "$rows" "$frames" "$cli" <<'PY'
import json, os, resource, shutil, subprocess, sys, time
import numpy as np
import tensorstore as ts

work, rows, frames, cli = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
cases = [("[1,4096]->[N,4096]", (1, 4096), (rows, 4096), (256, 4096)),
         ("[1,512,512]->[T,512,512]", (1, 512, 512), (frames, 512, 512), (16, 512, 512))]
print("| case | output | chunks | tensorstore s | tensor-broadcast s | ratio | chunk objects (ours / ts) |"
      " our manifest | load |")
print("|---|---|---|---|---|---|---|---|---|")
for name, src_shape, target, chunks in cases:
    src = (np.arange(int(np.prod(src_shape)), dtype=np.float32) % 97).reshape(src_shape)
    npy = os.path.join(work, "src.npy")
    np.save(npy, src)
    ours, theirs = os.path.join(work, "ours.zarr"), os.path.join(work, "ts.zarr")
    shutil.rmtree(ours, ignore_errors=True)
    shutil.rmtree(theirs, ignore_errors=True)

    start = time.monotonic()
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": theirs}, "create": True,
            "metadata": {"shape": list(target), "data_type": "float32",
                         "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
                         "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                    {"name": "zstd", "configuration": {"level": 3}}]}}
    array = ts.open(spec).result()
    for first in range(0, target[0], chunks[0]):
        count = min(chunks[0], target[0] - first)
        array[first:first + count].write(np.broadcast_to(src, (count,) + tuple(target[1:]))).result()
    ts_seconds = time.monotonic() - start

    start = time.monotonic()
    subprocess.run([cli, "expand", "--input", npy, "--dialect", "numpy", "--shape",
                    json.dumps(list(target)).replace(" ", ""), "--format", "zarr", "--chunks",
                    ",".join(map(str, chunks)), "--compression", "zstd", "--output", ours],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    our_seconds = time.monotonic() - start

    for path in (ours, theirs):
        read = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": path}}).result()
        for row in (0, target[0] // 2, target[0] - 1):
            assert np.array_equal(read[row].read().result(), np.broadcast_to(src, target)[row]), (path, row)
    size = lambda path: sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)
    gib = np.prod(target) * 4 / 2**30
    # the chunk objects alone (c/) compare the codecs; ours also has the manifest, one line per object
    chunk_sizes = f"{size(os.path.join(ours, 'c')) >> 10} KiB / {size(os.path.join(theirs, 'c')) >> 10} KiB"
    print(f"| {name} | {list(target)} float32, {gib:.1f} GiB | {list(chunks)} | {ts_seconds:.1f} | "
          f"{our_seconds:.1f} | {our_seconds / ts_seconds:.2f}x | {chunk_sizes} | "
          f"{os.path.getsize(os.path.join(ours, '_manifest.json')) >> 10} KiB | {os.getloadavg()[0]:.1f} |")
    shutil.rmtree(ours, ignore_errors=True)
    shutil.rmtree(theirs, ignore_errors=True)
PY
