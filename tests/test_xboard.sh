#!/bin/sh
# A real GUI: Debian's xboard, under Xvfb, plays a short game between two
# Gizum instances through polyglot (xboard's own way of running a UCI
# engine). From xboard's debug log: both engines start, every engine move is
# accepted (none refused as illegal, no protocol errors), and the game ends
# with a result. A screenshot of the final board is kept in build/xboard/
# for a person to look at. Needs xboard, polyglot, Xvfb, xwd (x11-apps) and
# convert (imagemagick): missing ones fail under CI=true and skip otherwise.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
PATH=$PATH:/usr/games
missing=""
for tool in xboard polyglot Xvfb xwd convert; do command -v $tool >/dev/null 2>&1 || missing="$missing $tool"; done
# /usr/local/bin/convert may be a stand-in without ImageMagick behind it.
if [ -z "$missing" ] && ! convert -version 2>/dev/null | grep -q ImageMagick; then missing="$missing convert(imagemagick)"; fi
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: missing$missing (apt-get install xboard polyglot xvfb x11-apps imagemagick)"
        echo "0 passed, 1 failed"; exit 1
    fi
    echo "SKIP: missing$missing (apt-get install xboard polyglot xvfb x11-apps imagemagick)"
    echo "0 passed, 0 failed"; exit 0
fi

case "$GIZUM" in /*) engine=$GIZUM ;; *) engine=$(pwd)/${GIZUM#./} ;; esac
out=$(pwd)/build/xboard
mkdir -p "$out"
rm -f "$out"/debug.txt "$out"/game.pgn "$out"/final.png
tmp=$(mktemp -d)
xvfb=""; xb=""
cleanup() {
    [ -n "$xb" ] && kill "$xb" 2>/dev/null
    [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

# A free display of our own.
display=""
for n in 91 92 93 94 95 96 97 98 99; do
    if [ ! -e /tmp/.X$n-lock ] && [ ! -e /tmp/.X11-unix/X$n ]; then display=$n; break; fi
done
[ -n "$display" ]; check $? "no free X display number"
Xvfb :$display -screen 0 800x600x24 -nolisten tcp > "$tmp/xvfb.log" 2>&1 &
xvfb=$!
for i in 1 2 3 4 5 6 7 8 9 10; do [ -e /tmp/.X11-unix/X$display ] && break; sleep 0.3; done
[ -e /tmp/.X11-unix/X$display ]; check $? "Xvfb did not start: $(cat "$tmp/xvfb.log")"

# Engine against engine from the start (TwoMachines), 4 plies deep, a 30 s clock
# as a backstop, drawn after 60 moves; xboard stays open after the game.
HOME=$tmp DISPLAY=:$display timeout 55 xboard \
    -fcp "$engine" -fUCI -scp "$engine" -sUCI -fd "$tmp" -sd "$tmp" \
    -adapterCommand 'polyglot -noini -ec "%fcp" -ed "%fd"' \
    -initialMode TwoMachines -depth 4 -tc 0:30 -inc 0.1 -xponder -adjudicateDrawMoves 60 \
    -debug -nameOfDebugFile "$out/debug.txt" -saveGameFile "$out/game.pgn" \
    -saveSettingsOnExit false -soundProgram true > "$tmp/xboard.log" 2>&1 &
xb=$!
ended=1
for i in $(seq 1 100); do
    if grep -q '^GameEnds([0-9]*, [^(]' "$out/debug.txt" 2>/dev/null && [ -s "$out/game.pgn" ]; then ended=0; break; fi
    kill -0 $xb 2>/dev/null || break
    sleep 0.5
done
check $ended "the game ended with a result within 50 s: $(grep '^GameEnds' "$out/debug.txt" 2>/dev/null | tail -1)"
sleep 1 # the last move drawn
DISPLAY=:$display xwd -root -silent 2>/dev/null | convert xwd:- -trim "$out/final.png" 2>/dev/null
[ -s "$out/final.png" ] && [ "$(head -c 4 "$out/final.png" | tail -c 3)" = PNG ]
check $? "screenshot of the final board in build/xboard/final.png"
kill $xb 2>/dev/null; wait $xb 2>/dev/null; xb=""

log=$out/debug.txt
[ "$(grep -c '<first : feature myname="Gizum\|<second: feature myname="Gizum' "$log")" -eq 2 ]
check $? "both engines started through polyglot as Gizum"
result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$out/game.pgn")
case "$result" in 1-0|0-1|1/2-1/2) ok=0 ;; *) ok=1 ;; esac
check $ok "the saved game has a result ($result)"
# Every move an engine sent is in the game xboard saved (none refused).
sent=$(grep -c '^[0-9]* <\(first \|second\): move ' "$log")
plies=$(sed '/^\[/d' "$out/game.pgn" | tr '\n' ' ' | sed -e 's/{[^}]*}//g' -e 's/[0-9]*\.\.\.//g' -e 's/[0-9]*\.//g' |
        tr ' ' '\n' | grep -c '^[a-hNBRQKO][a-h1-8xO=+#NBRQ-]*$')
[ "$sent" -gt 10 ] && [ "$sent" -eq "$plies" ]; check $? "every engine move accepted ($sent sent, $plies in the game)"
bad=$(grep -i -c 'illegal\|error\|tellusererror\|unknown command\|protocol' "$log")
[ "$bad" -eq 0 ]; check $? "no illegal-move or protocol complaints: $(grep -i 'illegal\|error\|unknown command\|protocol' "$log" | head -3)"
echo "xboard: $sent moves, result $result, screenshot $out/final.png"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
