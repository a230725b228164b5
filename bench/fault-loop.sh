#!/usr/bin/env bash
# Repeats the faults a user meets on one machine (issue 15) and checks, after each, that the output is in a state
# `verify` judges truthfully: two `expand` runs on one output started 0.2-0.5 s apart (with --overwrite), and
# Ctrl-C (SIGINT) 1-4 s after it starts (in the JVM's start-up or mid-job). Prints one line per run and a Markdown summary. Not part of CI.
#
#   bench/fault-loop.sh [runs] [--size 3g] [--dir /tmp/tb-faults]
#
# Truthful means: a run that exited 0 left a dataset `verify --source` passes; an interrupted run exited with the
# signal's code (130), printed one line saying so (none when the signal came before the JVM ran our code), and left
# either nothing, or a dataset that `verify` calls incomplete (exit 1) and that
# `expand --overwrite` then replaces with one that passes; a refused writer exited 2 and touched nothing.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
runs=10 size=3g dir=/tmp/tb-faults
[[ ${1:-} =~ ^[0-9]+$ ]] && { runs=$1; shift; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --size) size=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "bench/fault-loop.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
    esac
done
rows=$(( ${size%[gG]} << 16 ))
tb="$root/tensor-broadcast"
rm -rf "$dir"; mkdir -p "$dir"
python3 -c "import numpy as np; np.save('$dir/row.npy', np.arange(4096, dtype=np.float32).reshape(1, 4096))"
expand=(expand --input "$dir/row.npy" --dialect numpy --shape "$rows,4096" --output "$dir/out")
# builds once, outside the loop
"$tb" expand --input "$dir/row.npy" --dialect numpy --shape 4,4096 --format null >/dev/null 2>&1

verify_code() { local code=0; "$tb" verify "$dir/out" --source "$dir/row.npy" >>"$dir/log.txt" 2>&1 || code=$?; echo $code; }

concurrent_ok=0 interrupt_ok=0
declare -A seen
for ((run = 1; run <= runs; run++)); do
    # two writers
    rm -rf "$dir/out"
    delay=$(python3 -c "import random; print(round(random.uniform(0.2, 0.5), 2))")
    "$tb" "${expand[@]}" --overwrite >"$dir/a.txt" 2>&1 & a=$!
    sleep "$delay"
    "$tb" "${expand[@]}" --overwrite >"$dir/b.txt" 2>&1 & b=$!
    code_a=0; wait $a || code_a=$?
    code_b=0; wait $b || code_b=$?
    v=$(verify_code)
    verdict=FALSE
    if { [[ $code_a == 0 && $code_b == 2 ]] || [[ $code_a == 2 && $code_b == 0 ]]; } && [[ $v == 0 ]]; then
        verdict=truthful; concurrent_ok=$((concurrent_ok + 1))
    fi
    refused=$(grep -h -m1 'is writing it' "$dir/a.txt" "$dir/b.txt" | head -1 | cut -c1-100 || true)
    echo "run $run two writers ${delay}s apart: exits $code_a/$code_b, verify $v: $verdict ${refused:+($refused)}"
    seen["writers $code_a/$code_b verify $v"]=$(( ${seen["writers $code_a/$code_b verify $v"]:-0} + 1 ))

    # Ctrl-C
    rm -rf "$dir/out"
    delay=$(python3 -c "import random; print(round(random.uniform(1, 4), 2))")
    # with job control on, the background run keeps SIGINT (a shell without it starts background jobs ignoring it)
    set -m
    "$tb" "${expand[@]}" >"$dir/c.txt" 2>&1 & c=$!
    set +m
    sleep "$delay"
    kill -INT $c 2>/dev/null || true
    code_c=0; wait $c || code_c=$?
    lines=$(grep -c . "$dir/c.txt" || true)
    last=$(tail -n 1 "$dir/c.txt")
    state=nothing; v=-; again=-
    if [[ -e $dir/out ]]; then
        v=$(verify_code)
        state="left $(ls -A "$dir/out" | sed 's/part-[0-9]*/part-N/' | sort | uniq -c | tr -s ' \n' ' ')"
        again=0; "$tb" "${expand[@]}" --overwrite >>"$dir/log.txt" 2>&1 || again=$?
        [[ $again == 0 ]] && again=$(verify_code)
    fi
    verdict=FALSE
    # the "writing ..." line, then one line saying it was interrupted, nothing else; or, when the signal came
    # before the JVM ran our code, the JVM's own silent exit with the signal's code
    if [[ $code_c == 130 ]] && { [[ $lines -le 2 && $last == interrupted:* ]] || [[ $lines == 0 ]]; } && { [[ $v == - ]] || [[ $v == 1 && $again == 0 ]]; }; then
        verdict=truthful; interrupt_ok=$((interrupt_ok + 1))
    elif [[ $v == 0 ]] && grep -q '^wrote ' "$dir/c.txt" && [[ $code_c == 0 || $code_c == 130 ]]; then
        # the job committed and said so before the signal (130: it came after the result line)
        verdict="truthful (finished before the signal)"; interrupt_ok=$((interrupt_ok + 1))
    fi
    echo "run $run Ctrl-C at ${delay}s: exit $code_c, $lines line(s) (last: ${last:0:90}), $state, verify $v, rerun+verify $again: $verdict"
    seen["ctrl-c exit $code_c verify $v"]=$(( ${seen["ctrl-c exit $code_c verify $v"]:-0} + 1 ))
done
rm -rf "$dir/out"
echo
echo "| case | runs | judged truthfully |"
echo "|---|---:|---:|"
echo "| two writers, 0.2-0.5 s apart, --overwrite | $runs | $concurrent_ok |"
echo "| Ctrl-C 1-4 s after the start | $runs | $interrupt_ok |"
echo
for key in "${!seen[@]}"; do echo "- $key: ${seen[$key]}"; done | sort
[[ $concurrent_ok == "$runs" && $interrupt_ok == "$runs" ]]
