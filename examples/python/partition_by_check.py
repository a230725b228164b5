"""Checks that `expand --partition-by` output reads back with pyarrow's hive partitioning.

Writes a feature table with pyarrow's write_to_dataset(partition_cols=["day", "tag"]) (a tag with a slash and a
null tag among the values), expands it with --partition-by day,tag, and reads the output with
ds.dataset(..., partitioning="hive"): the keys come back as columns with each row's values, and the tensor values
are the input's broadcast. Run from the repository root: python3 examples/python/partition_by_check.py
"""
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

ROWS = 60


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="partition-by-"))
    table = pa.table({
        "user_id": pa.array(range(ROWS), pa.int64()),
        "day": pa.array([f"2024-03-0{1 + r // 20}" for r in range(ROWS)]),
        "tag": pa.array(["a/b c" if r % 20 < 10 else None for r in range(ROWS)]),
        "features": pa.array([[r + e / 8 for e in range(8)] for r in range(ROWS)], pa.list_(pa.float32())),
    })
    source = root / "table"
    pq.write_to_dataset(table, source, partition_cols=["day", "tag"])
    output = root / "out"
    subprocess.run(["./tensor-broadcast", "expand", "--input", str(source), "--column", "features",
                    "--row-shape", "[1,8]", "--dialect", "pytorch", "--shape", "[-1,2,8]", "--format", "parquet",
                    "--partitions", "4", "--partition-by", "day,tag", "--output", str(output)], check=True)
    read = ds.dataset(output, format="parquet", partitioning="hive").to_table().sort_by("user_id")
    assert read.num_rows == ROWS, read.num_rows
    names = set(read.column_names)
    assert {"user_id", "day", "tag", "tensor"} <= names, names
    for row in read.to_pylist():
        u = row["user_id"]
        assert str(row["day"]) == f"2024-03-0{1 + u // 20}", row["day"]
        assert row["tag"] == ("a/b c" if u % 20 < 10 else None), row["tag"]
        values = row["tensor"]
        flat = values if not isinstance(values[0], list) else [v for part in values for v in part]
        assert flat[15] == u + 7 / 8, flat
    directories = sorted({p.parent.relative_to(output).as_posix() for p in output.rglob("part-*")})
    print("read back", read.num_rows, "rows with day and tag from", directories)
    return 0


if __name__ == "__main__":
    sys.exit(main())
