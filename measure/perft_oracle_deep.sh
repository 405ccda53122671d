#!/bin/sh
# The long run of tests/test_movegen_oracle: the move generator against
# Stockfish's `go perft` on random positions weighted towards checks, pins,
# en passant, castling through attacked squares, Chess960 and endgames,
# divide by divide at depth DEPTH instead of make test's 3. Each position
# that differs is then walked down by tests/perft_oracle.sh to the smallest
# position where the move lists differ. Default: 1000 positions at depth 5
# (about 5 minutes on one core), seed 2 (make test uses 39).
#
#   measure/perft_oracle_deep.sh [-n POSITIONS] [-d DEPTH] [-s SEED]
#
# Environment: STOCKFISH (default /usr/games/stockfish); ARCH=... CC=... choose
# the build (default: make's own).
set -eu
cd "$(dirname "$0")/.."
positions=1000 depth=5 seed=2
while getopts n:d:s: opt; do
    case $opt in
    n) positions=$OPTARG ;;
    d) depth=$OPTARG ;;
    s) seed=$OPTARG ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done

vars="${ARCH:+ARCH=$ARCH} ${CC:+CC=$CC}"
build=$(make -s --no-print-directory print-build $vars)
make -s -j2 $vars gizum "$build/tests/test_movegen_oracle"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
status=0
"$build/tests/test_movegen_oracle" --positions "$positions" --depth "$depth" --seed "$seed" \
    2> "$tmp/stderr" || status=$?
grep -v '^MISMATCH ' "$tmp/stderr" >&2 || true
echo "($(( $(date +%s) - start )) s, seed $seed)"

# "MISMATCH standard|chess960 DEPTH FEN" lines: walk each down with the divide script.
for mode in standard chess960; do
    grep "^MISMATCH $mode " "$tmp/stderr" | while read -r _ _ d fen; do
        echo "$fen" > "$tmp/fen"
        echo "walking down from $fen (depth $d, $mode):"
        if [ "$mode" = chess960 ]; then tests/perft_oracle.sh -d "$d" --960 "$tmp/fen" || true
        else tests/perft_oracle.sh -d "$d" "$tmp/fen" || true; fi
    done
done
exit "$status"
