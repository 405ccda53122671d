#!/bin/sh
# Gizum against one of the Debian anchor engines (../shared/ANCHORS.md) at the
# strength table's conditions: 10s+0.1s, 1 thread each, 16 MB hash,
# noob_3moves openings with both colours, adjudication on.
#   measure/anchor.sh [ENGINE [GAMES [TC]]]   ENGINE: ethereal (default), toga2, glaurung
# Needs ./gizum and ./gizum-match (make match). GIZUM=path plays another build.
# Results go to anchor-ENGINE.log and anchor-ENGINE.pgn in the working directory.
set -eu
engine=${1:-ethereal} games=${2:-100} tc=${3:-10+0.1}
openings=${OPENINGS:-../shared/openings/noob_3moves.epd}
gizum=${GIZUM:-./gizum}
# The opponent's settings (ANCHORS.md's fair-match options) become the positional arguments.
case $engine in
    ethereal) set -- cmd=/usr/games/ethereal-chess name=Ethereal12 option.Threads=1 ;;
    toga2) set -- cmd=/usr/games/toga2 name=Toga2 option.OwnBook=false "option.Number of Threads=1" ;;
    glaurung) set -- cmd=/usr/games/glaurung name=Glaurung22 option.Threads=1 option.Ponder=false option.OwnBook=false ;;
    *) echo "anchor.sh: unknown engine '$engine' (ethereal, toga2, glaurung)" >&2; exit 2 ;;
esac
: > "anchor-$engine.pgn" # gizum-match appends; one run, one PGN
./gizum-match -engine cmd="$gizum" name=Gizum option.Threads=1 -engine "$@" \
    -each tc="$tc" option.Hash=16 \
    -openings file="$openings" format=epd order=random seed=12 \
    -games 2 -rounds $((games / 2)) -concurrency 2 \
    -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
    -pgnout "anchor-$engine.pgn" -ratinginterval 10 > "anchor-$engine.log" 2>&1
grep -E "^Score of|^Elo difference|^Pentanomial" "anchor-$engine.log" | tail -n 3
echo "time losses: $(grep -c 'loses on time' "anchor-$engine.log" || true), illegal moves: $(grep -c 'illegal' "anchor-$engine.log" || true)"
