#!/usr/bin/env bash
# Single-threaded perft speed: Gizum against Stockfish's `go perft`.
#
#   measure/perft_speed.sh [GIZUM_BINARY] [ROUNDS]
#
# Runs start-position perft 6 and Kiwipete perft 5 on Gizum (default ./gizum;
# builds nothing) and, when Stockfish is installed (STOCKFISH, default
# /usr/games/stockfish), the same in Stockfish, ROUNDS times (default 5),
# alternating the two engines so that machine noise hits both alike.
# Both engines are timed the same way, since Stockfish prints no speed for
# perft: the time of the whole process minus the time of the same command at
# depth 1 (start-up, network loading, table building). The clock is the
# process's CPU time (user + system) by default, which other jobs on a busy
# machine disturb far less than wall time; PERFT_SPEED_CLOCK=wall uses wall
# time instead. Prints nodes/second per engine (medians) and the median of
# the per-round ratios Gizum / Stockfish.
set -u

GIZUM=${1:-./gizum}
ROUNDS=${2:-5}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}

[ -x "$GIZUM" ] || { echo "perft_speed: no Gizum binary at $GIZUM (run make first)" >&2; exit 2; }
have_sf=false
[ -x "$STOCKFISH" ] && have_sf=true

CLOCK=${PERFT_SPEED_CLOCK:-cpu}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Runs a command, output to $TMP/out; prints the elapsed nanoseconds on the chosen clock.
timed() {
    local TIMEFORMAT='%3R %3U %3S'
    { time "$@" >"$TMP/out" 2>&1; } 2>"$TMP/time"
    awk -v clock="$CLOCK" '{ s = clock == "wall" ? $1 : $2 + $3; printf "%.0f\n", s * 1e9 }' "$TMP/time"
}

gizum_cmd() { env -u GIZUM_CHESS960 "$GIZUM" perft "$1" "$2"; }
stockfish_cmd() {
    printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$2" "$1" | "$STOCKFISH"
}

# Nanoseconds an engine takes for perft DEPTH of FEN; prints "ns nodes".
gizum_run() {
    local ns
    ns=$(timed gizum_cmd "$1" "$2")
    echo "$ns $(awk '/^Nodes searched:/ { print $3 }' "$TMP/out")"
}
stockfish_run() {
    local ns
    ns=$(timed stockfish_cmd "$1" "$2")
    echo "$ns $(awk '/^Nodes searched:/ { print $3 }' "$TMP/out")"
}

# Nodes per second of one engine on one position, start-up subtracted.
speed() {
    local engine=$1 depth=$2 fen=$3 expected=$4 full base ns nodes
    base=$($engine 1 "$fen")
    full=$($engine "$depth" "$fen")
    nodes=${full#* }
    if [ "$nodes" != "$expected" ]; then
        echo "perft_speed: $engine depth $depth gave '${nodes}' nodes, expected $expected" >&2
        echo 0
        return
    fi
    ns=$(( ${full%% *} - ${base%% *} ))
    [ "$ns" -gt 0 ] || ns=1
    awk -v n="$nodes" -v t="$ns" 'BEGIN { printf "%.0f\n", n / (t / 1e9) }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

NAMES=("startpos" "kiwipete")
DEPTHS=(6 5)
COUNTS=(119060324 193690690)
FENS=("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")

echo "perft speed, 1 thread, $ROUNDS rounds, $CLOCK time; Gizum: $GIZUM; Stockfish: $($have_sf && echo "$STOCKFISH" || echo "not found")"
all_ratios=""
status=0
for i in "${!NAMES[@]}"; do
    g_list=""; s_list=""; r_list=""
    for ((r = 1; r <= ROUNDS; r++)); do
        g=$(speed gizum_run "${DEPTHS[$i]}" "${FENS[$i]}" "${COUNTS[$i]}")
        [ "$g" = 0 ] && status=1
        g_list="$g_list $g"
        if $have_sf; then
            s=$(speed stockfish_run "${DEPTHS[$i]}" "${FENS[$i]}" "${COUNTS[$i]}")
            s_list="$s_list $s"
            ratio=$(awk -v a="$g" -v b="$s" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }')
            r_list="$r_list $ratio"
            printf '  %-9s round %d: gizum %6.1f Mnps  stockfish %6.1f Mnps  ratio %s\n' "${NAMES[$i]}" "$r" \
                "$(awk -v v="$g" 'BEGIN { print v / 1e6 }')" "$(awk -v v="$s" 'BEGIN { print v / 1e6 }')" "$ratio"
        else
            printf '  %-9s round %d: gizum %6.1f Mnps\n' "${NAMES[$i]}" "$r" "$(awk -v v="$g" 'BEGIN { print v / 1e6 }')"
        fi
    done
    gm=$(tr ' ' '\n' <<<"$g_list" | grep . | median)
    if $have_sf; then
        sm=$(tr ' ' '\n' <<<"$s_list" | grep . | median)
        rm_=$(tr ' ' '\n' <<<"$r_list" | grep . | median)
        all_ratios="$all_ratios $r_list"
        gb=$(tr ' ' '\n' <<<"$g_list" | grep . | sort -g | tail -n 1)
        sb=$(tr ' ' '\n' <<<"$s_list" | grep . | sort -g | tail -n 1)
        printf '%-9s perft %d: gizum %.1f Mnps, stockfish %.1f Mnps, median ratio %.2f (best runs: %.1f / %.1f = %.2f)\n' \
            "${NAMES[$i]}" "${DEPTHS[$i]}" "$(awk -v v="$gm" 'BEGIN { print v / 1e6 }')" \
            "$(awk -v v="$sm" 'BEGIN { print v / 1e6 }')" "$rm_" "$(awk -v v="$gb" 'BEGIN { print v / 1e6 }')" \
            "$(awk -v v="$sb" 'BEGIN { print v / 1e6 }')" "$(awk -v a="$gb" -v b="$sb" 'BEGIN { print (b > 0 ? a / b : 0) }')"
    else
        printf '%-9s perft %d: gizum %.1f Mnps\n' "${NAMES[$i]}" "${DEPTHS[$i]}" "$(awk -v v="$gm" 'BEGIN { print v / 1e6 }')"
    fi
done
if $have_sf; then
    printf 'median ratio gizum/stockfish over all runs: %.2f\n' "$(tr ' ' '\n' <<<"$all_ratios" | grep . | median)"
fi
exit $status
