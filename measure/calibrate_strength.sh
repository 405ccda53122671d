#!/usr/bin/env bash
# Calibrates Gizum's strength levels against Stockfish's: at each Elo X,
# Gizum with UCI_LimitStrength/UCI_Elo=X plays Stockfish with the same
# settings; a well-calibrated level scores about 50 %.
#
#   measure/calibrate_strength.sh [-e "1350 1700 2000 2200 2350"] [-g GAMES]
#                               [-t TC] [-c CONCURRENCY] [-s STOCKFISH]
#                               [-o OPENINGS] [-S SEED] [-k]
#
# Defaults: levels 1350 1700 2000 2200 2350 (the anchors below full strength),
# 40 games per level (20 colour-reversed pairs), tc=10+0.1, concurrency 2,
# /usr/games/stockfish, openings /work/shared/openings/noob_3moves.epd (or
# books/openings.epd) in random order, shuffled with seed X + SEED (SEED 0 by
# default; another SEED draws other openings, to add games to an earlier run).
# -k keeps the PGN and logs in calibrate-<X>.{pgn,log}. Prints one table row
# per level: X, games, W-L-D, score, Elo difference with its 95 % error bar.
set -euo pipefail
cd "$(dirname "$0")/.."

levels="1350 1700 2000 2200 2350"
games=40
tc="10+0.1"
concurrency=2
stockfish=/usr/games/stockfish
openings=/work/shared/openings/noob_3moves.epd
[ -f "$openings" ] || openings=books/openings.epd
keep=0
seed=0
while getopts "e:g:t:c:s:o:S:k" opt; do
    case $opt in
    e) levels=$OPTARG ;;
    g) games=$OPTARG ;;
    t) tc=$OPTARG ;;
    c) concurrency=$OPTARG ;;
    s) stockfish=$OPTARG ;;
    o) openings=$OPTARG ;;
    S) seed=$OPTARG ;;
    k) keep=1 ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
    esac
done
# Arithmetic would read a word as 0: say so instead of running another test.
for n in "$games" "$seed"; do
    case $n in ''|*[!0-9]*) echo "calibrate_strength.sh: -g and -S take a whole number, not '$n'" >&2; exit 2 ;; esac
done
[ -x ./gizum ] || make -s
[ -x ./gizum-match ] || make -s match
[ -x "$stockfish" ] || { echo "no Stockfish at $stockfish" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %6s %-13s %7s %-22s %s\n' "UCI_Elo" "games" "W-L-D" "score" "Elo diff (Gizum - SF)" "time losses"
for elo in $levels; do
    log=$tmp/$elo.log pgn=$tmp/$elo.pgn
    [ "$keep" = 1 ] && log=calibrate-$elo.log pgn=calibrate-$elo.pgn
    rm -f "$pgn"
    ./gizum-match \
        -engine cmd=./gizum name=Gizum$elo option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
        -engine cmd="$stockfish" name=SF$elo option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
        "option.Move Overhead=50" \
        -each tc="$tc" option.Hash=16 option.Threads=1 \
        -openings file="$openings" format=epd order=random seed="$((elo + seed))" \
        -games 2 -rounds $((games / 2)) -concurrency "$concurrency" \
        -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
        -pgnout "$pgn" -ratinginterval 1000 >"$log" 2>&1 || true
    score=$(grep -E '^Score of ' "$log" | tail -n 1)
    elo_line=$(grep -E '^Elo difference' "$log" | tail -n 1)
    # "Score of A vs B: W - L - D  [0.500] N"
    wld=$(echo "$score" | sed -E 's/.*: ([0-9]+) - ([0-9]+) - ([0-9]+).*/\1-\2-\3/')
    frac=$(echo "$score" | sed -E 's/.*\[([0-9.]+)\].*/\1/')
    n=$(echo "$score" | awk '{print $NF}')
    diff=$(echo "$elo_line" | sed -E 's/Elo difference: ([^,]+),.*/\1/')
    flags=$(grep -c 'loses on time' "$log" || true)
    printf '%-6s %6s %-13s %7s %-22s %s\n' "$elo" "$n" "$wld" "$frac" "$diff" "$flags"
done
