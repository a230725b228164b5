#!/usr/bin/env bash
# Runs the README's "Reading the output" recipes (pyarrow, polars, DuckDB, torch) on the outputs of the README's own
# commands, and checks what they read. Called by .ci/run after the tests; skips, saying why, where the readers cannot
# be installed (this needs no network when a local wheel index is configured for pip).
set -euo pipefail
cd "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.."

readers="pyarrow polars duckdb torch"
if ! python3 -c "import pyarrow, polars, duckdb, torch" 2>/dev/null; then
    index=()
    [[ -d /opt/pypi/simple ]] && index+=(--index-url file:///opt/pypi/simple)
    [[ -d /opt/pypi-more/simple ]] && index+=(--extra-index-url file:///opt/pypi-more/simple)
    if ! python3 -m pip install -q ${index[@]+"${index[@]}"} $readers >target/readme-readers-pip.log 2>&1; then
        echo "ci: README reader recipes skipped: cannot install $readers (target/readme-readers-pip.log)" >&2
        exit 0
    fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work" /tmp/tb/numpy /tmp/tb/onnx' EXIT
rm -rf /tmp/tb/numpy /tmp/tb/onnx
# the README's own commands for the two outputs the recipes read, as they are written there
for output in /tmp/tb/numpy /tmp/tb/onnx; do
    command=$(grep -m1 -E "^\\$ \\./tensor-broadcast expand .*--output $output( |$)" README.md | sed 's/^\$ //')
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
import duckdb
for query in sql:
    result = duckdb.sql(query).fetchall()
    assert len(result) == 2 and len(result[0][1]) == 18, result
print("ci: README reader recipes ran: pyarrow, polars, torch, DuckDB", file=sys.stderr)
EOF
