#!/bin/sh
# The project's testing loop: the working tree's engine against another
# revision (default HEAD~1) with gizum-match's SPRT, both colours of each
# UHO_4060_v4 opening, two games at a time.
#   measure/sprt.sh [-b REV] [-t TC] [-e "ELO0 ELO1"] [-g GAMES] [-o OPENINGS] [-n NAME]
# Defaults: -b HEAD~1 -t 4+0.04 -e "0 10" (logistic Elo). -g plays a fixed
# number of games (even) instead of the SPRT, for a confirmation at a long
# time control, e.g. -t 10+0.1 -g 300. Output: NAME.log and
# NAME.pgn (default sprt-<rev>.*) in the working directory; the last lines
# of the log are the W-L-D, Elo with its error bar and (SPRT) the LLR.
# An interrupted run (Ctrl-C, or a session's end) keeps NAME.state and its
# copy of the new engine, NAME.gizum: the same command resumes it, counting
# the finished games (delete NAME.state to start afresh).
set -eu
base=HEAD~1 tc=4+0.04 bounds="0 10" games= openings=../shared/openings/UHO_4060_v4.epd name=
while getopts b:t:e:g:o:n: opt; do
    case $opt in
    b) base=$OPTARG ;; t) tc=$OPTARG ;; e) bounds=$OPTARG ;; g) games=$OPTARG ;; o) openings=$OPTARG ;; n) name=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
    esac
done
rev=$(git rev-parse --short "$base")
name=${name:-sprt-$rev}
[ -r "$openings" ] || { echo "sprt.sh: cannot read openings $openings" >&2; exit 2; }
set -- $bounds
[ $# -eq 2 ] || { echo "sprt.sh: -e takes two Elo bounds, e.g. \"0 10\"" >&2; exit 2; }
if [ -n "$games" ]; then
    case "$games" in *[!0-9]* | 0 | *[13579])
        echo "sprt.sh: -g takes an even number of games (both colours of each opening), e.g. 300" >&2; exit 2 ;;
    esac
    rounds=$((games / 2)) stop=
else
    rounds=20000 stop="-sprt elo0=$1 elo1=$2 alpha=0.05 beta=0.05 model=logistic"
fi

. "$(dirname "$0")/machine.sh"
warn_if_nice_is_void
make -s -j2 gizum match >/dev/null
tree=build/sprt-base-$rev
if [ ! -x "$tree/gizum" ]; then
    rm -rf "$tree"
    git worktree add -f --detach "$tree" "$rev" >/dev/null 2>&1
    make -s -j2 -C "$tree" gizum >/dev/null
fi
# The games play a copy, so the working tree can be edited and rebuilt while they run;
# the copy and the match state outlive an interruption, so the run can be resumed.
case $name in */*) new=$name.gizum ;; *) new=./$name.gizum ;; esac
state=$name.state
if [ -f "$state" ] && [ -x "$new" ]; then
    echo "resuming the match saved in $state (delete it to start afresh)" | tee -a "$name.log"
else
    rm -f "$state"
    cp ./gizum "$new"
    : > "$name.log"
    : > "$name.pgn"
fi
echo "new: $("$new" bench 2>/dev/null | tail -n 1)  base $rev: $("$tree/gizum" bench 2>/dev/null | tail -n 1)"
status=0
./gizum-match -engine cmd="$new" name=new -engine cmd="$tree/gizum" name="base-$rev" \
    -each tc="$tc" option.Hash=16 option.Threads=1 \
    -openings file="$openings" format=epd order=random \
    -games 2 -rounds "$rounds" -concurrency 2 $stop \
    -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
    -config file="$state" -pgnout "$name.pgn" -ratinginterval 50 >> "$name.log" 2>&1 || status=$?
tail -n 8 "$name.log"
if [ "$status" -eq 130 ]; then
    echo "interrupted: the same command resumes the match from $state"
else
    rm -f "$new" "$state"
fi
