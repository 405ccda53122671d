#!/usr/bin/env bash
# Clock safety: plays Gizum against itself at fast and sudden-death clocks
# under load and measures how close it comes to losing on time (issue #38).
#
#   measure/clock.sh [-x GIZUM] [-y OPPONENT] [-t "10+0.1 1+0.01 10+0"] [-T "1 2"]
#                    [-g GAMES] [-c CONCURRENCY] [-l LIMIT_MS] [-o OUTDIR]
#   measure/clock.sh -a [-l LIMIT_MS] FILE.pgn ...    (only judge games already played)
#
# Every clock (-t) is played with every thread count (-T), GAMES games each
# (default 20), CONCURRENCY at a time (default 2: with the referee that loads
# two cores), with gizum-match -overrun: Gizum runs in UCI debug mode and says
# before each bestmove its time plan and what it used of it, the PGN keeps the
# clock after each move (tl=) and both. OPPONENT (default: GIZUM again, so
# both sides are measured; an older Gizum, to compare two time managers under
# the same load) plays with as many threads.
# For each engine that reported its time plan, one line per condition:
#   games, time losses, moves; the clock left when the move arrived (before
#   the increment): minimum, 1st percentile, moves under 100, 50 and 0 ms (a
#   move under 0 ms lost on time with a referee that forgives nothing); the
#   worst overrun of the engine's own maximum by its own clock and the moves
#   over LIMIT_MS; the same less the time the machine kept its search from
#   running (Gizum's "waited": its wall time less its processor time); that
#   less the stalls the thread could not see too (Gizum's "gap": the processor
#   time charged between two of its clock reads beyond the 1 ms of work
#   between them, summed over the move; on a virtual machine the host can
#   freeze the core for 100 ms and the guest counts it as the thread's), the
#   overrun the engine itself
#   is to blame for; and as the tool measured it (pipe and scheduling latency
#   included).
# A condition fails on any time loss of such an engine or an overrun less the
# waits and the unseen stalls of more than LIMIT_MS (default 5). The closing line is "N passed, M
# failed" (one check per condition); the exit status is 1 when one failed.
# Each condition first says how busy the machine was (load average, and the
# share of time a task waited for a core, from /proc/pressure/cpu).
# PGNs and logs go to OUTDIR (default clock-logs/).
set -euo pipefail
cd "$(dirname "$0")/.."

exe=./gizum opponent= clocks="10+0.1 1+0.01 10+0" threads="1 2" games=20 concurrency=2 limit=5
outdir=clock-logs analyse=0
usage() { sed -n '2,33p' "$0"; exit 2; }
while getopts "x:y:t:T:g:c:l:o:a" opt; do
    case $opt in
    x) exe=$OPTARG ;;
    y) opponent=$OPTARG ;;
    t) clocks=$OPTARG ;;
    T) threads=$OPTARG ;;
    g) games=$OPTARG ;;
    c) concurrency=$OPTARG ;;
    l) limit=$OPTARG ;;
    o) outdir=$OPTARG ;;
    a) analyse=1 ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))

# Judges the games of PGN files: one line per engine that reported its time
# plan ("max=" in the move comments), prefixed by LABEL; exit status 1 when
# one of them lost on time or, less the time the machine kept it waiting,
# overran its own maximum by more than LIMIT ms.
judge() {
    local label=$1; shift
    local moves
    moves=$(mktemp)
    # Pass 1: one line per move "engine left own running tool" in ms (NA when
    # not reported) and one per game "#game engine lost_on_time".
    awk -v out="$moves" '
        function flush_game(   n, parts, i, side, name, c, sec, tl, mx, used, waited, gap, own, running, unseen, first, lost) {
            if (!inGame) return
            first = fen ~ /^[^ ]+ b / ? "b" : "w"
            n = split(text, parts, "}")
            for (i = 1; i < n; i++) {
                side = ((i - 1) % 2 == 0) == (first == "w") ? "w" : "b"
                name = side == "w" ? white : black
                c = substr(parts[i], index(parts[i], "{") + 1)
                if (c !~ /max=/) continue
                sec = c; sub(/^[^ ]* /, "", sec); sub(/s.*/, "", sec)
                tl = field(c, "tl"); mx = field(c, "max"); used = field(c, "used"); waited = field(c, "waited")
                gap = field(c, "gap")
                own = used == "" ? "NA" : sprintf("%.0f", (used - mx) * 1000)
                running = own == "NA" ? "NA" : waited == "" ? own : sprintf("%.0f", (used - waited - mx) * 1000)
                # Stalls the thread did not see (its processor time ran on between two clock
                # reads, beyond the 1 ms of work between them: Gizum sums them) were the machine.
                unseen = gap == "" ? 0 : gap * 1000
                printf "%s %s %s %s %s %s %s\n", name, tl == "" ? "NA" : sprintf("%.0f", (tl - inc) * 1000), own,
                       running, sprintf("%.0f", (sec - mx) * 1000),
                       running == "NA" ? "NA" : sprintf("%.0f", running - unseen), gap == "" ? "NA" : sprintf("%.0f", gap * 1000) > out
                reported[name] = 1
            }
            for (name in reported) {
                lost = termination == "time forfeit" && ((result == "1-0" && name == black) || (result == "0-1" && name == white))
                printf "#game %s %d\n", name, lost > out
            }
            split("", reported)
            inGame = 0
        }
        function field(c, key) {
            if (!match(c, key "=[0-9.]+")) return ""
            return substr(c, RSTART + length(key) + 1, RLENGTH - length(key) - 1) + 0
        }
        /^\[Event / { flush_game(); inGame = 1; text = ""; fen = ""; termination = ""; inc = 0 }
        /^\[White / { white = tag($0) }
        /^\[Black / { black = tag($0) }
        /^\[Result / { result = tag($0) }
        /^\[FEN / { fen = tag($0) }
        /^\[Termination / { termination = tag($0) }
        /^\[TimeControl / { inc = match($0, /\+[0-9.]+/) ? substr($0, RSTART + 1, RLENGTH - 1) + 0 : 0 }
        /^\[/ { next }
        { text = text " " $0 }
        function tag(line) { sub(/^\[[A-Za-z]+ "/, "", line); sub(/"\]$/, "", line); return line }
        END { flush_game() }
    ' "$@"
    local names status=0 name
    names=$(awk '$1 == "#game" { print $2 }' "$moves" | sort -u)
    if [ -z "$names" ]; then
        echo "$label: no engine reported its time plan (gizum-match -overrun, an engine that prints it)"
        rm -f "$moves"
        return 1
    fi
    for name in $names; do
        local g l m own ownOver running runningOver tool engine engineOver gap count min p1 under100 under50 under0 verdict=ok
        read -r g l m own ownOver running runningOver tool engine engineOver gap < <(awk -v n="$name" -v limit="$limit" '
            function worst(w, v) { return v == "NA" ? w : (w == "NA" || v + 0 > w + 0) ? v : w }
            $1 == "#game" && $2 == n { games++; losses += $3; next }
            $1 == n {
                moves++
                if ($2 != "NA") print $2 > "/dev/stderr"
                own = worst(own, $3); running = worst(running, $4); tool = worst(tool, $5)
                engine = worst(engine, $6); gap = worst(gap, $7)
                if ($3 != "NA" && $3 > limit) ownOver++
                if ($4 != "NA" && $4 > limit) runningOver++
                if ($6 != "NA" && $6 > limit) engineOver++
            }
            BEGIN { own = running = tool = engine = gap = "NA" }
            END { printf "%d %d %d %s %d %s %d %s %s %d %s\n", games, losses, moves, own, ownOver, running, runningOver, tool,
                         engine, engineOver, gap }
        ' "$moves" 2>"$moves.left")
        sort -n "$moves.left" -o "$moves.left"
        count=$(wc -l <"$moves.left")
        if [ "$count" -gt 0 ]; then
            min=$(head -n 1 "$moves.left")
            p1=$(sed -n "$(( (count + 99) / 100 ))p" "$moves.left")
            under100=$(awk '$1 < 100' "$moves.left" | wc -l)
            under50=$(awk '$1 < 50' "$moves.left" | wc -l)
            under0=$(awk '$1 < 0' "$moves.left" | wc -l)
        else
            min=NA p1=NA under100=NA under50=NA under0=NA
        fi
        if [ "$l" -gt 0 ] || [ "$engineOver" -gt 0 ]; then verdict=FAILED; status=1; fi
        printf '%s %s: %d games, %d time losses, %d moves; left at the move (before the increment): min %s ms, 1%% %s ms, <100 ms %s, <50 ms %s, <0 ms %s; overrun of its own maximum: worst %s ms (%d > %s ms), less the waits %s ms (%d > %s ms), less the unseen stalls too %s ms (%d > %s ms; most unseen stalls in a move %s ms), by the tool %s ms: %s\n' \
            "$label" "$name" "$g" "$l" "$m" "$min" "$p1" "$under100" "$under50" "$under0" "$own" "$ownOver" "$limit" \
            "$running" "$runningOver" "$limit" "$engine" "$engineOver" "$limit" "$gap" "$tool" "$verdict"
    done
    rm -f "$moves" "$moves.left"
    return $status
}

if [ "$analyse" = 1 ]; then
    [ $# -gt 0 ] || usage
    if judge "games" "$@"; then echo "1 passed, 0 failed"; exit 0; else echo "0 passed, 1 failed"; exit 1; fi
fi

. "$(dirname "$0")/machine.sh"
warn_if_nice_is_void
[ -x "$exe" ] || make -s
[ -x ./gizum-match ] || make -s match
mkdir -p "$outdir"
openings=../shared/openings/noob_3moves.epd
[ -f "$openings" ] || openings=books/openings.epd
[ -n "$opponent" ] || opponent=$exe

passed=0 failed=0
for tc in $clocks; do
    for t in $threads; do
        label="tc=$tc threads=$t"
        echo "$label: starts with $(machine_load)"
        pgn="$outdir/clock-$tc-t$t.pgn" log="$outdir/clock-$tc-t$t.log"
        rm -f "$pgn"
        ./gizum-match -engine cmd="$exe" name="$(basename "$exe")" -engine cmd="$opponent" name="$(basename "$opponent")" \
            -each tc="$tc" option.Threads="$t" option.Hash=16 -openings file="$openings" format=epd order=random \
            -srand "$RANDOM" -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=1000 \
            -games 2 -rounds $(( (games + 1) / 2 )) -concurrency "$concurrency" -ratinginterval 0 -overrun \
            -pgnout file="$pgn" timeleft=true >"$log" 2>&1 || true
        echo "$label: ends with $(machine_load)"
        if judge "$label" "$pgn"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
