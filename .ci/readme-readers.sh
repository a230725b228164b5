#!/usr/bin/env bash
# Runs the README's "Reading the output" recipes (pyarrow, polars, DuckDB, torch, datasets, tensorstore) on the outputs of the
# README's own commands, and checks what they read. Called by .ci/run after the tests; skips, saying why, where the
# readers cannot be installed (this needs no network when a local wheel index is configured for pip).
set -euo pipefail
cd "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.."

readers="pyarrow polars duckdb torch datasets tensorstore"
if ! python3 -c "import pyarrow, polars, duckdb, torch, datasets, tensorstore" 2>/dev/null; then
    index=()
    [[ -d /opt/pypi/simple ]] && index+=(--index-url file:///opt/pypi/simple)
    [[ -d /opt/pypi-more/simple ]] && index+=(--extra-index-url file:///opt/pypi-more/simple)
    if ! python3 -m pip install -q ${index[@]+"${index[@]}"} $readers >target/readme-readers-pip.log 2>&1; then
        echo "ci: README reader recipes skipped: cannot install $readers (target/readme-readers-pip.log)" >&2
        exit 0
    fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work" /tmp/tb/numpy /tmp/tb/onnx /tmp/tb/nested /tmp/tb/paddle-pair /tmp/tb/zarr' EXIT
rm -rf /tmp/tb/numpy /tmp/tb/onnx /tmp/tb/nested /tmp/tb/paddle-pair /tmp/tb/zarr
# the README's own commands for the outputs the recipes read, as they are written there
for output in /tmp/tb/numpy /tmp/tb/onnx /tmp/tb/nested /tmp/tb/paddle-pair /tmp/tb/zarr; do
    command=$(grep -m1 -E "^\\$ \\./tensor-broadcast (expand|broadcast-tensors) .*--output $output( |$)" README.md \
        | sed 's/^\$ //')
    [[ -n $command ]] || { echo "ci: README has no command writing $output" >&2; exit 1; }
    echo "ci: $command" >&2
    eval "$command" >/dev/null
done

# every python block of the section, in order, then SQL blocks through DuckDB's Python API
python3 - "$work" <<'EOF'
import re, sys
readme = open("README.md", encoding="utf-8").read()
section = readme[readme.index("### Reading the output"):]
section = section[:section.index("\n## ")]
python = "\n".join(re.findall(r"```python\n(.*?)```", section, re.S))
sql = re.findall(r"```sql\n(.*?)```", section, re.S)
scope = {}
exec(compile(python, "README.md (Reading the output)", "exec"), scope)
# what the recipes' comments promise
assert scope["array"].shape == (1000, 4096), scope["array"].shape
assert scope["rows"].shape == (2, 3, 6), scope["rows"].shape
assert tuple(scope["tensor"].shape) == (1000, 4096), scope["tensor"].shape
assert float(scope["tensor"][999, 4095]) == float(scope["array"][0, 4095])
# nested rows carry their shape: the same broadcast as the flat /tmp/tb/onnx, no reshape
assert scope["nested"].shape == (2, 3, 6), scope["nested"].shape
assert (scope["nested"] == scope["rows"]).all()
# Hugging Face datasets reads the nested rows with their shape
assert scope["hf_rows"].shape == (2, 3, 6), scope["hf_rows"].shape
assert (scope["hf_rows"] == scope["rows"]).all()
# the Zarr array through tensorstore: the last rows' last columns, equal to the source row's
import numpy
row = numpy.load("examples/row4096.npy")
assert scope["block"].shape == (10, 96), scope["block"].shape
assert (scope["block"] == numpy.broadcast_to(row[:, 4000:4096], (10, 96))).all()
assert scope["zarr"].shape == (1000, 4096) and scope["zarr"].dtype.name == "float32"
import duckdb
for query in sql:
    result = duckdb.sql(query).fetchall()
    if "/tmp/tb/nested" in query:
        assert result == [(0, 2.0), (1, 2.0)], result
    else:
        assert len(result) == 2 and len(result[0][1]) == 18, result
# broadcast-tensors: each dataset reads by its own path; the parent, with its datasets.json, reads as none
import pyarrow
import pyarrow.dataset as pads
for input in ("0", "1"):
    assert pads.dataset(f"/tmp/tb/paddle-pair/{input}", format="arrow").to_table().num_rows == 3
try:
    merged = pads.dataset("/tmp/tb/paddle-pair", format="arrow").to_table()
    raise AssertionError(f"the parent of two datasets read as one table of {merged.num_rows} rows")
except pyarrow.ArrowInvalid as e:
    assert "datasets.json" in str(e), e
print("ci: README reader recipes ran: pyarrow, polars, torch, DuckDB, nested rows, datasets, tensorstore (Zarr);"
      " broadcast-tensors' parent reads as no dataset",
      file=sys.stderr)
EOF
