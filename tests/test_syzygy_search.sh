#!/bin/sh
# Syzygy tables in the search, seen through UCI: the score of a node the
# tables call won must not fall back to the evaluation when the search
# finds nothing better, `go searchmoves` at a tablebase root searches the
# moves it was given even when none of them keeps the result, and a
# tablebase root reports its probes and its known result.
#
# Environment: GIZUM (the engine), SYZYGY_PATH (default ../shared/syzygy
# beside the repository). Missing tables: a skip, but a failure when CI=true.
set -u
: "${GIZUM:?}"
root=$(cd "$(dirname "$0")/.." && pwd)
tables=${SYZYGY_PATH:-$root/../shared/syzygy}
for t in KRPvKR KQvK; do
    if [ ! -r "$tables/$t.rtbw" ] || [ ! -r "$tables/$t.rtbz" ]; then
        if [ "${CI:-}" = true ]; then
            echo "FAIL test_syzygy_search.sh: missing Syzygy table $t in $tables"
            echo "0 passed, 1 failed"
            exit 1
        fi
        echo "SKIP test_syzygy_search.sh: missing Syzygy table $t in $tables"
        echo "0 passed, 0 failed"
        exit 0
    fi
done
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gizum-tb-search.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# One UCI session per position: tables, position, then the given go command.
search() { "$GIZUM" "setoption name SyzygyPath value $tables" "position fen $1" "$2" > "$tmp/out" 2>&1; }
# The score of each completed iteration from depth 2 on (bounds are aspiration
# fails, not results; depth 1 ends in quiescence below the root, where nothing is probed).
exact_scores() {
    grep '^info depth' "$tmp/out" | grep -v -e '^info depth 1 ' -e lowerbound -e upperbound |
        sed 's/.* score \([a-z]* -*[0-9]*\).*/\1/'
}

# Black's only move Rxf7 leaves KRPvKR that White wins (DTZ 15). The node
# after it is a PV node whose tablebase win is a lower bound: the moves
# searched below it score far less (no probes there: no zeroing move), and
# that must not replace the known win.
search "5r1k/5N2/1P5K/8/8/8/8/6R1 b - - 0 1" "go depth 8"
bad=$(exact_scores | awk '$1 == "cp" && $2 > -19000' | head -n 1)
[ -z "$bad" ] && [ -n "$(exact_scores)" ]
check $? "a forced capture into a lost KRPvKR is scored as a tablebase loss at every depth (got '$bad')"

# KQvK, White wins; Qe4+ loses the queen to Kxe4 (a draw). With searchmoves
# only the given moves may be played: the best of them, with its own result.
kqk="8/8/8/3k4/8/8/8/KQ6 w - - 0 1"
search "$kqk" "go depth 6 searchmoves b1e4"
grep -q '^bestmove b1e4' "$tmp/out" && exact_scores | tail -n 1 | grep -qx 'cp 0'
check $? "searchmoves with only a drawing move at a won root: plays it, scored as a draw ($(grep '^bestmove' "$tmp/out"))"
search "$kqk" "go depth 6 searchmoves b1e4 b1b3"
grep -q '^bestmove b1b3' "$tmp/out" && exact_scores | tail -n 1 | grep -qx 'cp 20000'
check $? "searchmoves with a drawing and a winning move: the winning one, scored as a win ($(grep '^bestmove' "$tmp/out"))"

# The root's own probes count as tbhits, and its known result is the score.
search "$kqk" "go depth 6"
grep '^info depth 6 ' "$tmp/out" | grep -v bound | tail -n 1 | grep -q 'score cp 20000 .* tbhits [1-9]'
check $? "a won tablebase root reports its tbhits and the win"

# A table that breaks after SyzygyPath was set (here: emptied before its first
# probe) is dropped at that probe; the search goes on and says so before its bestmove.
wait_for() { # PATTERN: up to 20 s for a line of the session's output
    i=0
    while ! grep -q "$1" "$tmp/session" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
}
mkdir "$tmp/tb" && cp "$tables/KQvK.rtbw" "$tables/KQvK.rtbz" "$tmp/tb/" && mkfifo "$tmp/in"
"$GIZUM" < "$tmp/in" > "$tmp/session" 2>&1 &
engine=$!
exec 3> "$tmp/in"
printf 'setoption name SyzygyPath value %s\nisready\n' "$tmp/tb" >&3
wait_for '^readyok'
: > "$tmp/tb/KQvK.rtbw"
printf 'position fen %s\ngo depth 4\n' "$kqk" >&3
wait_for '^bestmove'
echo quit >&3
exec 3>&-
wait $engine
awk '/^info string SyzygyPath: .*KQvK.rtbw: .*\(ignored\)/ { said = NR } /^bestmove [a-h][1-8]/ { best = NR }
     END { exit !(said && best && said < best) }' "$tmp/session"
check $? "a table broken at its first probe is reported before the bestmove ($(grep -c 'ignored' "$tmp/session") messages)"

# A table changed on disk after it was mapped (one byte flipped in place, a new time): the
# next isready drops it with an info string instead of probing its wrong values on (issue #38).
cp "$tables/KQvK.rtbw" "$tmp/tb/KQvK.rtbw"
rm -f "$tmp/session"
"$GIZUM" < "$tmp/in" > "$tmp/session" 2>&1 &
engine=$!
exec 3> "$tmp/in"
printf 'setoption name SyzygyPath value %s\nposition fen %s\ngo depth 4\n' "$tmp/tb" "$kqk" >&3
wait_for '^bestmove'
printf 'U' | dd of="$tmp/tb/KQvK.rtbw" bs=1 seek=3000 conv=notrunc 2> /dev/null
touch -d "@$(( $(stat -c %Y "$tmp/tb/KQvK.rtbw") + 2 ))" "$tmp/tb/KQvK.rtbw"
printf 'isready\n' >&3
wait_for '^readyok'
echo quit >&3
exec 3>&-
wait $engine
awk '/^info string SyzygyPath: .*KQvK.rtbw: changed on disk/ { said = NR } /^readyok/ { ready = NR }
     END { exit !(said && ready && said < ready) }' "$tmp/session"
check $? "a table changed on disk after mapping is dropped at isready: $(grep -c 'changed on disk' "$tmp/session") messages"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
