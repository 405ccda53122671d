#!/bin/sh
# Gizum against Debian's Stockfish at fixed UCI_Elo levels (where full strength
# stands on Stockfish's UCI_Elo scale, docs/results.md): 10s+0.1s, 1 thread,
# 16 MB hash, balanced openings with both colours.
#   measure/strength.sh [ELO GAMES]...      e.g. measure/strength.sh 2400 60 2600 60
# Needs ./gizum, ./gizum-match (make match) and a Stockfish with UCI_Elo:
# STOCKFISH=path (default Debian's /usr/games/stockfish). Results go
# to strength-<elo>.log and strength-<elo>.pgn in the working directory.
set -eu
openings=${OPENINGS:-../shared/openings/noob_3moves.epd}
gizum=${GIZUM:-./gizum}
stockfish=${STOCKFISH:-/usr/games/stockfish}
[ -x "$stockfish" ] || { echo "strength.sh: $stockfish is not an executable program (set STOCKFISH=path)" >&2; exit 2; }
[ $# -ge 2 ] || set -- 2400 60 2600 60
while [ $# -ge 2 ]; do
    elo=$1 games=$2; shift 2
    # Stockfish keeps a larger Move Overhead so that a busy 2-core machine does not flag it.
    ./gizum-match -engine cmd="$gizum" name=Gizum \
        -engine cmd="$stockfish" name="SF$elo" option.UCI_LimitStrength=true "option.UCI_Elo=$elo" \
            "option.Move Overhead=50" \
        -each tc=10+0.1 option.Hash=16 option.Threads=1 \
        -openings file="$openings" format=epd order=random seed="$elo" \
        -games 2 -rounds $((games / 2)) -concurrency 2 \
        -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
        -pgnout "strength-$elo.pgn" -ratinginterval 20 > "strength-$elo.log" 2>&1
    grep -E "^Score of|^Elo difference|^Pentanomial" "strength-$elo.log" | tail -n 3
    echo "time losses: $(grep -c 'loses on time' "strength-$elo.log" || true), illegal moves: $(grep -c 'illegal' "strength-$elo.log" || true)"
done
