#!/usr/bin/env bash
# Compares Gizum's perft divide with Stockfish's (the oracle) on many
# positions, and on a mismatch walks down the tree to the smallest position
# where the two disagree, printing its FEN and the offending move(s).
# Not part of `make test` (it needs Stockfish and takes minutes).
#
#   tests/perft_oracle.sh [-d DEPTH] [-n COUNT] [--960] [FILE]
#       FILE: one FEN or EPD per line ("fen ;D1 20 ..." suffixes are ignored,
#       four-field EPD lines get " 0 1"; test_movegen_oracle --fens prints
#       its random positions so). Without FILE, COUNT positions are
#       taken evenly spread from /work/shared/openings/noob_3moves.epd, or
#       from 3moves_FRC.epd with --960. Defaults: DEPTH 4, COUNT 200.
#   tests/perft_oracle.sh --make-epd DEPTH [--960] [FILE]
#       Prints "FEN ;D1 n ;D2 n ... ;DDEPTH n" for each FEN, counted by
#       Stockfish alone: this is how tests/data/*.epd were produced.
#
# Environment: GIZUM (default ./gizum), STOCKFISH (default /usr/games/stockfish).
set -u

GIZUM=${GIZUM:-./gizum}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
OPENINGS=${OPENINGS:-/work/shared/openings}
depth=4
count=200
chess960=false
make_epd=0
file=""

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    -d) depth=${2:?}; shift 2 ;;
    -n) count=${2:?}; shift 2 ;;
    --960) chess960=true; shift ;;
    --make-epd) make_epd=${2:?}; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "unknown option $1" >&2; usage ;;
    *) file=$1; shift ;;
    esac
done

[ -x "$STOCKFISH" ] || { echo "perft_oracle: Stockfish not found at $STOCKFISH" >&2; exit 2; }

# Turns an EPD/FEN line into a six-field FEN (drops ";..." operations).
normalize_fen() {
    local fen=${1%%;*}
    fen=$(printf '%s' "$fen" | sed 's/[[:space:]]*$//')
    set -- $fen
    case $# in
    4) printf '%s 0 1\n' "$fen" ;;
    5) printf '%s 1\n' "$fen" ;;
    *) printf '%s %s %s %s %s %s\n' "$1" "$2" "$3" "$4" "$5" "$6" ;;
    esac
}

# Runs Stockfish's divide: prints "move count" lines then "total N".
sf_divide() {
    local fen=$1 d=$2
    printf 'setoption name UCI_Chess960 value %s\nposition fen %s\ngo perft %s\nquit\n' \
        "$chess960" "$fen" "$d" | "$STOCKFISH" 2>/dev/null |
        awk '/^[a-h][1-8][a-h][1-8][qrbn]?: [0-9]+$/ { sub(":", ""); print }
             /^Nodes searched:/ { print "total", $3 }'
}

# Gizum's divide, same output shape.
gz_divide() {
    local fen=$1 d=$2
    if [ "$chess960" = true ]; then
        GIZUM_CHESS960=1 "$GIZUM" perft "$d" "$fen" 2>&1
    else
        env -u GIZUM_CHESS960 "$GIZUM" perft "$d" "$fen" 2>&1
    fi | awk '/^[a-h][1-8][a-h][1-8][qrbn]?: [0-9]+$/ { sub(":", ""); print }
              /^Nodes searched:/ { print "total", $3 }
              /[Ee]rror|[Bb]ad|[Ii]llegal/ { print "error", $0 }'
}

# The FEN after one move, as Stockfish writes it.
sf_fen_after() {
    printf 'setoption name UCI_Chess960 value %s\nposition fen %s moves %s\nd\nquit\n' \
        "$chess960" "$1" "$2" | "$STOCKFISH" 2>/dev/null | sed -n 's/^Fen: //p'
}

# Descends from a mismatching position to the first one where the lists of
# moves differ (or depth 1). Prints the finding.
bisect() {
    local fen=$1 d=$2 path=$3
    while :; do
        local sf gz
        sf=$(sf_divide "$fen" "$d" | grep -v '^total' | sort)
        gz=$(gz_divide "$fen" "$d" | grep -v '^total' | sort)
        local missing extra
        missing=$(comm -23 <(cut -d' ' -f1 <<<"$sf" | sort) <(cut -d' ' -f1 <<<"$gz" | sort) | tr '\n' ' ')
        extra=$(comm -13 <(cut -d' ' -f1 <<<"$sf" | sort) <(cut -d' ' -f1 <<<"$gz" | sort) | tr '\n' ' ')
        if [ -n "$missing$extra" ] || [ "$d" -le 1 ]; then
            echo "  minimal: $fen (after: ${path:-none})"
            [ -n "$missing" ] && echo "  moves Gizum misses: $missing"
            [ -n "$extra" ] && echo "  moves Gizum adds (illegal): $extra"
            if grep -q '^error' <<<"$gz"; then grep '^error' <<<"$gz" | sed 's/^error /  gizum: /'; fi
            return
        fi
        local bad
        bad=$(join <(printf '%s\n' "$sf") <(printf '%s\n' "$gz") | awk '$2 != $3 { print $1; exit }')
        if [ -z "$bad" ]; then
            echo "  divides agree at $fen depth $d (totals differ only?)"
            return
        fi
        local line
        line=$(join <(printf '%s\n' "$sf") <(printf '%s\n' "$gz") | awk -v m="$bad" '$1 == m')
        echo "  $fen depth $d: $bad stockfish $(cut -d' ' -f2 <<<"$line") gizum $(cut -d' ' -f3 <<<"$line")"
        fen=$(sf_fen_after "$fen" "$bad")
        path="$path $bad"
        d=$((d - 1))
    done
}

# Positions to check, one FEN per line.
positions() {
    if [ -n "$file" ]; then
        grep -v -E '^[[:space:]]*(#|$)' "$file"
    else
        local src=$OPENINGS/noob_3moves.epd
        [ "$chess960" = true ] && src=$OPENINGS/3moves_FRC.epd
        local total step
        total=$(wc -l <"$src")
        step=$((total / count)); [ "$step" -ge 1 ] || step=1
        awk -v s="$step" -v c="$count" 'NR % s == 1 % s && n < c { print; n++ }' "$src"
    fi
}

if [ "$make_epd" -gt 0 ]; then
    positions | while IFS= read -r line; do
        fen=$(normalize_fen "$line")
        out=$fen
        for ((d = 1; d <= make_epd; d++)); do
            n=$(sf_divide "$fen" "$d" | awk '$1 == "total" { print $2 }')
            [ -n "$n" ] || { echo "stockfish gave no count for: $fen" >&2; exit 1; }
            out="$out ;D$d $n"
        done
        printf '%s\n' "$out"
    done
    exit
fi

[ -x "$GIZUM" ] || { echo "perft_oracle: Gizum binary not found at $GIZUM (build with make)" >&2; exit 2; }
# Work on a private copy so a rebuild during the run does not disturb it.
TMPDIR_ORACLE=$(mktemp -d)
trap 'rm -rf "$TMPDIR_ORACLE"' EXIT
cp "$GIZUM" "$TMPDIR_ORACLE/gizum"
GIZUM=$TMPDIR_ORACLE/gizum

checked=0; failed=0
while IFS= read -r line; do
    fen=$(normalize_fen "$line")
    sf_total=$(sf_divide "$fen" "$depth" | awk '$1 == "total" { print $2 }')
    gz_total=$(gz_divide "$fen" "$depth" | awk '$1 == "total" { print $2 }')
    checked=$((checked + 1))
    if [ -z "$sf_total" ]; then
        echo "SKIP (Stockfish refused): $fen"
        continue
    fi
    if [ -z "$gz_total" ]; then
        failed=$((failed + 1))
        echo "NO RESULT from Gizum at depth $depth: $fen"
        if [ "$chess960" = true ]; then export GIZUM_CHESS960=1; else unset GIZUM_CHESS960; fi
        "$GIZUM" perft "$depth" "$fen" 2>&1 | tail -n 3 | sed 's/^/  gizum: /'
        echo "  exit status ${PIPESTATUS[0]}"
        unset GIZUM_CHESS960
        continue
    fi
    if [ "$sf_total" != "$gz_total" ]; then
        failed=$((failed + 1))
        echo "MISMATCH depth $depth: $fen  stockfish $sf_total gizum ${gz_total:-none}"
        bisect "$fen" "$depth" ""
    fi
done < <(positions)
echo "$checked positions at depth $depth (chess960 $chess960): $((checked - failed)) agree, $failed differ"
[ "$failed" -eq 0 ]
