#!/bin/sh
# Gizum's Syzygy prober against Debian's fathom, an independent prober, on
# random legal positions of every table in the shared folder (both colour
# orientations and sides to move, en passant, fifty-move counters) and on
# the hand-picked hard cases of tests/data/syzygy_hard.txt: WDL, DTZ and
# the winning / drawing / losing root moves must all agree
# (tests/tb_oracle.c compares them).
#
# Environment: TESTBIN (test programs, from make test), SYZYGY_PATH (default
# ../shared/syzygy beside the repository), FATHOM (default /usr/games/fathom),
# TB_ORACLE_PER_TABLE (positions per table, default 60; measure/tb_oracle.sh
# runs 1000), TB_ORACLE_SEED. Missing fathom or tables: a skip, but a
# failure when CI=true.
set -u
: "${TESTBIN:?TESTBIN must name the test program folder}"
root=$(cd "$(dirname "$0")/.." && pwd)
tables=${SYZYGY_PATH:-$root/../shared/syzygy}
fathom=${FATHOM:-/usr/games/fathom}
# Sanitizer runs (GIZUM_TEST_QUICK) sample fewer: fathom's process per position dominates.
if [ -n "${GIZUM_TEST_QUICK:-}" ]; then per=${TB_ORACLE_PER_TABLE:-10}; else per=${TB_ORACLE_PER_TABLE:-60}; fi
seed=${TB_ORACLE_SEED:-1}

missing=""
[ -x "$fathom" ] || missing="fathom ($fathom; apt-get install fathom)"
ls "$tables"/*.rtbw >/dev/null 2>&1 || missing="${missing:+$missing and }Syzygy tables ($tables)"
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL test_syzygy_oracle.sh: missing $missing"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "SKIP: test_syzygy_oracle.sh: Gizum's prober against fathom: missing $missing"
    echo "0 passed, 0 failed"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gizum-tb-oracle.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$TESTBIN/tb_oracle" sample "$tables" "$per" "$seed" > "$tmp/positions" || {
    echo "FAIL test_syzygy_oracle.sh: sampling failed"; echo "0 passed, 1 failed"; exit 1; }
grep -v '^#' "$root/tests/data/syzygy_hard.txt" | grep '|' >> "$tmp/positions"

# Two fathom loops at once (one process per position: fathom reads one FEN).
lines=$(wc -l < "$tmp/positions")
half=$(( (lines + 1) / 2 ))
split -l "$half" "$tmp/positions" "$tmp/part."
for part in "$tmp"/part.*; do
    while IFS= read -r line; do
        echo "### $line"
        "$fathom" --path="$tables" "${line#*|}" 2>&1
    done < "$part" > "$part.out" &
done
wait
cat "$tmp"/part.*.out > "$tmp/fathom"

"$TESTBIN/tb_oracle" check "$tables" "$tmp/fathom"
