#!/bin/sh
# Gizum against an anchor engine at the strength table's conditions: 10s+0.1s,
# 1 thread each, 16 MB hash, noob_3moves openings with both colours,
# adjudication on (docs/results.md, Strength).
#   measure/anchor.sh ENGINE [GAMES [TC]]
# ENGINE: a UCI engine's program (a path, e.g. an Ethereal or Stockfish built
# from its own sources for this CPU: docs/strength.md says how), or one of
# the Debian packages by name: ethereal (Debian's baseline build), toga2,
# glaurung. NAME=... names the opponent in the PGN (default: the program's
# file name). Default GAMES 200, TC 10+0.1. SEED=... draws other openings
# (default 12, the strength table's), to add games to a measurement.
# Needs ./gizum and ./gizum-match (make match). GIZUM=path plays another build.
# Results: anchor-NAME.log and anchor-NAME.pgn in the working directory.
set -eu
. "$(dirname "$0")/machine.sh"
warn_if_nice_is_void
[ $# -ge 1 ] || { sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 2; }
engine=$1 games=${2:-200} tc=${3:-10+0.1}
openings=${OPENINGS:-../shared/openings/noob_3moves.epd}
gizum=${GIZUM:-./gizum}
seed=${SEED:-12}
case "$seed" in *[!0-9]* | '') echo "anchor.sh: SEED must be a number, got '$seed'" >&2; exit 2 ;; esac
case "$games" in *[!0-9]* | '' | 0 | *[13579]) echo "anchor.sh: GAMES must be an even number, got '$games'" >&2; exit 2 ;; esac
# The opponent's settings (ANCHORS.md's fair-match options) become the positional arguments.
case $engine in
    ethereal) name=${NAME:-Ethereal12-debian}; set -- cmd=/usr/games/ethereal-chess option.Threads=1 ;;
    toga2) name=${NAME:-Toga2}; set -- cmd=/usr/games/toga2 option.OwnBook=false "option.Number of Threads=1" ;;
    glaurung) name=${NAME:-Glaurung22}; set -- cmd=/usr/games/glaurung option.Threads=1 option.Ponder=false option.OwnBook=false ;;
    */*)
        [ -x "$engine" ] || { echo "anchor.sh: $engine is not an executable program" >&2; exit 2; }
        name=${NAME:-$(basename "$engine")}; set -- cmd="$engine" option.Threads=1 ;;
    *) echo "anchor.sh: unknown engine '$engine' (a program's path, or ethereal, toga2, glaurung)" >&2; exit 2 ;;
esac
: > "anchor-$name.pgn" # gizum-match appends; one run, one PGN
status=0
./gizum-match -engine cmd="$gizum" name=Gizum option.Threads=1 -engine name="$name" "$@" \
    -each tc="$tc" option.Hash=16 \
    -openings file="$openings" format=epd order=random seed="$seed" \
    -games 2 -rounds $((games / 2)) -concurrency 2 \
    -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
    -pgnout "anchor-$name.pgn" -ratinginterval 10 > "anchor-$name.log" 2>&1 || status=$?
grep -E "^Score of|^Elo difference|^Pentanomial" "anchor-$name.log" | tail -n 3
echo "time losses: $(grep -c 'loses on time' "anchor-$name.log" || true), illegal moves: $(grep -c 'illegal' "anchor-$name.log" || true)"
[ "$status" -eq 0 ] || echo "anchor.sh: gizum-match failed (status $status): see anchor-$name.log" >&2
exit "$status"
