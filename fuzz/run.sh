#!/usr/bin/env bash
# Runs coverage-guided fuzzing campaigns (Jazzer) against the parsers that take outside bytes, one target at a time.
#
#   fuzz/run.sh [--duration 10m] [target...]      targets: npy arrow parquet shape axes manifest (default: all)
#
# Each target is a @FuzzTest that `mvn verify` runs in regression mode over its committed inputs
# (src/test/resources/<package>/<Class>Inputs/<method>/). Here it runs in fuzzing mode: Jazzer grows a corpus in
# <module>/.cifuzz-corpus/ (not committed) and writes any crashing input into the committed inputs directory, where it
# becomes a regression test once the bug is fixed. The log of each campaign is kept in target/fuzz/<target>.log; the
# line printed per target gives executions, coverage and whether a finding stopped the campaign. A finding also
# writes slow-unit-* inputs (a unit slower than 10 s): treat them as findings too.
set -euo pipefail

cd "$(dirname "$0")/.."
duration=10m
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(npy arrow parquet shape axes manifest)

# target -> module and test class#method
declare -A module=(
  [npy]=arrow-io [arrow]=arrow-io [parquet]=arrow-io [shape]=planner [axes]=job [manifest]=job)
declare -A test=(
  [npy]='NpyReaderFuzzTest#readsOrRefusesCleanly'
  [arrow]='ArrowSourceReaderFuzzTest#readsOrRefusesCleanly'
  [parquet]='ParquetSourceFuzzTest#readsOrRefusesCleanly'
  [shape]='ShapeParsingFuzzTest#parsesOrRefusesCleanly'
  [axes]='CliArgumentsFuzzTest#parsesOrRefusesCleanly'
  [manifest]='ManifestJsonFuzzTest#readsOrRefusesCleanly')

mkdir -p target/fuzz
status=0
for target in "${targets[@]}"; do
  if [[ -z "${module[$target]:-}" ]]; then
    echo "unknown target '$target'; expected: ${!module[*]}" >&2
    exit 2
  fi
  log="target/fuzz/$target.log"
  echo "fuzzing $target (${test[$target]} in ${module[$target]}) for $duration; log: $log"
  # -Xmx bounds the fuzzing JVM: the readers' own heap limit is 1 GiB, anything beyond it is a finding
  JAZZER_FUZZ=1 JAZZER_MAX_DURATION="$duration" JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:--Xmx3g}" \
      mvn -B -o -pl "${module[$target]}" -am test -Dtest="${test[$target]}" -Dsurefire.failIfNoSpecifiedTests=false \
      -Djazzer.hooks=true \
      >"$log" 2>&1 || true
  # judged by the test results, not Maven's exit code: on a loaded machine surefire may time out waiting for the
  # fork to exit after a clean campaign
  if grep -aq 'Test unit written to' "$log"; then
    result="FINDING: $(grep -a 'Test unit written to' "$log" | sed 's/.*Test unit written to //' | tr '\n' ' ')"
    status=1
  elif grep -aqE 'Tests run: [0-9]+, Failures: 0, Errors: 0, Skipped: 0, Time elapsed' "$log"; then
    result=clean
  else
    result="FAILED to run (see $log)"
    status=1
  fi
  summary=$(grep -aE '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -1 || true)
  echo "$target: $result; last status: ${summary:-none}"
done
exit $status
