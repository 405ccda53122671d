#!/bin/sh
# The layering promise, checked: every #include edge between modules goes
# from a layer to the same or a lower one. Layers, bottom up:
#   1 board    bitboards, attacks, keys, position, FEN, moves, notation, numbers, pages, perft, book/PGN reading
#   2 eval     the evaluation and its weights; the endgame tablebases (knowledge the search asks)
#   3 search   move picking, TT, time, limits, parameters, strength, search, threads
#   4 tools    protocol and tools: UCI, bench, start-up, openings, training data
#   (tools/match, the match runner, may use the board layer only.)
# A module not in the table fails the test: new files must be placed in a layer.
# `sh tests/test_layers.sh --list` prints every edge (the README's picture).
set -u
cd "$(dirname "$0")/.."

layer_of() {
    case "$1" in
    types|bitboard|attacks|magics|zobrist|position|fen|movegen|notation|numparse|pages|perft|progress|version|book/book|book/pgn|book/bookmaker) echo 1 ;;
    eval|evalweights|wdl|wdlmodel|syzygy|syzygy_format) echo 2 ;;
    history|movepick|tt|timeman|searchlimits|searchparams|strength|search|thread) echo 3 ;;
    uci|bench|init|main|shell|book/openings|dataset|datagen|genfens|searcher|epdsuite) echo 4 ;;
    match/*) echo 5 ;;
    *) echo 0 ;;
    esac
}
name_of_layer() {
    case "$1" in 1) echo board ;; 2) echo eval ;; 3) echo search ;; 4) echo tools ;; 5) echo match ;; esac
}

passed=0; failed=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in src/*.[ch] src/book/*.[ch] tools/match/*.[ch]; do
    [ -e "$f" ] || continue
    from=${f#src/}; from=${from#tools/}; from=${from%.[ch]}
    grep -o '^#include "[^"]*"' "$f" | sed 's/#include "//; s/"$//; s/\.h$//' | while read -r inc; do
        # Includes are relative to src/ (or to the including file's folder).
        case "$from" in book/*) [ -e "src/book/$inc.h" ] && inc="book/$inc" ;; esac
        case "$from" in match/*) [ -e "tools/match/$inc.h" ] && inc="match/$inc" ;; esac
        [ "$inc" = "$from" ] && continue
        echo "$from $inc"
    done
done | sort -u > "$edges"

if [ "${1:-}" = "--list" ]; then
    while read -r from to; do
        echo "$(name_of_layer "$(layer_of "$from")") $from -> $to ($(name_of_layer "$(layer_of "$to")"))"
    done < "$edges" | sort
    exit 0
fi

while read -r from to; do
    lf=$(layer_of "$from"); lt=$(layer_of "$to")
    if [ "$lf" = 0 ] || [ "$lt" = 0 ]; then
        echo "FAIL: $from -> $to: module not placed in a layer (tests/test_layers.sh)"; failed=$((failed + 1))
    elif [ "$lf" = 5 ] && [ "$lt" != 5 ] && [ "$lt" != 1 ]; then
        echo "FAIL: match runner $from includes $to ($(name_of_layer "$lt")): it may use the board only"; failed=$((failed + 1))
    elif [ "$lf" != 5 ] && [ "$lt" -gt "$lf" ]; then
        echo "FAIL: $from ($(name_of_layer "$lf")) includes $to ($(name_of_layer "$lt")), a higher layer"; failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done < "$edges"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
