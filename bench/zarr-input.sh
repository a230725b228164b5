#!/usr/bin/env bash
# A Zarr v3 input against the same values as a .npy (not run by CI): tensorstore writes float32 [ROWS,1,4096]
# (chunks [64,1,4096], zstd level 1) and numpy the same values as one .npy; then `tensor-broadcast expand` broadcasts
# each to [ROWS,2,4096] (per-row features: output rows follow input rows) into the null sink (`--format null`: every batch computed and discarded, so the disk's
# write speed is out of the figure), side by side in one run. The Zarr array is over the ship threshold, so the tasks
# read it chunk by chunk; the .npy is read whole on the driver (within the 1 GiB source heap limit) and shipped.
#
#   bench/zarr-input.sh [ROWS] [WORK_DIR]      # default 65536 rows: 1 GiB of values
set -euo pipefail

root=$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/..
rows=${1:-65536}
work=${2:-/tmp/tensor-broadcast-zarr-input-bench}
cli="$root/tensor-broadcast"
mkdir -p "$work"
"$cli" --version >/dev/null

python3 - "$work" "$rows" "$cli" <<'PY'
import json, os, resource, shutil, subprocess, sys, time
import numpy as np
import tensorstore as ts

work, rows, cli = sys.argv[1], int(sys.argv[2]), sys.argv[3]
zarr, npy = os.path.join(work, "in.zarr"), os.path.join(work, "in.npy")
shutil.rmtree(zarr, ignore_errors=True)
start = time.monotonic()
array = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": zarr}, "create": True,
                 "metadata": {"shape": [rows, 1, 4096], "data_type": "float32",
                              "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [64, 1, 4096]}},
                              "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                         {"name": "zstd", "configuration": {"level": 1}}]}}).result()
out = np.lib.format.open_memmap(npy, mode="w+", dtype=np.float32, shape=(rows, 1, 4096))
for first in range(0, rows, 4096):
    count = min(4096, rows - first)
    i = np.arange(first * 4096, (first + count) * 4096, dtype=np.int64)
    values = (i % 1000 * 0.25).astype(np.float32).reshape(count, 1, 4096)
    array[first:first + count].write(values).result()
    out[first:first + count] = values
out.flush()
del out
zarr_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(zarr) for f in fs)
print(f"inputs written in {time.monotonic() - start:.1f} s: {rows * 4096 * 4 / 2**30:.2f} GiB of values;"
      f" zarr {zarr_bytes / 2**20:.1f} MiB on disk ({-(-rows // 64)} chunks), npy {os.path.getsize(npy) / 2**30:.2f} GiB")
print(f"load before: {os.getloadavg()}")
print("| input | tasks | wall s | job s | peak RSS of the command (MiB) | crc32c of partition 0 |")
print("|---|---|---|---|---|---|")
for name, path in (("zarr (tensorstore)", zarr), ("npy", npy)):
    start = time.monotonic()
    run = subprocess.run([cli, "expand", "--input", path, "--dialect", "numpy", "--shape", f"{rows},2,4096",
                          "--format", "null", "--json"], check=True, capture_output=True, text=True)
    seconds = time.monotonic() - start
    result = json.loads(run.stdout)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"| {name} | {len(result['partitions'])} | {seconds:.1f} | {result['job_seconds']:.1f} | {peak:.0f} |"
          f" {result['partitions'][0]['crc32c']} |")
    print("  json:", json.dumps(result)[:400], file=sys.stderr)
print(f"load after: {os.getloadavg()}")
PY
