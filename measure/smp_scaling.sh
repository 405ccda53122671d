#!/usr/bin/env bash
# Lazy SMP scaling on this machine: time-to-depth and nodes/second with
# Threads 1 and Threads 2 (or any list), then optionally a match of the
# highest thread count against Threads 1 at the same time control.
#
#   measure/smp_scaling.sh [-d DEPTH] [-n POSITIONS] [-r RUNS] [-T "1 2"] [-H HASH_MB]
#                        [-m GAMES] [-t TC] [-s "ELO0 ELO1"] [-x GIZUM]
#
# Defaults: depth 16, the first 10 middlegame/opening bench positions, 1 run
# per position and thread count, threads "1 2", Hash 64, no match (-m 0).
# Time-to-depth is the `time` of the line reporting the finished iteration DEPTH; every
# position starts from a fresh table (ucinewgame). Prints one row per
# position and the geometric-mean speed-up and nps ratio; with -m GAMES it
# plays that many games (pairs of colour-reversed openings) at TC (default
# 10+0.1) and prints the Elo difference with its 95 % error bar; with -s it
# stops earlier when an SPRT (logistic Elo bounds ELO0, ELO1) decides.
# -n 0 skips the time-to-depth part.
set -euo pipefail
cd "$(dirname "$0")/.."

depth=16 count=10 runs=1 threadlist="1 2" hash=64 games=0 tc="10+0.1" exe=./gizum sprt=()
while getopts "d:n:r:T:H:m:t:s:x:" opt; do
    case $opt in
    d) depth=$OPTARG ;;
    n) count=$OPTARG ;;
    r) runs=$OPTARG ;;
    T) threadlist=$OPTARG ;;
    H) hash=$OPTARG ;;
    m) games=$OPTARG ;;
    t) tc=$OPTARG ;;
    s) read -r elo0 elo1 <<<"$OPTARG"; sprt=(-sprt elo0="$elo0" elo1="$elo1" model=logistic) ;;
    x) exe=$OPTARG ;;
    *) sed -n '2,19p' "$0"; exit 2 ;;
    esac
done
[ -x "$exe" ] || make -s

# Openings and middlegames from the bench set (src/search/bench.c), the positions a game spends its time on.
positions=(
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 1 6"
    "r3k1nr/1p2bpp1/pqn1p3/3pP1p1/3P1B2/1PP4P/2QNBPP1/R4RK1 w kq - 0 17"
    "r2q3k/1bpnn1br/pp1p3p/5p2/P2P4/3BB2Q/1PPN2PP/4RRK1 w - - 5 17"
    "2r2rk1/1pq1b1pp/p1n1p3/3pPp1b/PP3Pn1/2PB1N2/2N3PP/R1B1QR1K w - - 2 17"
    "r1b2rk1/1p1nqpb1/2n3pp/p3p3/8/P1N1PN1P/1P1QBPPB/R4RK1 w - - 1 17"
    "4rrk1/1p1q2pp/p1nbp1p1/P1p5/2Pp2P1/1Q1P3P/1P1BPPB1/R3K2R w KQ - 0 19"
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "3r1rk1/1b2qpp1/2n1p2p/p1pnP3/Pp2N3/1P1B1N1P/2PQ1PP1/R3R1K1 b - - 0 19"
)
[ "$count" -le "${#positions[@]}" ] || count=${#positions[@]}

# One search: prints "ms nodes nps" of the first info line at the target depth.
search() {
    local threads=$1 fen=$2 line
    coproc ENGINE { "$exe"; }
    printf 'uci\nsetoption name Threads value %s\nsetoption name Hash value %s\nucinewgame\nisready\n' \
        "$threads" "$hash" >&"${ENGINE[1]}"
    while read -r line <&"${ENGINE[0]}"; do [ "$line" = readyok ] && break; done
    printf 'position fen %s\ngo depth %s\n' "$fen" "$depth" >&"${ENGINE[1]}"
    local result=""
    while read -r line <&"${ENGINE[0]}"; do
        case "$line" in
        *currmove* | *lowerbound* | *upperbound*) ;; # not a finished iteration
        "info depth $depth "*" pv "*) [ -z "$result" ] && result=$(echo "$line" |
                awk '{for (i = 1; i < NF; i++) { if ($i == "time") t = $(i+1); if ($i == "nodes") n = $(i+1); if ($i == "nps") s = $(i+1) } print t, n, s}') ;;
        bestmove*) break ;;
        esac
    done
    printf 'quit\n' >&"${ENGINE[1]}"
    wait "$ENGINE_PID" 2>/dev/null || true
    echo "${result:-0 0 0}"
}

[ "$count" -gt 0 ] && echo "Time to depth $depth and nodes/second, Hash $hash MB, $runs run(s) per position ($(nproc) cores online)"
header="pos"
for t in $threadlist; do header="$header  T${t}_ms  T${t}_knps"; done
[ "$count" -gt 0 ] && echo "$header"
declare -A logsum
for t in $threadlist; do logsum[time$t]=0; logsum[nps$t]=0; done
for ((p = 0; p < count; p++)); do
    row=$(printf '%3d' $((p + 1)))
    for t in $threadlist; do
        total_ms=0 total_nps=0
        for ((r = 0; r < runs; r++)); do
            read -r ms nodes nps <<<"$(search "$t" "${positions[$p]}")"
            total_ms=$((total_ms + ms)) total_nps=$((total_nps + nps))
        done
        ms=$((total_ms / runs)) nps=$((total_nps / runs))
        [ "$ms" -gt 0 ] || ms=1
        logsum[time$t]=$(awk -v s="${logsum[time$t]}" -v x="$ms" 'BEGIN {print s + log(x)}')
        logsum[nps$t]=$(awk -v s="${logsum[nps$t]}" -v x="$nps" 'BEGIN {print s + log(x > 0 ? x : 1)}')
        row="$row  $(printf '%6d  %7d' "$ms" $((nps / 1000)))"
    done
    echo "$row"
done
first=${threadlist%% *}
for t in $threadlist; do
    [ "$t" = "$first" ] || [ "$count" -eq 0 ] && continue
    awk -v a="${logsum[time$first]}" -v b="${logsum[time$t]}" -v c="${logsum[nps$first]}" -v d="${logsum[nps$t]}" \
        -v n="$count" -v t="$t" -v f="$first" 'BEGIN {
            printf "Threads %s vs %s: time-to-depth speed-up %.2fx, nps ratio %.2fx (geometric means)\n",
                t, f, exp((a - b) / n), exp((d - c) / n) }'
done

if [ "$games" -gt 0 ]; then
    last=${threadlist##* }
    [ -x ./gizum-match ] || make -s match
    openings=/work/shared/openings/noob_3moves.epd
    [ -f "$openings" ] || openings=books/openings.epd
    log=smp-match.log
    ./gizum-match -engine cmd="$exe" name="Threads$last" option.Threads="$last" \
        -engine cmd="$exe" name="Threads$first" option.Threads="$first" \
        -each tc="$tc" option.Hash="$hash" -openings file="$openings" format=epd order=random seed=1 \
        -games 2 -rounds $((games / 2)) -concurrency 1 \
        -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
        "${sprt[@]}" -ratinginterval 1000 >"$log" 2>&1 || true
    echo "Match at tc=$tc, concurrency 1 (games and engine output: $log):"
    grep -E '^(Score of|Elo difference|Pentanomial|SPRT)' "$log" | tail -n 5
fi
