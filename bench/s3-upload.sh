#!/usr/bin/env bash
# Issue 26's upload benchmark, not run by CI: a GIB GiB expand to S3 (`tensor-broadcast expand --output s3a://...`,
# float32 Arrow IPC, uncompressed, so the files hold GIB GiB) against uploading the same bytes (our part files, read
# from the S3 server's own disk) with boto3 (bench/s3_upload.py: upload_file, its managed multipart transfer), to one
# S3Proxy 2.6.0 (filesystem backend) started here on 127.0.0.1, alternating, each a whole process. Prints a TSV line
# per run (the expand's own job seconds too, from its --json) and the ratio of the medians of the whole processes.
# Extra arguments after -- go to expand (say --conf spark.hadoop.fs.s3a.fast.upload.buffer=disk, to compare S3A
# settings).
#
#   bench/s3-upload.sh [--gib 4] [--reps 2] [--master 'local[*]'] [--dir /tmp/tb-s3-upload] [-- EXPAND_ARGS...]
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
gib=4 reps=2 master='local[*]' dir=/tmp/tb-s3-upload
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --gib) gib=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --master) master=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "bench/s3-upload.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
cli="$root/tensor-broadcast"
"$cli" --version >/dev/null # builds once, before anything is timed
# the first Spark run after a build prepares the launcher's class-data sharing archive (a minute): not timed either
"$cli" expand --input "$root/examples/row4096.npy" --dialect numpy --shape 4,4096 --output "$dir.warm" \
    --overwrite >/dev/null 2>&1
rm -rf "$dir.warm"
jar=$(ls "$root"/local-cluster/target/spark-home/s3proxy/s3proxy-*-jar-with-dependencies.jar)

# the S3 server, as local-cluster's S3Server starts it: one bucket, fresh keys, private files
rm -rf "$dir" && mkdir -p "$dir/data/tensor-broadcast" && chmod -R go-rwx "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
key="tb-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')" secret=$(head -c 20 /dev/urandom | od -An -tx1 | tr -d ' \n')
cat >"$dir/s3proxy.properties" <<PROPERTIES
s3proxy.endpoint=http://127.0.0.1:$port
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$key
s3proxy.credential=$secret
jclouds.provider=filesystem
jclouds.filesystem.basedir=$dir/data
PROPERTIES
(umask 077 && exec java -Xmx256m -jar "$jar" --properties "$dir/s3proxy.properties" >"$dir/s3proxy.log" 2>&1) &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; do sleep 0.2; done

conf=(--conf "spark.hadoop.fs.s3a.endpoint=http://127.0.0.1:$port" --conf spark.hadoop.fs.s3a.endpoint.region=us-east-1
    --conf spark.hadoop.fs.s3a.path.style.access=true --conf spark.hadoop.fs.s3a.connection.ssl.enabled=false
    --conf spark.hadoop.fs.s3a.multiobjectdelete.enable=false --conf "spark.hadoop.fs.s3a.access.key=$key"
    --conf "spark.hadoop.fs.s3a.secret.key=$secret")
rows=$((gib * 1024 * 1024 * 1024 / (4096 * 4)))
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ACCESS_KEY_ID="$key" AWS_SECRET_ACCESS_KEY="$secret"
export AWS_REQUEST_CHECKSUM_CALCULATION=when_required AWS_RESPONSE_CHECKSUM_VALIDATION=when_required

now() { date +%s.%N; }
ours=() theirs=()
printf 'run\ttool\tseconds\tjob_seconds\tbytes\n'
for ((rep = 1; rep <= reps; rep++)); do
    rm -rf "$dir/data/tensor-broadcast/ours" "$dir/data/tensor-broadcast/boto3"
    start=$(now)
    "$cli" expand --input "$root/examples/row4096.npy" --dialect numpy --shape "$rows,4096" --format arrow \
        --master "$master" --output s3a://tensor-broadcast/ours --json "${conf[@]}" "${extra[@]}" \
        >"$dir/ours.json" 2>"$dir/ours.err" || { cat "$dir/ours.err" >&2; exit 1; }
    t=$(echo "$(now) - $start" | bc)
    job=$(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["job_seconds"], 2))' "$dir/ours.json")
    bytes=$(du -cb "$dir"/data/tensor-broadcast/ours/part-* | tail -1 | cut -f1)
    ours+=("$t")
    printf '%d\ttensor-broadcast expand\t%.2f\t%s\t%s\n' "$rep" "$t" "$job" "$bytes"
    start=$(now)
    read -r upload bytes < <(python3 "$root/bench/s3_upload.py" tensor-broadcast boto3 \
        "$dir"/data/tensor-broadcast/ours/part-*)
    t=$(echo "$(now) - $start" | bc)
    theirs+=("$t")
    printf '%d\tboto3 upload_file\t%.2f\t%s\t%s\n' "$rep" "$t" "$upload" "$bytes"
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
mo=$(median "${ours[@]}") mt=$(median "${theirs[@]}")
printf 'median\ttensor-broadcast %.2f s, boto3 %.2f s, ratio %.2f\n' "$mo" "$mt" "$(echo "$mo / $mt" | bc -l)"
