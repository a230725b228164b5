#!/usr/bin/env bash
# The full fault soak (issue 40): FaultSoakIT with every engine, store and fault, outside CI. Each run is an
# `expand` in a JVM of its own with one fault (SIGKILL/SIGINT/SIGTERM of the command line, SIGKILL of the S3 server
# or of an executor, a task that fails before its commit, a full disk) injected at a point of the write; the oracle checks what
# the output holds (see docs/reliability.md, "The fault soak"). `mvn verify` runs a 30-run slice of it.
#
#   bench/soak.sh [runs] [--minutes M] [--seed S] [--engines embedded,local_spark,cluster]
#                 [--stores local,s3,hdfs] [--faults all|driver_kill,...,disk_full]
#   bench/soak.sh 500
#   bench/soak.sh 1 --run SEED ...      # one run again, with the engines, stores and faults it was drawn from
#
# Runs niced (the machine is shared) and in the foreground: a script's background job has SIGINT ignored, which
# its children inherit, and the soak then leaves SIGINT out (it says so in the report). The report, a Markdown table,
# is printed and written to job/target/soak/report.md; the log of the Maven run to target/soak.log. To run it in the
# background with SIGINT heard, start it with SIGINT set back to its default, as setsid alone does not:
#   setsid nohup python3 -c 'import os,signal,sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' bench/soak.sh 500 >soak.out 2>&1 &
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
runs=500 minutes=0 seed=20261128 run=
engines=embedded,local_spark,cluster stores=local,s3,hdfs faults=all
[[ ${1:-} =~ ^[0-9]+$ ]] && { runs=$1; shift; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --minutes) minutes=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --run) run=$2; shift 2 ;;
        --engines) engines=$2; shift 2 ;;
        --stores) stores=$2; shift 2 ;;
        --faults) faults=$2; shift 2 ;;
        -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "bench/soak.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
mkdir -p "$root/target"
log="$root/target/soak.log"
args=(-B -o -pl job -am verify -Dit.test=FaultSoakIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
    -Dfailsafe.failIfNoSpecifiedTests=false -Dsoak.runs="$runs" -Dsoak.seed="$seed" -Dsoak.minutes="$minutes"
    -Dsoak.engines="$engines" -Dsoak.stores="$stores" -Dsoak.faults="$faults"
    -Dsoak.report="$root/job/target/soak/report.md")
[[ -n $run ]] && args+=(-Dsoak.run="$run")
echo "mvn ${args[*]}" >&2
code=0
(cd "$root" && nice -n 10 mvn "${args[@]}") >"$log" 2>&1 || code=$?
grep -E '^soak run ' "$log" >&2 || true
if [[ -f $root/job/target/soak/report.md ]]; then
    cat "$root/job/target/soak/report.md"
else
    tail -n 40 "$log" >&2
fi
exit $code
