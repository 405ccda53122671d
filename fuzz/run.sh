#!/bin/sh
# Builds the libFuzzer targets (make fuzz) and runs each for SECONDS (default
# 30), one after the other, one process at a time. Fails if any target finds
# a crash, a sanitizer error, a broken invariant, a hang or a leak.
#
#   fuzz/run.sh [SECONDS] [TARGET ...]     e.g. fuzz/run.sh 600 fen san
#
# SECONDS = 0 only replays the committed seeds and the saved corpus (a quick
# regression check: every reproducer of a fixed bug is among the seeds).
#
# Each target starts from its committed seeds in fuzz/corpus/<target>/ and
# keeps what it discovers in build/fuzz/corpus/<target>/ (not committed), so
# later runs continue from there. A failing input is saved as
# build/fuzz/artifacts/<target>/crash-* (or leak-*, timeout-*, oom-*);
# replay it with build/fuzz/fuzz_<target> FILE. Extra libFuzzer flags can be
# passed in FUZZ_FLAGS.
set -u
cd "$(dirname "$0")/.." || exit 2

seconds=${1:-30}
case "$seconds" in
    '' | *[!0-9]*) echo "usage: fuzz/run.sh [SECONDS] [TARGET ...]" >&2; exit 2 ;;
esac
[ $# -gt 0 ] && shift

make -s -j2 fuzz || { echo "fuzz: build failed" >&2; exit 2; }
# Stack traces for UBSan reports too (ASan prints them by default).
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

if [ $# -gt 0 ]; then
    targets="$*"
else
    targets=$(for f in fuzz/fuzz_*.c; do n=${f#fuzz/fuzz_}; echo "${n%.c}"; done)
fi

status=0
summary=""
ok=0
bad=0
for t in $targets; do
    bin=build/fuzz/fuzz_$t
    if [ ! -x "$bin" ]; then
        echo "fuzz: no target '$t' ($bin)" >&2
        status=1
        bad=$((bad + 1))
        continue
    fi
    work=build/fuzz/corpus/$t
    artifacts=build/fuzz/artifacts/$t
    seeds=fuzz/corpus/$t
    mkdir -p "$work" "$artifacts" "$seeds"
    log=build/fuzz/$t.log
    # Texts (PGN, UCI sessions, EPD and training files, engine transcripts) need longer inputs
    # than FENs, SAN or command lines.
    case "$t" in
        pgn | uci | epd | book | syzygy | dataset | tunerinput | matchreply) maxlen=16384 ;;
        *) maxlen=4096 ;;
    esac
    if [ "$seconds" -eq 0 ]; then
        limit="-runs=0"
        echo "== fuzz_$t: replaying $seeds and $work"
    else
        limit="-max_total_time=$seconds"
        echo "== fuzz_$t for ${seconds}s"
    fi
    # shellcheck disable=SC2086
    "$bin" "$limit" -timeout=20 -rss_limit_mb=2048 -max_len="$maxlen" \
        -print_final_stats=1 -artifact_prefix="$artifacts/" ${FUZZ_FLAGS:-} "$work" "$seeds" >"$log" 2>&1
    rc=$?
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    cov=$(grep -E '^#[0-9]+.*cov:' "$log" | tail -n 1 | sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+).*corp: ([0-9]+).*/cov \1, features \2, corpus \3/')
    if [ "$rc" -ne 0 ]; then
        status=1
        bad=$((bad + 1))
        echo "fuzz_$t: FAILED (exit $rc) after ${runs:-?} runs; log $log"
        grep -E -A40 'ERROR: |runtime error|fuzz invariant broken|deadly signal|Test unit written' "$log" | head -n 80
        ls -l "$artifacts"
        summary="$summary
fuzz_$t: FAILED, ${runs:-?} runs"
    else
        ok=$((ok + 1))
        echo "fuzz_$t: ok, ${runs:-?} runs, $cov"
        summary="$summary
fuzz_$t: ok, ${runs:-?} runs"
    fi
done
echo "== summary$summary"
# One target = one check, in the test suite's closing-line format (.ci/run sums these).
echo "$ok passed, $bad failed"
exit $status
