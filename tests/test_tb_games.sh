#!/bin/sh
# Tablebases at the game level: from the won and drawn endgames of
# tests/data/tb_games.epd (KQvK, KRvK, KBNvK, KRPvKR with either colour
# strong and either side to move; KRvK and KBNvK with the fifty-move budget
# nearly spent, won and cursed; KRvKR, KBvK, KNNvK and KRPvKR draws) Gizum
# plays itself with Syzygy tables on both sides through gizum-match at a
# fast clock, without adjudication. Checks: the prober still gives each
# start position the result written in the file; every win is converted by
# mate, every draw is held; no stretch of a game goes past 100 plies without
# a capture or pawn move (counted here from the moves, not by the referee);
# every game ends normally (no time forfeit, illegal move or crash).
#
# Environment: GIZUM (the engine), MATCH (default gizum-match beside it),
# SYZYGY_PATH (default ../shared/syzygy beside the repository),
# TB_GAMES_EPD (the positions), TB_GAMES_TC (clock, default 1+0.05),
# TB_GAMES_KEEP (a folder that keeps the PGN, the match output and the
# engine traffic).
# Missing tables: a skip, but a failure when CI=true.
set -u
: "${GIZUM:?}"
root=$(cd "$(dirname "$0")/.." && pwd)
MATCH=${MATCH:-$(dirname "$GIZUM")/gizum-match${GIZUM##*/gizum}}
tables=${SYZYGY_PATH:-$root/../shared/syzygy}
epd=${TB_GAMES_EPD:-$root/tests/data/tb_games.epd}
tc=${TB_GAMES_TC:-1+0.05}

# Games on a clock need the engine at full speed: the sanitizer builds (make
# sanitize/tsan set GIZUM_TEST_QUICK) run 5-20 times slower and would lose on
# time for no fault of the search. The normal build's `make test` plays them.
if [ -n "${GIZUM_TEST_QUICK:-}" ] && [ -z "${TB_GAMES_TC:-}" ]; then
    echo "SKIP test_tb_games.sh: clocked games run in the normal build only (GIZUM_TEST_QUICK is set)"
    echo "0 passed, 0 failed"
    exit 0
fi

# Every table a game can reach from these positions (a promotion or capture included).
missing=""
for t in KQvK KRvK KBNvK KRPvKR KRvKR KBvK KNNvK KRPvK KQvKR KQRvKR KRRvKR KRvKP KRvKN KRvKB KQvKP KPvK; do
    [ -r "$tables/$t.rtbw" ] && [ -r "$tables/$t.rtbz" ] || missing="$missing $t"
done
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL test_tb_games.sh: missing Syzygy tables in $tables:$missing"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "SKIP test_tb_games.sh: missing Syzygy tables in $tables:$missing"
    echo "0 passed, 0 failed"
    exit 0
fi
if [ ! -x "$MATCH" ] || [ ! -r "$epd" ]; then
    echo "FAIL test_tb_games.sh: cannot run $MATCH or read $epd"; echo "0 passed, 1 failed"; exit 1
fi

passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gizum-tb-games.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# positions: "FEN|id|expected result|expected prober line", one per EPD line.
grep -v -e '^#' -e '^[[:space:]]*$' "$epd" | sed 's/^\([^;]*[^; ]\) *;.* id "\([^"]*\)".* c0 "\([^"]*\)".* c1 "\([^"]*\)".*/\1|\2|\3|\4/' \
    > "$tmp/positions"
count=$(wc -l < "$tmp/positions")
if [ "$count" -lt 1 ] || grep -qv '^[^|]*|[^|]*|[^|]*|[^|]*$' "$tmp/positions"; then
    echo "FAIL test_tb_games.sh: $epd: every line needs a FEN, id, c0 (result) and c1 (\"win dtz 17\")"
    echo "0 passed, 1 failed"; exit 1
fi

# 1. The file's results are the tables' (one engine session probes them all).
set -- "setoption name SyzygyPath value $tables"
while IFS='|' read -r fen id want line; do set -- "$@" "position fen $fen" d; done < "$tmp/positions"
"$GIZUM" "$@" 2>&1 | sed -n 's/^Tablebases: \([a-z ]*\) (WDL -*[0-9]), DTZ \(-*[0-9]*\)$/\1 dtz \2/p' > "$tmp/probed"
cut -d'|' -f4 "$tmp/positions" | cmp -s - "$tmp/probed"
check $? "the prober disagrees with $epd's c1 results: $(cut -d'|' -f4 "$tmp/positions" | diff - "$tmp/probed" | grep '^[<>]' | head -n 4 | tr '\n' ' ')"

# 2. The games: one per position, both engines with tables, no adjudication but a
# generous move limit; the wide time margin (5 s past the clock) keeps a loaded
# machine from flagging: stalls of over half a second were seen there.
start=$(date +%s)
[ -n "${TB_GAMES_KEEP:-}" ] && mkdir -p "$TB_GAMES_KEEP" && set -- -log "$TB_GAMES_KEEP/match.log" || set --
"$MATCH" "$@" -engine cmd="$GIZUM" name=Gizum-A -engine cmd="$GIZUM" name=Gizum-B \
    -each tc="$tc" option.Hash=16 option.SyzygyPath="$tables" \
    -openings file="$epd" format=epd order=sequential -games 1 -rounds "$count" -concurrency 2 \
    -maxmoves 200 -timemargin 5000 -pgnout "$tmp/games.pgn" -ratinginterval 0 > "$tmp/match.out" 2>&1
rc=$?
seconds=$(( $(date +%s) - start ))
if [ -n "${TB_GAMES_KEEP:-}" ]; then cp "$tmp/games.pgn" "$tmp/match.out" "$TB_GAMES_KEEP/"; fi

# Per game: FEN|result|termination|end reason|plies|longest run of plies without a capture or pawn move.
awk '
function flush(   text, reason, n, i, tok, run, longest, plies) {
    if (fen == "") return
    text = moves
    reason = ""
    if (match(text, /\{[^}]*\}[^{]*$/)) { reason = substr(text, RSTART + 1); sub(/\}.*/, "", reason) }
    gsub(/\{[^}]*\}/, " ", text)
    n = split(text, tok, " ")
    split(fen, f, " ")
    run = f[5] + 0; longest = run; plies = 0
    for (i = 1; i <= n; i++) {
        if (tok[i] ~ /^[0-9]+\.+$/ || tok[i] ~ /^(1-0|0-1|1\/2-1\/2|\*)$/ || tok[i] == "") continue
        plies++
        if (tok[i] ~ /x/ || tok[i] ~ /^[a-h]/) run = 0; else run++
        if (run > longest) longest = run
    }
    print fen "|" result "|" term "|" reason "|" plies "|" longest
    fen = ""; moves = ""
}
/^\[Event / { flush() }
/^\[FEN /         { fen = $0; sub(/^\[FEN "/, "", fen); sub(/"\]$/, "", fen) }
/^\[Result /      { result = $2; gsub(/[]"]/, "", result) }
/^\[Termination / { term = $0; sub(/^\[Termination "/, "", term); sub(/"\]$/, "", term) }
/^[^[]/ { moves = moves " " $0 }
END { flush() }' "$tmp/games.pgn" 2>/dev/null > "$tmp/games"

printf '%-16s %-8s %-7s %6s %8s  %s\n' position result moves "DTZ" "max run" "end"
over=""; abnormal=""; lost=""
while IFS='|' read -r fen id want line; do
    game=$(grep -F "$fen|" "$tmp/games" | head -n 1)
    result=$(echo "$game" | cut -d'|' -f2); term=$(echo "$game" | cut -d'|' -f3)
    reason=$(echo "$game" | cut -d'|' -f4); plies=$(echo "$game" | cut -d'|' -f5); run=$(echo "$game" | cut -d'|' -f6)
    printf '%-16s %-8s %-7s %6s %8s  %s\n' "$id" "${result:--}" "$(( (${plies:-0} + 1) / 2 ))" "${line##* }" "${run:--}" "${reason:-no game}"
    # Every draw held and every win converted by mate: one check over all the games.
    if [ "$want" = "1/2-1/2" ]; then
        [ "$result" = "1/2-1/2" ] || { echo "FAIL: $id: the draw was not held (${result:-no game}: ${reason:-})"; lost="$lost $id"; }
    else
        [ "$result" = "$want" ] && case "$reason" in *mates) true ;; *) false ;; esac ||
            { echo "FAIL: $id: the win was not converted (want $want by mate, got ${result:-no game}: ${reason:-})"; lost="$lost $id"; }
    fi
    [ -n "$game" ] && [ "${run:-0}" -gt 100 ] && over="$over $id($run)"
    [ -n "$game" ] && [ "$term" != normal ] && abnormal="$abnormal $id($term)"
done < "$tmp/positions"
[ -z "$lost" ]
check $? "every draw held, every win converted by mate; not in:$lost"
[ -z "$over" ]
check $? "more than 100 plies without a capture or pawn move:$over"
[ -z "$abnormal" ] && [ "$rc" -eq 0 ] && [ "$(wc -l < "$tmp/games")" -eq "$count" ]
check $? "every game ends normally (match exit $rc, $(wc -l < "$tmp/games") of $count games,$abnormal): $(tail -n 3 "$tmp/match.out" | tr '\n' ' ')"
echo "$count games at $tc in ${seconds}s"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
