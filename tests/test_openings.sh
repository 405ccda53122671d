#!/bin/sh
# books/openings.epd: every line a valid, distinct position, balanced by
# Gizum's own search; and the `openings` command that makes it: balanced
# (within its margin by a search of the engine itself), distinct,
# reproducible.
#
# Balance is checked the way the positions were chosen: `make openings` keeps
# a position when a depth-10 search from a fresh game scores it within 50 cp,
# so a sample of the file (every OPENINGS_STEP-th line, default 10: 30 of
# 300, about a second) is searched by ./gizum over UCI at depth 10. The file
# was made by an earlier engine, whose depth-10 scores any search change
# moves by a few centipawns, so the committed file must score within
# OPENINGS_MARGIN cp (default 100: still balanced, not yet a decided game);
# the positions the command makes now are held to the exact margin asked.
# OPENINGS_STEP=1 checks every line (about 9 s); OPENINGS_EPD names another
# file to check.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }

# Reads FENs on stdin; for each prints Gizum's score at `go depth $1` ("cp N",
# "mate N", or "none" if the search gave none), each searched from a fresh game
# (ucinewgame, default Hash 16 MB) as `gizum openings` searches its candidates.
# One engine answers all of them through two FIFOs; each search's bestmove is
# awaited before the next is sent.
engine_scores() {
    dir=$(mktemp -d) || return 1
    mkfifo "$dir/in" "$dir/out"
    timeout 300 "$GIZUM" < "$dir/in" > "$dir/out" 2>&1 &
    exec 3> "$dir/in" 4< "$dir/out"
    while read -r fen; do
        printf 'ucinewgame\nposition fen %s\ngo depth %s\n' "$fen" "$1" >&3
        score=none
        while read -r line <&4; do
            case $line in
            *bound*) ;;
            "info depth $1 "*" score "*) rest=${line#* score }; score=${rest%% nodes *} ;;
            bestmove*) break ;;
            esac
        done
        echo "$score"
    done
    echo quit >&3
    exec 3>&- 4<&-
    wait
    rm -rf "$dir"
}

# Checks that every FEN in file $1 scores within $3 cp at depth $2; $4 names the set.
check_balanced() {
    engine_scores "$2" < "$1" > "$1.scores"
    out=$(paste -d '|' "$1.scores" "$1" | awk -F'|' -v m="$3" '
        { n++; split($1, s, " ") }
        s[1] != "cp" || s[2] > m || s[2] < -m { bad++; if (bad <= 3) printf "  %s: %s\n", $2, $1 }
        END { printf "%d %d\n", n, bad + 0 }')
    summary=$(printf '%s\n' "$out" | tail -n 1)
    printf '%s\n' "$out" | sed '$d'
    n=${summary% *}; bad=${summary#* }
    [ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
    check $? "$4: $bad of $n positions not within $3 cp at depth $2"
}

epd=${OPENINGS_EPD:-books/openings.epd}
lines=$(wc -l < "$epd")
[ "$lines" -ge 200 ]; check $? "openings.epd has only $lines positions"
[ "$(sort -u "$epd" | wc -l)" -eq "$lines" ]; check $? "openings.epd has duplicate positions"
# Validity: one engine reads every line as a position; each is followed by isready,
# so the n-th readyok closes the n-th line's answer and a rejection names its line.
invalid=$( (awk '{ print "position fen " $0 " 0 1"; print "isready" }' "$epd"; echo quit) | "$GIZUM" 2>&1 |
    awk 'FNR == NR { fen[FNR] = $0; lines = FNR; next }
         /^readyok/ { n++ }
         /^info string position rejected/ { printf "invalid: %s (%s)\n", fen[n + 1], $0 }
         END { if (n != lines) print "the engine answered " n " of " lines " lines" }' "$epd" -)
[ -z "$invalid" ]; check $? "invalid positions in openings.epd:
$invalid"

tmp=$(mktemp -d)
step=${OPENINGS_STEP:-10}
awk -v s="$step" '(NR - 1) % s == 0' "$epd" > "$tmp/sample"
check_balanced "$tmp/sample" 10 "${OPENINGS_MARGIN:-100}" "openings.epd (every ${step}th line)"

"$GIZUM" openings --count 6 --depth 5 --seed 7 > "$tmp/a" 2>"$tmp/err"; check $? "openings command failed: $(cat "$tmp/err")"
"$GIZUM" openings --count 6 --depth 5 --seed 7 > "$tmp/b" 2>/dev/null
[ "$(wc -l < "$tmp/a")" -eq 6 ]; check $? "openings --count 6 gave $(wc -l < "$tmp/a") lines"
cmp -s "$tmp/a" "$tmp/b"; check $? "openings is not reproducible for a fixed seed"
[ "$(sort -u "$tmp/a" | wc -l)" -eq 6 ]; check $? "openings printed a position twice"
check_balanced "$tmp/a" 5 50 "openings --depth 5 (default margin 50)"
# A tighter margin is honoured too.
"$GIZUM" openings --count 4 --depth 5 --margin 15 --seed 3 > "$tmp/c" 2>"$tmp/err"; check $? "openings --margin 15 failed: $(cat "$tmp/err")"
check_balanced "$tmp/c" 5 15 "openings --depth 5 --margin 15"
"$GIZUM" openings --count 3 --margin x > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "bad or incomplete option '--margin'" "$tmp/err"; check $? "bad option not reported"
"$GIZUM" openings --book /nonexistent.bin > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "nonexistent" "$tmp/err"; check $? "missing book not reported"
rm -rf "$tmp"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
