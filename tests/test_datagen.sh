#!/bin/sh
# The shell side of training data: OpenBench's genfens call
# (./gizum "genfens N seed S book X" quit), argument handling of one-shot
# UCI commands, and datagen as a program: an interrupted run keeps whole
# games and continues exactly, PGN conversion, bad input named and skipped.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# genfens as OpenBench runs it: each argument one command, FENs on "info string genfens " lines.
"$GIZUM" "genfens 10 seed 1 book None" quit > "$tmp/g1" 2>&1; check $? "genfens exit status"
grep '^info string genfens ' "$tmp/g1" | sed 's/^info string genfens //' > "$tmp/f1"
[ "$(wc -l < "$tmp/f1")" -eq 10 ]; check $? "genfens 10 printed $(wc -l < "$tmp/f1") positions: $(cat "$tmp/g1")"
[ "$(sort -u "$tmp/f1" | wc -l)" -eq 10 ]; check $? "genfens positions are not distinct"
bad=0
while read -r fen; do
    "$GIZUM" perft 1 "$fen" > /dev/null 2>&1 || { bad=$((bad + 1)); echo "illegal: $fen"; }
done < "$tmp/f1"
[ "$bad" -eq 0 ]; check $? "$bad genfens positions do not set up"
"$GIZUM" "genfens 10 seed 1 book None" quit 2>&1 | grep '^info string genfens ' | sed 's/^info string genfens //' > "$tmp/f2"
cmp -s "$tmp/f1" "$tmp/f2"; check $? "genfens is not reproducible for a seed"
"$GIZUM" "genfens 10 seed 2 book None" quit 2>&1 | grep '^info string genfens ' | sed 's/^info string genfens //' > "$tmp/f3"
! cmp -s "$tmp/f1" "$tmp/f3"; check $? "genfens gives the same positions for another seed"
# OpenBench may put setoption commands first; Gizum names what it does not know and goes on.
"$GIZUM" "setoption name EvalFile value x.nnue" "genfens 2 seed 5 book None" quit > "$tmp/g4" 2>&1
[ "$(grep -c '^info string genfens [^:]' "$tmp/g4")" -eq 2 ]; check $? "genfens after setoption: $(cat "$tmp/g4")"
# An EPD book with a malformed line: the line is named file:line, the good ones are used.
printf 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\nthis is no position\nr1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n' > "$tmp/book.epd"
"$GIZUM" "genfens 4 seed 3 book $tmp/book.epd" quit > "$tmp/g5" 2>&1
[ "$(grep -c '^info string genfens [^:]' "$tmp/g5")" -eq 4 ] && grep -q "book.epd:2: " "$tmp/g5"
check $? "genfens from an EPD book: $(cat "$tmp/g5")"
"$GIZUM" "genfens 4 seed 3 book $tmp/missing.epd" quit > "$tmp/g6" 2>&1
grep -q "^info string genfens: cannot open" "$tmp/g6" && ! grep -q '^info string genfens [^:]' "$tmp/g6"
check $? "a missing genfens book is reported: $(cat "$tmp/g6")"

# One-shot UCI commands: one word per argument is one command, as before.
"$GIZUM" go depth 3 | grep -q '^bestmove '; check $? "./gizum go depth 3"
"$GIZUM" "go depth 3" | grep -q '^bestmove '; check $? "./gizum \"go depth 3\""

# Self-play interrupted by Ctrl-C: whole games only, and --first-game continues the run exactly.
"$GIZUM" datagen --out "$tmp/run.txt" --games 100000 --nodes 400 --threads 2 --seed 21 2> "$tmp/run.err" &
pid=$!
# Interrupt once the first game is written (whatever the build's speed: a sanitizer
# build needs more than a few seconds for the openings' depth-8 checks), then a little later.
i=0
while [ ! -s "$tmp/run.txt" ] && [ $i -lt 1200 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -INT $pid
wait $pid; rc=$?
[ "$rc" -eq 130 ]; check $? "an interrupted datagen exits with 130, got $rc: $(tail -2 "$tmp/run.err")"
[ -s "$tmp/run.txt" ] && [ "$(tail -c 1 "$tmp/run.txt" | od -An -c | tr -d ' ')" = '\n' ]
check $? "the interrupted file does not end with a whole line"
broken=$(awk -F' [|] ' 'NF != 3 || $3 !~ /^(1\.0|0\.5|0\.0)$/ || $2 !~ /^-?[0-9]+$/' "$tmp/run.txt" | wc -l)
[ "$broken" -eq 0 ]; check $? "$broken incomplete or malformed lines after the interrupt"
next=$(sed -n 's/.*--first-game \([0-9]*\).*/\1/p' "$tmp/run.err")
[ -n "$next" ] && [ "$next" -gt 0 ]; check $? "the interrupt message names the game to continue from: $(tail -1 "$tmp/run.err")"
next=${next:-1}
"$GIZUM" datagen --out "$tmp/run.txt" --games 2 --first-game "$next" --nodes 400 --seed 21 2>/dev/null
"$GIZUM" datagen --out "$tmp/fresh.txt" --games $((next + 2)) --nodes 400 --threads 2 --seed 21 2>/dev/null
cmp -s "$tmp/run.txt" "$tmp/fresh.txt"; check $? "interrupted + continued run differs from one uninterrupted run"

# PGN games from other tools (cutechess/fastchess comments) become records.
cat > "$tmp/games.pgn" <<'EOF'
[Event "match"]
[White "a"]
[Black "b"]
[Result "1/2-1/2"]

1. d4 {+0.21/14 0.30s} Nf6 {-0.15/13 0.28s, n=51234, sd=20} 2. c4 {+0.30/12 0.2s}
e6 {-0.25/12 0.2s} 3. Nc3 {book} Bb4 {-0.10/11 0.1s} 1/2-1/2

[Event "broken"]
[Result "1-0"]

1. e4 e5 2. Qxf7 1-0
EOF
"$GIZUM" datagen --pgn "$tmp/games.pgn" "$tmp/none.pgn" --out "$tmp/pgn.txt" --skip-plies 0 2> "$tmp/pgn.err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "none.pgn" "$tmp/pgn.err" && grep -q "games.pgn:12: game 2: illegal" "$tmp/pgn.err"
check $? "bad PGN input is named and skipped (exit $rc): $(cat "$tmp/pgn.err")"
[ "$(wc -l < "$tmp/pgn.txt")" -eq 5 ] && grep -q "^rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | 15 | 0.5$" "$tmp/pgn.txt"
check $? "PGN records with White's scores: $(cat "$tmp/pgn.txt")"

# Rescoring: every position searched again, its new score beside the old result; the same output
# for any number of threads; --lines and --first-line split a run exactly; mates, positions whose
# best move is a capture and bad lines are left out, the bad ones named file:line.
head -n 12 "$tmp/fresh.txt" > "$tmp/data.txt"
{ cat "$tmp/data.txt"; echo "no position here | 5 | 1.0"
  echo "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 | 0 | 1.0"; echo "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1 | 0 | 0.5"; } > "$tmp/in.txt"
"$GIZUM" datagen --rescore "$tmp/in.txt" --out "$tmp/r1.txt" --nodes 3000 --threads 2 2> "$tmp/r1.err"; rc=$?
[ "$rc" -eq 0 ] && grep -q "in.txt:13: " "$tmp/r1.err" \
    && grep -q "rescore: 12 written, 1 mate or no move, 1 best move noisy, 0 in check, 1 bad position" "$tmp/r1.err"
check $? "rescore names what it leaves out (exit $rc): $(cat "$tmp/r1.err")"
cut -d'|' -f1,3 "$tmp/data.txt" > "$tmp/keys.in"; cut -d'|' -f1,3 "$tmp/r1.txt" > "$tmp/keys.out"
cmp -s "$tmp/keys.in" "$tmp/keys.out"; check $? "rescore changed a position or a result: $(cat "$tmp/r1.txt")"
! cmp -s "$tmp/data.txt" "$tmp/r1.txt"; check $? "rescore at 3000 nodes kept every 400-node score"
"$GIZUM" datagen --rescore "$tmp/in.txt" --out "$tmp/r2.txt" --nodes 3000 --lines 6 2>/dev/null
"$GIZUM" datagen --rescore "$tmp/in.txt" --out "$tmp/r2.txt" --nodes 3000 --first-line 7 2>/dev/null
cmp -s "$tmp/r1.txt" "$tmp/r2.txt"; check $? "rescore in two parts, one thread, differs from one run on two threads"
"$GIZUM" datagen --rescore "$tmp/in.txt" --out "$tmp/in.txt" --nodes 300 2> "$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "both the input and the output" "$tmp/err" && [ "$(wc -l < "$tmp/in.txt")" -eq 15 ]
check $? "rescore into its own input is refused (exit $rc): $(cat "$tmp/err")"
"$GIZUM" datagen --rescore "$tmp/in.txt" --out "$tmp/r4.txt" --games 3 2> "$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "no --pgn, --games or --positions" "$tmp/err" && [ ! -s "$tmp/r4.txt" ]
check $? "rescore with --games is refused (exit $rc): $(cat "$tmp/err")"
"$GIZUM" datagen --rescore "$tmp/missing.txt" --out "$tmp/r3.txt" 2> "$tmp/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "missing.txt" "$tmp/err"; check $? "a missing rescore input is named (exit $rc): $(cat "$tmp/err")"

# Bad options are named.
"$GIZUM" datagen --out "$tmp/x" --games 1 --nodes zero > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "bad or incomplete option '--nodes'" "$tmp/err"; check $? "a bad option is not named"
"$GIZUM" datagen --out "$tmp/x" --games 1 --book "$tmp/book.epd" --nodes 300 > /dev/null 2> "$tmp/err"
[ $? -eq 0 ] && grep -q "book.epd:2: " "$tmp/err"; check $? "a malformed EPD line in datagen's book is not named"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
