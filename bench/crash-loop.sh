#!/usr/bin/env bash
# Repeats the crash tests on a local process cluster and counts the runs that pass: an executor JVM killed
# mid-job (ClusterExpandIT), a worker JVM killed mid-job (WorkerKillIT), and optionally the driver (DriverKillIT)
# and speculation (SpeculationIT). Not part of CI: each run starts real clusters and takes about a minute per test.
#
#   bench/crash-loop.sh [runs] [tests]
#   bench/crash-loop.sh 5
#   bench/crash-loop.sh 3 'ClusterExpandIT#aKilledExecutor*,WorkerKillIT,DriverKillIT,SpeculationIT'
#
# Each run is a full 'mvn verify' of local-cluster and job (and what they need) restricted to these integration tests (unit tests off),
# so its jars are the ones under test. Logs go to target/crash-loop/run-N.log.
set -euo pipefail

runs="${1:-5}"
tests="${2:-ClusterExpandIT#aKilledExecutor*,WorkerKillIT}"
root="$(cd "$(dirname "$0")/.." && pwd)"
logs="$root/target/crash-loop"
mkdir -p "$logs"

passed=0
for ((run = 1; run <= runs; run++)); do
    log="$logs/run-$run.log"
    start=$(date +%s)
    if (cd "$root" && mvn -B -o verify -pl local-cluster,job -am -Dtest=NONE \
            -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
            -Dit.test="$tests" >"$log" 2>&1); then
        result=passed
        passed=$((passed + 1))
    else
        result=FAILED
    fi
    summary=$(grep -E "Tests run: [0-9]+, Failures" "$log" | tail -1 || true)
    echo "run $run/$runs: $result in $(($(date +%s) - start)) s ($summary) log: $log"
done
echo "crash loop: $passed of $runs runs passed ($tests)"
[[ $passed -eq $runs ]]
