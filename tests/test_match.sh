#!/bin/sh
# End-to-end tests of gizum-match through its command line: a short match
# between two Gizum instances, a gauntlet, an xboard engine, SPRT stopping,
# SIGINT, and command-line errors.
# Needs GIZUM and TESTBIN (set by tests/run_all.sh); MATCH overrides the binary.
# Prerequisites (a Gizum that answers 'uci', pgn-extract, a working ps): a
# missing one fails the test when CI=true and is a printed SKIP otherwise.
set -u
: "${GIZUM:?}" "${TESTBIN:?}"
MATCH=${MATCH:-$(dirname "$GIZUM")/gizum-match${GIZUM##*/gizum}}
FAKE=$TESTBIN/fake_engine
TMP=$(mktemp -d /tmp/gizum_match_sh.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0; failed=0

check() { # check CONDITION-EXIT-STATUS MESSAGE
    if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi
}
# A missing prerequisite: a failure under CI (CI=true installs them all), a printed skip otherwise.
missing() { # missing WHAT-IS-MISSING WHAT-CANNOT-RUN
    if [ "${CI:-}" = true ]; then failed=$((failed + 1)); echo "FAIL: $1, so $2 cannot run (CI=true)"
    else echo "SKIP: $2 ($1)"; fi
}
has() { grep -q -- "$2" "$1"; echo $?; }
count() { grep -c -- "$2" "$1"; }

if [ ! -x "$MATCH" ] || [ ! -x "$FAKE" ]; then
    echo "FAIL: $MATCH or $FAKE missing"; echo "0 passed, 1 failed"; exit 1
fi

cat > "$TMP/open.epd" <<'EPD'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2
EPD

# 1. A short match between two instances of one engine: Gizum itself. If it does not
#    answer, fake engines play so the runner is still tested, and that is said aloud.
if printf 'uci\nquit\n' | timeout 10 "$GIZUM" 2>/dev/null | grep -q '^uciok'; then
    A="cmd=$GIZUM name=GizumA option.Hash=8"; B="cmd=$GIZUM name=GizumB option.Hash=8"; LIMIT="depth=2 tc=10+0.1"
    echo "e2e: $GIZUM vs $GIZUM"
else
    A="cmd=$FAKE args=random name=GizumA"; B="cmd=$FAKE args=random name=GizumB"; LIMIT="tc=5+0.05"
    missing "$GIZUM does not answer 'uci'" "the Gizum vs Gizum match (fake engines play section 1 instead)"
fi
# shellcheck disable=SC2086
"$MATCH" -engine $A -engine $B -each $LIMIT -rounds 2 -games 2 -concurrency 2 -maxmoves 60 \
    -openings file="$TMP/open.epd" -pgnout "$TMP/m.pgn" -ratinginterval 2 > "$TMP/m.out" 2>&1
check $? "match exit status"
check $(( $(count "$TMP/m.out" '^Finished game') == 4 ? 0 : 1 )) "four games finished"
check "$(has "$TMP/m.out" '^Finished match')" "match finishes"
check "$(has "$TMP/m.out" '^Results after 2 of 4 games')" "rating interval summary"
check "$(has "$TMP/m.out" '^Score of GizumA vs GizumB: ')" "score line"
check "$(has "$TMP/m.out" '^Elo difference: .*LOS: .*DrawRatio: ')" "Elo line"
check "$(has "$TMP/m.out" '^Pentanomial \[LL, LD+DL, LW+DD+WL, DW+WD, WW\]: \[')" "pentanomial line"
check $(( $(count "$TMP/m.pgn" '^\[Event "gizum-match"\]') == 4 ? 0 : 1 )) "four games in the PGN"
untagged=""
for tag in Site Date Round White Black Result FEN SetUp TimeControl Termination PlyCount; do
    [ "$(count "$TMP/m.pgn" "^\[$tag ")" -eq 4 ] || untagged="$untagged $tag"
done
check "$([ -z "$untagged" ]; echo $?)" "every PGN tag in every game; not:$untagged"
check "$(has "$TMP/m.pgn" '^1\.\.\. [a-hNBRQKO]')" "SAN movetext from a black-to-move opening"
check "$(has "$TMP/m.pgn" '{[+-][0-9M.]*/[0-9]* [0-9.]*s}')" "score/depth/time comments"
# Results in the PGN agree with the live lines.
live=$(grep '^Finished game' "$TMP/m.out" | sed 's/.*): \([^ ]*\) .*/\1/' | sort | tr '\n' ' ')
pgn=$(grep '^\[Result ' "$TMP/m.pgn" | sed 's/\[Result "\(.*\)"\]/\1/' | sort | tr '\n' ' ')
check $([ "$live" = "$pgn" ] && echo 0 || echo 1) "PGN results match the live lines ($live / $pgn)"
# pgn-extract: PGN_EXTRACT, else on PATH, else Debian's /usr/games/pgn-extract.
[ -n "${PGN_EXTRACT:-}" ] || PGN_EXTRACT=$(command -v pgn-extract 2>/dev/null || echo /usr/games/pgn-extract)
if [ -x "$PGN_EXTRACT" ]; then
    n=$("$PGN_EXTRACT" -s --quiet -o "$TMP/check.pgn" "$TMP/m.pgn" 2>"$TMP/pe.err"; grep -c '^\[Event ' "$TMP/check.pgn")
    check $([ "$n" = 4 ] && [ ! -s "$TMP/pe.err" ] && echo 0 || echo 1) "pgn-extract reads all games cleanly"
else
    missing "pgn-extract not found ($PGN_EXTRACT)" "the check that another tool reads our PGN"
fi

# 2. A gauntlet of three engines; an xboard engine among them.
"$MATCH" -tournament gauntlet -engine cmd="$FAKE" args=random name=Head -engine cmd="$FAKE" args=random name=U \
    -engine cmd="$FAKE" args=xboard proto=xboard name=X -each tc=5+0.05 -games 2 -maxmoves 20 \
    -ratinginterval 0 > "$TMP/g.out" 2>&1
check $? "gauntlet exit status"
check $(( $(count "$TMP/g.out" '^Finished game') == 4 ? 0 : 1 )) "gauntlet plays head vs each (4 games)"
check "$(has "$TMP/g.out" '(Head vs X)\|(X vs Head)')" "gauntlet pairs the xboard engine"
check $(( $(count "$TMP/g.out" '(U vs X)\|(X vs U)') == 0 ? 0 : 1 )) "gauntlet does not pair the others"
check "$(has "$TMP/g.out" 'Rank Name')" "standings table"
check $(( $(count "$TMP/g.out" 'disconnects\|illegal\|fails') == 0 ? 0 : 1 )) "no engine failures"

# 3. SPRT stops a hopeless match early: a bad engine loses every pair.
"$MATCH" -engine cmd="$FAKE" args="illegal after=1" name=Bad -engine cmd="$FAKE" args=random name=Good \
    -each tc=5+0.05 -rounds 200 -games 2 -ratinginterval 0 -sprt elo0=-10 elo1=10 > "$TMP/s.out" 2>&1
check $? "sprt exit status"
check "$(has "$TMP/s.out" '^SPRT: H0 accepted')" "SPRT accepts H0"
check "$(has "$TMP/s.out" 'SPRT (normalized Elo, elo0=-10.00 elo1=10.00.*LLR -[0-9.]*, bounds \[-2.944, 2.944\]')" "LLR and bounds reported"
check $(( $(count "$TMP/s.out" '^Finished game') < 400 ? 0 : 1 )) "stopped before the last game"

# 4. SIGINT: summary of finished games, every one of them in the PGN, engines gone.
"$MATCH" -engine cmd="$FAKE" args="random delay=37 seed=$$" name=A -engine cmd="$FAKE" args="random delay=37 seed=$$" name=B \
    -each tc=30+0.1 -rounds 100 -concurrency 2 -maxmoves 8 -pgnout "$TMP/i.pgn" -ratinginterval 0 > "$TMP/i.out" 2>&1 &
pid=$!
sleep 3
# ps must see the engines while they run, or its count after SIGINT proves nothing.
engines() { ps -eo args 2>/dev/null | grep -c "^$FAKE random delay=37 seed=$$"; }
running=0; command -v ps >/dev/null 2>&1 && running=$(engines)
kill -INT $pid
wait $pid
check $(( $? == 130 ? 0 : 1 )) "interrupted run exits with 130"
check "$(has "$TMP/i.out" '^Interrupted: summary of the [0-9]* finished games')" "interrupted summary"
check "$(has "$TMP/i.out" '^Score of A vs B')" "score after interrupt"
fin=$(count "$TMP/i.out" '^Finished game'); inpgn=$(count "$TMP/i.pgn" '^\[Event ')
check $([ "$fin" -ge 1 ] && [ "$fin" = "$inpgn" ] && echo 0 || echo 1) "every finished game is in the PGN ($fin / $inpgn)"
sleep 0.3
if [ "$running" -gt 0 ]; then
    left=$(engines)
    check $(( left == 0 ? 0 : 1 )) "engines stopped after SIGINT ($left of $running left)"
else
    missing "ps is missing or does not list the running engines" "the check that SIGINT stops the engines"
fi

# 5. Command-line errors are reported, not crashed on.
"$MATCH" -engine cmd=/nonexistent/engine -engine cmd="$FAKE" -each tc=1+0 > "$TMP/e.out" 2>&1
check $(( $? == 2 ? 0 : 1 )) "missing engine program: exit 2"
check "$(has "$TMP/e.out" 'not found')" "missing engine program: message"
"$MATCH" -engine cmd="$FAKE" -engine cmd="$FAKE" > "$TMP/e.out" 2>&1
check $(( $? == 2 ? 0 : 1 )) "no time control: exit 2"
"$MATCH" -engine cmd="$FAKE" -engine cmd="$FAKE" -each tc=1+0 -bogus 3 > "$TMP/e.out" 2>&1
check $(( $? == 2 ? 0 : 1 )) "unknown option: exit 2"
"$MATCH" -engine cmd="$FAKE" -engine cmd="$FAKE" -each tc=abc > "$TMP/e.out" 2>&1
check "$(has "$TMP/e.out" 'bad time')" "bad time control explained"
# A time finer than the millisecond engines are told is refused, not played as 0 and tagged "0+0".
refused=0
for fine in tc=0.0005+0 tc=10+0.0005 st=0.0005; do
    "$MATCH" -engine cmd="$FAKE" -engine cmd="$FAKE" -each $fine -pgnout "$TMP/fine.pgn" > "$TMP/e.out" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q 'whole milliseconds' "$TMP/e.out" && ! grep -q '^Finished game' "$TMP/e.out" ||
        { echo "FAIL: -each $fine (status $rc): $(head -c 400 "$TMP/e.out")"; refused=1; }
done
check $refused "sub-millisecond times are refused with their reason"

"$MATCH" -engine cmd="$FAKE" -engine cmd="$FAKE" -each tc=1+0 ponder=maybe > "$TMP/e.out" 2>&1
check "$(has "$TMP/e.out" 'bad ponder=maybe')" "bad ponder value explained"

# 5b. An engine that cannot start, or dies before its first move, aborts the run (issue #38):
#     a clear error on stderr and a non-zero status, not a match of forfeits "finished".
aborted=0
for bad in "cmd=/bin/false" "cmd=$FAKE args=nouciok" "cmd=$FAKE args=crash"; do
    # shellcheck disable=SC2086
    timeout 60 "$MATCH" -engine $bad name=Bad -engine cmd="$FAKE" args=random name=Good -each tc=5+0.05 \
        -inittimeout 2 -games 2 -rounds 2 -concurrency 2 > "$TMP/f.out" 2> "$TMP/f.err"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "engine Bad .*before its first move" "$TMP/f.err" \
        && ! grep -q '^Finished match' "$TMP/f.out" ||
        { echo "FAIL: engine '$bad' that never moves does not abort the run (status $rc): $(cat "$TMP/f.err")"; aborted=1; }
done
check $aborted "every engine that never moves aborts the run"
# One that starts and answers isready but never a go (silent, deaf or talking forever) loses its
# first game on time, or stalls without a clock, and aborts the run too, instead of losing every game.
aborted=0
for bad in "timeout|tc=1+0.05|lost on time" "hang|tc=1+0.05|lost on time" "endless|tc=1+0.05|lost on time" \
           "timeout|depth=2 -movetimeout 1|stalled"; do
    mode=${bad%%|*}; rest=${bad#*|}; limit=${rest%|*}; what=${rest#*|}
    # shellcheck disable=SC2086
    timeout 120 "$MATCH" -engine cmd="$FAKE" args="$mode" name=Bad -engine cmd="$FAKE" args=random name=Good \
        -each $limit -games 2 -rounds 2 -concurrency 2 > "$TMP/f.out" 2> "$TMP/f.err"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "engine Bad .*before its first move: $what without moving" "$TMP/f.err" \
        && ! grep -q '^Finished match' "$TMP/f.out" ||
        { echo "FAIL: engine '$mode' ($limit) that never answers go does not abort the run (status $rc): $(grep -c '^Finished game' "$TMP/f.out") games, $(head -c 600 "$TMP/f.err")"; aborted=1; }
done
check $aborted "every engine that never answers go aborts the run"
# One that crashes later in a game is a forfeit as before, and the match goes on.
"$MATCH" -engine cmd="$FAKE" args="crash after=2" name=Late -engine cmd="$FAKE" args=random name=Good \
    -each tc=5+0.05 -games 2 > "$TMP/f.out" 2> "$TMP/f.err"
check $(( $? == 0 ? 0 : 1 )) "an engine that crashes after its first moves: the match ends normally"
check "$(has "$TMP/f.out" '^Finished match')" "an engine that crashes after its first moves: Finished match"

# 5e. Engines that misbehave in the middle of a game (issue #38): garbage, an exit, a hang that
#     ignores stop, quit and SIGTERM, endless output, and hostile lines around legal play. Each
#     misbehaviour is a forfeit with its reason on the Finished game line (and a warning on
#     stderr when the engine is dropped), the run finishes, nothing hangs (timeout), and no
#     engine is left running. The babbling engine plays legal moves, so its games are normal.
misbehave() { # misbehave "FAKE ARGS" "OPTIONS" GAME-LINE-REGEX STDERR-REGEX
    # shellcheck disable=SC2086
    timeout 120 "$MATCH" -engine cmd="$FAKE" args="$1 seed=$$" name=Bad -engine cmd="$FAKE" args="random seed=$$" name=Good \
        $2 -games 2 -maxmoves 20 -ratinginterval 0 > "$TMP/x.out" 2> "$TMP/x.err"
    rc=$?
    games=$(count "$TMP/x.out" '^Finished game')
    matching=$(grep '^Finished game' "$TMP/x.out" | grep -c -- "$3")
    [ $rc -eq 0 ] && grep -q '^Finished match' "$TMP/x.out" && [ "$games" -eq 2 ] && [ "$matching" -eq 2 ] \
        && grep -q -- "$4" "$TMP/x.err"
    check $? "fake engine '$1' $2: two games like '$3', stderr like '$4' (status $rc): $(grep '^Finished game' "$TMP/x.out") $(head -c 600 "$TMP/x.err")"
    if command -v ps >/dev/null 2>&1; then
        sleep 0.2
        left=$(ps -eo args 2>/dev/null | grep -c "^$FAKE $1 seed=$$")
        check $(( left == 0 ? 0 : 1 )) "fake engine '$1': none left running ($left)"
    fi
}
misbehave "garbage after=2" "-each tc=5+0.05" 'makes an illegal move' 'Warning: illegal move'
misbehave "exit after=2" "-each tc=5+0.05" '{[A-Za-z]* disconnects}' 'Bad crashed or disconnected (engine exited (exit status 0))'
misbehave "hang after=2" "-each tc=1+0.05" '{[A-Za-z]* loses on time}' 'restarting engine Bad after its failure'
misbehave "hang after=2" "-each depth=2 -movetimeout 1" "{[A-Za-z]*'s connection stalls}" 'restarting engine Bad after its failure'
misbehave "endless after=2" "-each tc=1+0.05" '{[A-Za-z]* loses on time}' 'restarting engine Bad after its failure'
misbehave "babble" "-each tc=5+0.05" '{Draw by maximum moves}\|mates}\|{Draw by' 'engine Bad answers its options: babble'

# 5f. MultiPV: only the first line's score counts. Both fakes report "multipv 1 score cp 0"
#     and then "multipv 2 score cp -5000" every move, so the draw adjudication (scores within
#     10 cp for 2 moves from move 1) ends both games, and no PGN comment carries -50.00.
"$MATCH" -engine cmd="$FAKE" args="multipv seed=$$" name=A -engine cmd="$FAKE" args="multipv seed=$$" name=B \
    -each tc=5+0.05 -games 2 -maxmoves 30 -draw movenumber=1 movecount=2 score=10 \
    -pgnout "$TMP/mpv.pgn" > "$TMP/mpv.out" 2> "$TMP/mpv.err"
[ "$(grep '^Finished game' "$TMP/mpv.out" | grep -c '{Draw by adjudication}')" -eq 2 ] && ! grep -q -- '-50\.00' "$TMP/mpv.pgn"
check $? "MultiPV replies are judged by line 1 (two draws by adjudication, no -50.00 in the PGN): $(grep '^Finished game' "$TMP/mpv.out")"

# 5c. An option the engine refuses (its info string answer to setoption) is shown on stderr without -log.
if printf 'uci\nquit\n' | timeout 10 "$GIZUM" 2>/dev/null | grep -q '^uciok'; then
    "$MATCH" -engine cmd="$GIZUM" name=G option.Hash=abc option.Threads=0 -engine cmd="$FAKE" args=random \
        -each depth=1 -games 2 -maxmoves 5 > "$TMP/o.out" 2> "$TMP/o.err"
    grep -q "engine G.*Hash" "$TMP/o.err" && grep -q "engine G.*Threads" "$TMP/o.err"
    check $? "the engine's refusal of option.Hash=abc and option.Threads=0 is on stderr: $(cat "$TMP/o.err")"
else
    missing "$GIZUM does not answer 'uci'" "the option refusal check"
fi

# 5d. A Polyglot book of well-formed but illegal moves (start position e2e5, a1a8) as openings:
#     the entries are named once with the first example, on stderr (issue #38).
printf '\106\073\226\030\026\221\374\234\003\044\000\001\000\000\000\000' > "$TMP/illegal.bin"
printf '\106\073\226\030\026\221\374\234\000\070\000\001\000\000\000\000' >> "$TMP/illegal.bin"
"$MATCH" -engine cmd="$FAKE" args=random -engine cmd="$FAKE" args=random -each tc=5+0.05 -games 2 -maxmoves 5 \
    -openings file="$TMP/illegal.bin" format=bin > "$TMP/b.out" 2> "$TMP/b.err"
[ "$(grep -c '2 entries skipped' "$TMP/b.err")" -eq 1 ] && grep '2 entries skipped' "$TMP/b.err" | grep -q '463b96181691fc9c.*e2e5'
check $? "a book of illegal moves as openings is named once on stderr: $(cat "$TMP/b.err")"

# 6. Pondering: the ponder fakes predict each other's (first legal) move, so every
#    ponder search ends with ponderhit; against a random mover most end with stop.
#    The fake answers any breach of the ponder protocol with an illegal move.
"$MATCH" -engine cmd="$FAKE" args=ponder name=P1 rotate.Hash=1,4,16 -engine cmd="$FAKE" args=ponder name=P2 \
    -each tc=5+0.05 ponder=on -rounds 1 -games 3 -maxmoves 20 -log "$TMP/p.log" > "$TMP/p.out" 2>&1
check $? "ponder match exit status"
check $(( $(count "$TMP/p.out" 'illegal\|fails\|disconnects\|loses on time') == 0 ? 0 : 1 )) "ponder protocol kept (hits)"
hits=$(count "$TMP/p.log" '> ponderhit$'); ponders=$(count "$TMP/p.log" '> go ponder ')
# (the one ponder search still running when each of the 3 games ends is stopped)
check $(( hits > 20 && hits + 3 == ponders ? 0 : 1 )) "every correct guess ends with ponderhit ($hits of $ponders)"
check $(( $(count "$TMP/p.log" '> setoption name Ponder value true') == 2 ? 0 : 1 )) "Ponder option set"
hashes=$(grep 'P1([0-9]*) > setoption name Hash' "$TMP/p.log" | awk '{print $NF}' | tr '\n' ' ')
check $([ "$hashes" = "1 4 16 " ] && echo 0 || echo 1) "rotated Hash before each game ($hashes)"
"$MATCH" -engine cmd="$FAKE" args=ponder name=P -engine cmd="$FAKE" args=random name=R \
    -each tc=5+0.05 ponder=on -rounds 1 -games 2 -maxmoves 20 -log "$TMP/q.log" > "$TMP/q.out" 2>&1
check $? "ponder miss match exit status"
check $(( $(count "$TMP/q.out" 'illegal\|fails\|disconnects\|loses on time') == 0 ? 0 : 1 )) "ponder protocol kept (misses)"
check $(( $(count "$TMP/q.log" 'P([0-9]*) > stop$') > 5 ? 0 : 1 )) "a wrong guess ends with stop"


# 7. Both dialects end to end. fastchess style, as fishtest and its documentation write it:
"$MATCH" -engine name=New $A -engine name=Base $B -each proto=uci $LIMIT timemargin=200 \
    -openings file="$TMP/open.epd" format=epd order=random plies=8 start=2 -srand 7 \
    -resign movecount=3 score=600 twosided=true -draw movenumber=34 movecount=8 score=20 \
    -pgnout file="$TMP/f.pgn" notation=lan nodes=true seldepth=true nps=true timeleft=true append=false \
    -epdout file="$TMP/f.epd" -log file="$TMP/f.log" level=info engine=true -report penta=true \
    -rounds 1 -games 2 -repeat -recover -concurrency 2 -maxmoves 30 -ratinginterval 0 \
    -config outname="$TMP/state.json" -testEnv -output format=cutechess -tournament roundrobin > "$TMP/f.out" 2>&1
check $? "fastchess-style command line runs: $(tail -3 "$TMP/f.out")"
check $(( $(count "$TMP/f.out" '^Finished game') == 2 ? 0 : 1 )) "fastchess style: two games"
check "$(has "$TMP/f.pgn" ' [NBRQK]\{0,1\}[a-h][1-8][-x][a-h][1-8]')" "notation=lan in the PGN"
check "$(has "$TMP/f.pgn" ', n=[0-9]*, sd=[0-9]*, nps=[0-9]*, tl=[0-9.]*s')" "nodes/seldepth/nps/timeleft in the comments"
check $(( $(grep -c . "$TMP/f.epd") == 2 ? 0 : 1 )) "-epdout: one final position per game"
check "$(has "$TMP/f.log" '> go ')" "-log file= logs the engine traffic"
check "$(has "$TMP/state.json" '^gizum-match state 1$')" "-config outname= writes the state"
check $(( $(grep -c '^game ' "$TMP/state.json") == 2 ? 0 : 1 )) "the state holds both results"
# Resume: with one result taken out of the state, exactly that game is played again.
grep -v '^game 1 ' "$TMP/state.json" > "$TMP/partial.json"
"$MATCH" -config file="$TMP/partial.json" outname="$TMP/resumed.json" > "$TMP/r.out" 2>&1
check $? "resume from -config file= runs: $(tail -3 "$TMP/r.out")"
check "$(has "$TMP/r.out" '^Resumed: 1 of 2 games already played')" "resume counts the saved game"
check $(( $(count "$TMP/r.out" '^Finished game') == 1 ? 0 : 1 )) "resume plays only the missing game"
check "$(has "$TMP/r.out" '^Score of [A-Za-z]* vs [A-Za-z]*: .*] 2$')" "resumed summary covers both games"
"$MATCH" -config file="$TMP/open.epd" > "$TMP/r.out" 2>&1
check $(( $? == 2 ? 0 : 1 )) "a file that is not a state is refused"

# cutechess-cli style, as OpenBench's worker writes it (bare words, FILE forms; dir= with an absolute cmd=).
case "$A" in cmd=/*) ;; *) A=$(echo "$A" | sed "s|^cmd=|cmd=$(pwd)/|"); B=$(echo "$B" | sed "s|^cmd=|cmd=$(pwd)/|") ;; esac
"$MATCH" -repeat -recover -variant standard -concurrency 2 -games 2 -resign movecount=3 score=400 \
    -draw movenumber=40 movecount=8 score=10 -engine dir="$TMP" $A proto=uci $LIMIT timemargin=250 name=X-dev \
    -engine dir="$TMP" $B proto=uci $LIMIT timemargin=250 name=X-base trust \
    -openings file="$TMP/open.epd" format=epd order=random start=1 -srand 3 -pgnout "$TMP/c.pgn" fi \
    -maxmoves 30 -ratinginterval 0 > "$TMP/c.out" 2>&1
check $? "cutechess-style command line runs: $(tail -3 "$TMP/c.out")"
check $(( $(count "$TMP/c.out" '^Finished game [0-9]* (X-[a-z]* vs X-[a-z]*): ') == 2 ? 0 : 1 )) "cutechess style: two games, OpenBench's line format"
check "$(has "$TMP/c.pgn" '{[+-][0-9M.]*/[0-9]* [0-9.]*s}')" "cutechess-style PGN comments"

# 8. SPSA (-spsa): the fake engine's option After tuned. In illegal mode the side with the
#    smaller After plays the illegal move first, so the side with the larger After wins every
#    pair 2-0 (NAME+ when its direction is up, NAME- when down) and each pair k moves After up
#    by 2 r_k c_k: the whole path follows from the gains alone. The fake engines' random
#    moves are seeded (seed=11), not drawn from their pids: a random mover may end a game
#    (mate, repetition) before either side misbehaves, and a CI run once lost pair 2 so.
printf '# a test tune\nAfter, int, 10, 2, 40, 2, 0.02\n' > "$TMP/t.spsa"
spsa_path() { # spsa_path START FIRST_K LAST_K: After after pairs FIRST_K..LAST_K of a 6-pair tune
    awk -v v="$1" -v k0="$2" -v k1="$3" 'BEGIN { N = 6; A = 0.1 * N; ce = 2; re = 0.02
        a = re * ce * ce * (A + N) ^ 0.602
        for (k = k0; k <= k1; k++) { c = ce * (N / k) ^ 0.101; r = a / (A + k) ^ 0.602 / (c * c); v += 2 * r * c }
        printf "%.6f", v }'
}
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-6 && d > -1e-6) }'; echo $?; }
"$MATCH" -spsa file="$TMP/t.spsa" iterations=6 seed=5 -engine cmd="$FAKE" args="illegal seed=11" -each tc=10+0.1 \
    -openings file="$TMP/open.epd" -ratinginterval 4 > "$TMP/s.out" 2>&1
check $? "-spsa runs: $(tail -3 "$TMP/s.out")"
check $(( $(count "$TMP/s.out" '^Finished game [0-9]* (fake_engine[+-] vs fake_engine[+-])') == 12 ? 0 : 1 )) "-spsa: six pairs, NAME+ against NAME-"
check "$(has "$TMP/s.out" '^Pentanomial .*: \[[0-6], 0, 0, 0, [0-6]\]$')" "the side with the larger After won every pair 2-0"
value=$(sed -n 's/^value After //p' "$TMP/t.spsa.state")
check "$(near "$value" "$(spsa_path 10 1 6)")" "the state (FILE.state) holds After = $value, as the gains predict ($(spsa_path 10 1 6))"
check "$(has "$TMP/s.out" '^SPSA: 2 of 6 pairs')" "the table comes with each summary"
check "$(has "$TMP/s.out" "^After, $(printf '%.0f' "$value")\$")" "the tuned value in OpenBench's 'name, value' form"
# The same command again: the tune is complete, nothing is played, the state is kept.
cp "$TMP/t.spsa.state" "$TMP/done.state"
"$MATCH" -spsa file="$TMP/t.spsa" iterations=6 -engine cmd="$FAKE" args="illegal seed=11" -each tc=10+0.1 \
    -openings file="$TMP/open.epd" > "$TMP/s2.out" 2>&1
check $? "-spsa on a finished tune: exit 0"
check $(( $(count "$TMP/s2.out" '^Finished game') == 0 ? 0 : 1 )) "a finished tune plays nothing"
check "$(has "$TMP/s2.out" '^Resuming the SPSA tune saved in .*: 6 of 6 pairs done')" "and says it resumed"
check "$(cmp -s "$TMP/t.spsa.state" "$TMP/done.state"; echo $?)" "a finished tune's state is unchanged"
# Resumed halfway (state=): the last three pairs are played from the saved value.
sed 's/^pairs 6$/pairs 3/' "$TMP/done.state" > "$TMP/half.state"
"$MATCH" -spsa file="$TMP/t.spsa" state="$TMP/half.state" iterations=6 -engine cmd="$FAKE" args="illegal seed=11" \
    -each tc=10+0.1 -openings file="$TMP/open.epd" > "$TMP/s3.out" 2>&1
check $(( $(count "$TMP/s3.out" '^Finished game') == 6 ? 0 : 1 )) "a tune resumed at 3 of 6 pairs plays three pairs"
resumed=$(sed -n 's/^value After //p' "$TMP/half.state")
check "$(near "$resumed" "$(spsa_path "$value" 4 6)")" "and goes on from the saved value with the gains of pairs 4-6 ($resumed)"
# Refusals: a tune of another length, an option the engine lacks, a bad line, two engines, -rounds.
"$MATCH" -spsa file="$TMP/t.spsa" iterations=9 -engine cmd="$FAKE" -each tc=10+0.1 > "$TMP/e.out" 2>&1
check $(( $? == 2 ? 0 : 1 )) "a state of another tune: exit 2"
check "$(has "$TMP/e.out" 't.spsa.state is the state of another tune (iterations=6')" "a state of another tune is refused with both settings"
printf 'After, int, 10, 2, 40, 2, 0.02\nNoSuchOption, int, 1, 0, 9, 1, 0.002\n' > "$TMP/n.spsa"
"$MATCH" -spsa file="$TMP/n.spsa" iterations=2 -engine cmd="$FAKE" -each tc=10+0.1 > "$TMP/e.out" 2>&1
check $(( $? == 2 ? 0 : 1 )) "a parameter the engine lacks: exit 2"
check "$(has "$TMP/e.out" "has no option 'NoSuchOption' (.*n.spsa:2 lists it")" "the missing option is named with its line"
check $(( $(count "$TMP/e.out" '^Finished game') == 0 ? 0 : 1 )) "and no game is played"
printf 'After, int, 10, 2, 40, 2\n' > "$TMP/b.spsa"
"$MATCH" -spsa file="$TMP/b.spsa" iterations=2 -engine cmd="$FAKE" -each tc=10+0.1 > "$TMP/e.out" 2>&1
check "$(has "$TMP/e.out" 'b.spsa:1: expected 7 fields')" "a bad parameter line: file:line: reason"
"$MATCH" -spsa file="$TMP/t.spsa" iterations=2 -engine cmd="$FAKE" -engine cmd="$FAKE" -each tc=10+0.1 > "$TMP/e.out" 2>&1
check "$(has "$TMP/e.out" '\-spsa needs one -engine')" "-spsa with two engines is refused"
"$MATCH" -spsa file="$TMP/t.spsa" iterations=2 -engine cmd="$FAKE" -each tc=10+0.1 -rounds 4 > "$TMP/e.out" 2>&1
check "$(has "$TMP/e.out" '\-spsa needs no -rounds')" "-spsa with -rounds is refused"

# Refusals name the key and the accepted forms.
"$MATCH" -engine $A -engine $B -each $LIMIT -pgnout file=x.pgn notation=fen > "$TMP/e.out" 2>&1
check $(( $? == 2 ? 0 : 1 )) "unknown -pgnout key: exit 2"
check "$(has "$TMP/e.out" "'notation=fen' (accepted: -pgnout FILE \[min\] \[fi\]")" "unknown key named with the accepted forms"
"$MATCH" -engine $A -engine $B -each $LIMIT -tb /usr/share/syzygy > "$TMP/e.out" 2>&1
check "$(has "$TMP/e.out" 'tablebase adjudication is not supported')" "-tb refused with the reason"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
