#!/bin/sh
# What the Syzygy tables are worth: Gizum with SyzygyPath against the same
# Gizum without, through gizum-match, both colours of each opening, two games
# at a time, no adjudication (the endgames the tables change are played out).
#   measure/tb_elo.sh [-n GAMES | -e "ELO0 ELO1"] [-t TC] [-o OPENINGS] [-p TABLES] [-x NAME]
# Defaults: -n 400 games, -t 10+0.1, -o ../shared/openings/noob_3moves.epd beside the repository
# (balanced, so more games reach the tables than from UHO), -p ../shared/syzygy.
# -e runs an SPRT (logistic Elo) instead of a fixed count. Output: NAME.log and
# NAME.pgn (default tb-elo-<rev>.*, overwritten) in the working directory; the last lines
# are the W-L-D, Elo with its error bar (and the LLR), then in how many games
# the engine with tables probed them at all (its tbhits, from the PGN comments).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
games=400 bounds= tc=10+0.1 openings=$root/../shared/openings/noob_3moves.epd tables=$root/../shared/syzygy name=
while getopts n:e:t:o:p:x: opt; do
    case $opt in
    n) games=$OPTARG ;; e) bounds=$OPTARG ;; t) tc=$OPTARG ;; o) openings=$OPTARG ;; p) tables=$OPTARG ;;
    x) name=$OPTARG ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
    esac
done
case $games in '' | *[!0-9]* | 0) echo "tb_elo.sh: -n takes a positive number of games" >&2; exit 2 ;; esac
[ -r "$openings" ] || { echo "tb_elo.sh: cannot read openings $openings" >&2; exit 2; }
ls "$tables"/*.rtbw >/dev/null 2>&1 || { echo "tb_elo.sh: no Syzygy tables (*.rtbw) in $tables" >&2; exit 2; }
tables=$(cd "$tables" && pwd)
name=${name:-tb-elo-$(git -C "$root" rev-parse --short HEAD)}

if [ -n "$bounds" ]; then
    set -- $bounds
    [ $# -eq 2 ] || { echo "tb_elo.sh: -e takes two Elo bounds, e.g. \"0 10\"" >&2; exit 2; }
    set -- -rounds 20000 -sprt elo0="$1" elo1="$2" alpha=0.05 beta=0.05 model=logistic
else
    set -- -rounds $(( (games + 1) / 2 ))
fi

make -s -j2 -C "$root" gizum match >/dev/null
engine=$root/gizum
seed=$(date +%s)
rm -f "$name.pgn" "$name.log"
echo "$("$engine" bench 2>/dev/null | tail -n 1); tables: $("$engine" "setoption name SyzygyPath value $tables" 2>&1 |
    sed -n 's/^info string //p'); openings: $openings, seed $seed"
"$root/gizum-match" -engine cmd="$engine" name=tables option.SyzygyPath="$tables" -engine cmd="$engine" name=no-tables \
    -each tc="$tc" option.Hash=16 option.Threads=1 \
    -openings file="$openings" format=epd order=random -srand "$seed" \
    -games 2 "$@" -concurrency 2 -maxmoves 400 \
    -pgnout file="$name.pgn" tbhits=true -ratinginterval 50 > "$name.log" 2>&1 || true
tail -n 8 "$name.log"
# Move comments carry each engine's tbhits=N: a game with one above 0 is a game the tables could change.
awk '/^\[Event /{ n++ } /tbhits=[1-9]/{ if (seen != n) { hit++; seen = n } }
     END{ printf "games in which the engine with tables probed them: %d of %d\n", hit, n }' "$name.pgn"
