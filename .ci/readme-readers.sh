#!/usr/bin/env bash
# Runs every command of the README's console blocks, then the guide's "Reading the output" recipes (pyarrow, polars,
# DuckDB, torch, datasets, tensorstore; docs/reading.md) on the outputs of the guide's own commands, and checks what
# they read. Called by .ci/run after the tests. The README's commands need nothing but the build; the recipes skip,
# saying why, where the readers cannot be installed (this needs no network when a local wheel index is configured for
# pip).
set -euo pipefail
cd "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.."
root=$PWD

work=$(mktemp -d)
cluster=
readme_cluster=
stop_cluster() {
    if [[ -n $readme_cluster ]]; then
        TENSOR_BROADCAST_STATE="$work/readme-state" ./tensor-broadcast cluster stop >/dev/null 2>&1 \
            || kill "$readme_cluster" || true
        wait "$readme_cluster" 2>/dev/null || true
    fi
    if [[ -n $cluster ]]; then
        TENSOR_BROADCAST_STATE="$work/state" ./tensor-broadcast cluster stop >/dev/null 2>&1 || kill "$cluster" || true
        wait "$cluster" 2>/dev/null || true
    fi
}
readme_outputs="/tmp/tb/numpy /tmp/tb/paddle-pair /tmp/tb/numpy-grad.npy /tmp/tb/pair0.npy /tmp/tb/cluster"
guide_outputs="/tmp/tb/numpy /tmp/tb/onnx /tmp/tb/nested /tmp/tb/paddle-pair /tmp/tb/zarr /tmp/tb/zarr-grad"
trap 'stop_cluster; rm -rf "$work" $readme_outputs $guide_outputs' EXIT

# The README's console blocks, in order, as a reader types them: each "$ " line (with its continuation lines) runs
# from the project's root. It must exit 0, or 2 where the README shows a refusal (an output starting "Cannot ");
# what `plan` prints is compared line for line (the other commands print times). `mvn -B verify` is .ci/run's own
# build step; `demo` runs in a directory of its own (it writes under the temporary directory); `cluster start` runs in
# the background, as the README runs it in a terminal of its own, until the README's `cluster stop`.
run_readme_command() {
    local command=$1 expected=$2 out status want=0
    [[ $expected == Cannot\ * ]] && want=2
    case $command in
        "mvn -B verify") echo "ci: README: $command (the build step of .ci/run)" >&2; return ;;
        "./tensor-broadcast demo"*)
            mkdir -p "$work/demo"
            command="cd '$work/demo' && '$root/tensor-broadcast'${command#./tensor-broadcast}" ;;
        "./tensor-broadcast cluster start"*)
            echo "ci: README: $command" >&2
            TENSOR_BROADCAST_STATE="$work/readme-state" eval "$command" >"$work/readme-cluster.log" 2>&1 &
            readme_cluster=$!
            for _ in $(seq 900); do
                grep -q '^run a job with' "$work/readme-cluster.log" 2>/dev/null && return
                kill -0 "$readme_cluster" 2>/dev/null || break
                sleep 0.2
            done
            cat "$work/readme-cluster.log" >&2; echo "ci: README: $command did not start" >&2; exit 1 ;;
    esac
    echo "ci: README: $command" >&2
    status=0
    out=$(cd "$root" && TENSOR_BROADCAST_STATE="$work/readme-state" eval "$command" 2>&1) || status=$?
    # the launcher's notice on the first run of a build is not the command's output
    out=$(printf '%s\n' "$out" | grep -v '^preparing the class-data sharing archive' || true)
    if [[ $status != "$want" ]]; then
        printf '%s\n' "$out" >&2; echo "ci: README: exit $status, the README shows exit $want: $command" >&2; exit 1
    fi
    if [[ $command == "./tensor-broadcast plan "* && $out != "$expected" ]]; then
        diff <(printf '%s\n' "$expected") <(printf '%s\n' "$out") >&2 || true
        echo "ci: README: the output differs from the README's: $command" >&2; exit 1
    fi
    if [[ $command == "./tensor-broadcast cluster stop"* && -n $readme_cluster ]]; then
        # cluster start ends on the signal cluster stop sends it; what says the cluster stopped is stop's own line
        wait "$readme_cluster" || true
        [[ $out == "stopped the local cluster at "* ]] || { echo "ci: README: cluster stop said: $out" >&2; exit 1; }
        readme_cluster=
    fi
}
rm -rf $readme_outputs
commands=0
{
    awk '/^```console$/ { block = 1; next }
         block && /^```$/ { block = 0; print "END"; next }
         !block { next }
         more { text = text " " $0; sub(/^ +/, "", $0) }
         !more && /^\$ / { text = substr($0, 3) }
         !more && !/^\$ / { print "OUT " $0; next }
         { more = sub(/ *\\$/, "", text); if (!more) { print "CMD " text } }' README.md
} >"$work/readme-console.txt"
command= expected=
while IFS= read -r record; do
    case $record in
        "CMD "*|END)
            if [[ -n $command ]]; then run_readme_command "$command" "$expected"; commands=$((commands + 1)); fi
            command= expected=
            [[ $record == "CMD "* ]] && command=${record#CMD } ;;
        "OUT "*) expected+=${expected:+$'\n'}${record#OUT } ;;
    esac
done <"$work/readme-console.txt"
[[ $commands -ge 10 ]] || { echo "ci: README: only $commands console commands found" >&2; exit 1; }
echo "ci: README console blocks ran: $commands commands" >&2

readers="pyarrow polars duckdb torch datasets tensorstore"
if ! python3 -c "import pyarrow, polars, duckdb, torch, datasets, tensorstore" 2>/dev/null; then
    index=()
    [[ -d /opt/pypi/simple ]] && index+=(--index-url file:///opt/pypi/simple)
    [[ -d /opt/pypi-more/simple ]] && index+=(--extra-index-url file:///opt/pypi-more/simple)
    if ! python3 -m pip install -q ${index[@]+"${index[@]}"} $readers >target/readme-readers-pip.log 2>&1; then
        echo "ci: the guide's reader recipes skipped: cannot install $readers (target/readme-readers-pip.log)" >&2
        exit 0
    fi
fi

rm -rf $guide_outputs
# the guide's own commands for the outputs the recipes read, as they are written there
for output in $guide_outputs; do
    # every match read to the end (sed prints the first): a reader that stops early would SIGPIPE the writer
    command=$(grep -h -E "^\\$ \\./tensor-broadcast (expand|broadcast-tensors|reduce) .*--output $output( |$)" \
        README.md docs/*.md | sed -n '1s/^\$ //p')
    [[ -n $command ]] || { echo "ci: the guide has no command writing $output" >&2; exit 1; }
    echo "ci: $command" >&2
    # stderr kept: its last line says how to read the output, and the readers' plain calls below run what it says
    eval "$command" >/dev/null 2>"$work/$(basename "$output").err" || { cat "$work/$(basename "$output").err" >&2; exit 1; }
    cat "$work/$(basename "$output").err" >&2
done

# the S3 recipe on docs/storage.md's S3 command: 'cluster start --s3' as that page starts it (one small worker), its
# expand to s3a:// with the endpoint, key and secret file it printed in place of PORT, KEY, SECRET_FILE
TENSOR_BROADCAST_STATE="$work/state" ./tensor-broadcast cluster start --workers 1 --worker-memory 1g --s3 \
    >"$work/cluster.log" 2>&1 &
cluster=$!
for _ in $(seq 600); do
    grep -q '^run a job with' "$work/cluster.log" 2>/dev/null && break
    kill -0 "$cluster" 2>/dev/null || { cat "$work/cluster.log" >&2; echo "ci: cluster start --s3 failed" >&2; exit 1; }
    sleep 0.2
done
grep -q '^run a job with' "$work/cluster.log" || { cat "$work/cluster.log" >&2; echo "ci: cluster start --s3 timed out" >&2; exit 1; }
endpoint=$(sed -n 's/^s3 endpoint: //p' "$work/cluster.log")
s3_key=$(sed -n 's/.*spark\.hadoop\.fs\.s3a\.access\.key=\([^ ]*\).*/\1/p' "$work/cluster.log")
secret_file=$(sed -n 's/^s3 settings: (secret key in \(.*\))$/\1/p' "$work/cluster.log")
[[ -n $endpoint && -n $s3_key && -f $secret_file ]] || { cat "$work/cluster.log" >&2; echo "ci: cluster start --s3 printed no S3 settings" >&2; exit 1; }
# docs/storage.md's multi-line expand to s3a://, its continuation lines joined
command=$(awk '/^\$ \.\/tensor-broadcast expand / { take = 1; text = "" }
    take { line = $0; sub(/^\$ /, "", line); more = sub(/\\$/, "", line); text = text line
           if (!more) { take = 0; if (text ~ /--output s3a:\/\//) { print text; exit } } }' docs/storage.md)
[[ -n $command ]] || { echo "ci: docs/storage.md has no expand to s3a://" >&2; exit 1; }
command=$(printf '%s' "$command" | sed -e "s|http://127.0.0.1:PORT|$endpoint|" -e "s|access.key=KEY|access.key=$s3_key|" \
    -e "s|SECRET_FILE|$secret_file|")
echo "ci: $command" | sed 's/secret\.key=[^ ]*/secret.key=.../' >&2
eval "$command" >/dev/null
# the S3 defaults: while the cluster runs, s3a:// paths of its bucket need no --conf; the line the write prints reads
# it, with the environment 'cluster start --s3' prints for the AWS CLI, boto3 and pyarrow
TENSOR_BROADCAST_STATE="$work/state" ./tensor-broadcast expand --input examples/row4096.npy --dialect numpy \
    --shape 1000,4096 --output s3a://tensor-broadcast/no-conf >/dev/null 2>"$work/no-conf.err" \
    || { cat "$work/no-conf.err" >&2; echo "ci: expand to s3a:// with no --conf failed" >&2; exit 1; }
ready=$(sed -n 's/^    export \(AWS_ENDPOINT_URL=.*\)$/\1/p' "$work/cluster.log")
[[ -n $ready ]] || { cat "$work/cluster.log" >&2; echo "ci: cluster start --s3 printed no export line" >&2; exit 1; }
(eval "export $ready" && python3 - "$work/no-conf.err" <<'EOF_S3'
import re, sys
line = open(sys.argv[1]).read().splitlines()[-1]
call = re.match(r"to read it: (pyarrow\.dataset\.dataset\('[^']*', format='arrow'\))", line).group(1)
import pyarrow.dataset
table = eval(call).to_table()
assert table.num_rows == 1000, table.num_rows
print("ci: s3a:// with no --conf, read back by the line it printed:", call, file=sys.stderr)
EOF_S3
) || { echo "ci: the S3 output written with no --conf did not read back" >&2; exit 1; }

# examples/python/read_s3.py, which docs/reading.md names, reads the same dataset
read_s3=$(python3 examples/python/read_s3.py "$endpoint" "$s3_key" "$secret_file" tensor-broadcast/numpy)
[[ $read_s3 == "(1000, 4096) "* ]] || { echo "ci: examples/python/read_s3.py read $read_s3" >&2; exit 1; }

# every python block of the section, in order (the S3 one on its own, on the server above), then SQL blocks through
# DuckDB's Python API
python3 - "$work" "$endpoint" "$s3_key" "$secret_file" <<'EOF'
import re, sys
section = open("docs/reading.md", encoding="utf-8").read()
blocks = re.findall(r"```python\n(.*?)```", section, re.S)
python = "\n".join(block for block in blocks if "S3FileSystem" not in block)
s3_blocks = [block for block in blocks if "S3FileSystem" in block]
sql = re.findall(r"```sql\n(.*?)```", section, re.S)
scope = {}
exec(compile(python, "docs/reading.md", "exec"), scope)
# the S3 recipe, its placeholders the server's
endpoint, s3_key, secret_file = sys.argv[2:5]
assert len(s3_blocks) == 1, len(s3_blocks)
s3_recipe = s3_blocks[0].replace("http://127.0.0.1:PORT", endpoint)
s3_recipe = re.sub(r"\bKEY\b", repr(s3_key), s3_recipe)
s3_recipe = re.sub(r"\bSECRET_FILE\b", repr(secret_file), s3_recipe)
s3_scope = {}
exec(compile(s3_recipe, "docs/reading.md (S3)", "exec"), s3_scope)
assert s3_scope["array"].shape == (1000, 4096), s3_scope["array"].shape
assert (s3_scope["array"] == scope["array"]).all()
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
# reduce's Zarr result (docs/zarr.md's reduce of that array, read as its input): the row summed 1000 times
assert scope["summed"].shape == (1, 4096) and scope["summed"].dtype.name == "float32", scope["summed"].shape
assert (scope["summed"] == row * 1000).all()
assert tuple(scope["labels"]) == ("row", "col"), scope["labels"]
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
# the readers' plain calls, as the line after each write names them (the directory itself also holds _manifest.json
# and _SUCCESS, which only pyarrow skips): pyarrow on the directory, polars, DuckDB and (nested rows) datasets on the
# files' glob
import os, pathlib
os.environ.setdefault("POLARS_UNKNOWN_EXTENSION_TYPE_BEHAVIOR", "load_as_storage")
import datasets, polars, pyarrow.dataset, pyarrow.parquet
work = pathlib.Path(sys.argv[1])
checked = []
for name, rows in (("numpy", 1000), ("onnx", 2), ("nested", 2)):
    line = (work / (name + ".err")).read_text().splitlines()[-1]
    if line.startswith("to read it: pyarrow.dataset.dataset("):
        directory, files = re.match(r"to read it: pyarrow\.dataset\.dataset\('([^']*)', format='arrow'\), or"
                                    r" polars\.scan_ipc\('([^']*)'\) \(", line).groups()
        assert pyarrow.dataset.dataset(directory, format="arrow").to_table().num_rows == rows, line
        assert polars.scan_ipc(files).collect().height == rows, line
        checked.append(name + ": pyarrow, polars")
    else:
        directory, files, readers = re.match(r"to read it: pyarrow\.parquet\.read_table\('([^']*)'\), or '([^']*)'"
                                             r" in (.*) \(the directory", line).groups()
        assert pyarrow.parquet.read_table(directory).num_rows == rows, line
        assert polars.read_parquet(files).height == rows, line
        assert len(duckdb.sql(f"SELECT * FROM read_parquet('{files}')").fetchall()) == rows, line
        if "Hugging Face datasets" in readers:
            hf = datasets.load_dataset("parquet", data_files=files, split="train")
            assert len(hf) == rows, line
            assert numpy.asarray(hf.with_format("numpy")["tensor"]).shape == (2, 3, 6)
        else:
            assert name == "onnx", line   # flat rows: datasets has no feature for arrow.fixed_shape_tensor
        checked.append(name + ": pyarrow, polars, DuckDB" + (", datasets" if "Hugging Face" in readers else ""))
print("ci: the readers' plain calls each write names ran:", "; ".join(checked), file=sys.stderr)
print("ci: the guide's reader recipes ran: pyarrow (local and S3), polars, torch, DuckDB, nested rows, datasets,"
      " tensorstore (Zarr);"
      " broadcast-tensors' parent reads as no dataset",
      file=sys.stderr)
EOF
