#!/bin/sh
# Every file a user names for reading, when it is not a regular file (issue
# #38): a folder is named as one ("PATH: is a directory"), a FIFO is refused
# without being opened (reading one waits for a writer forever), and the
# command fails with a non-zero status instead of reporting an empty result
# ("0 games converted", "no usable record"). In UCI mode (BookFile,
# genfens) the same reason comes as an info string. One check per command
# and kind of file; a hang (20 s) is a failure.
# Needs GIZUM; MATCH overrides the match runner (default: beside GIZUM).
set -u
: "${GIZUM:?}"
MATCH=${MATCH:-$(dirname "$GIZUM")/gizum-match${GIZUM##*/gizum}}
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/folder"
mkfifo "$tmp/fifo" "$tmp/fifo.bin"

# refused WHAT PATH REASON COMMAND...: a non-zero status (not a timeout) and "PATH: REASON" on stderr.
refused() {
    what=$1 path=$2 reason=$3; shift 3
    timeout 20 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; rc=$?
    [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -qF -- "$path: $reason" "$tmp/err"
    check $? "$what: status $rc (124: hung), stderr: $(head -c 300 "$tmp/err")"
}

# said WHAT PATH REASON COMMANDS...: UCI mode answers with an info string naming the path and reason.
said() {
    what=$1 path=$2 reason=$3; shift 3
    printf '%s\n' "$@" | timeout 20 "$GIZUM" > "$tmp/out" 2>&1; rc=$?
    [ "$rc" -ne 124 ] && grep -F -- "$path: $reason" "$tmp/out" | grep -q '^info string'
    check $? "$what: status $rc (124: hung), output: $(head -c 300 "$tmp/out")"
}

for kind in folder fifo; do
    p=$tmp/$kind
    if [ $kind = folder ]; then reason="is a directory"; else reason="not a regular file (a FIFO)"; fi
    refused "epd $kind" "$p" "$reason" "$GIZUM" epd "$p" --depth 1
    refused "datagen --pgn $kind" "$p" "$reason" "$GIZUM" datagen --pgn "$p" --out "$tmp/data.txt"
    refused "datagen --book $kind (EPD starts)" "$p" "$reason" "$GIZUM" datagen --book "$p" --out "$tmp/data.txt" --positions 1
    refused "book make --pgn $kind" "$p" "$reason" "$GIZUM" book make --pgn "$p" --out "$tmp/book.bin"
    refused "book probe $kind" "$p" "$reason" "$GIZUM" book probe "$p"
    refused "book dump $kind" "$p" "$reason" "$GIZUM" book dump "$p"
    refused "openings --book $kind" "$p" "$reason" "$GIZUM" openings --book "$p" --count 1
    refused "gizum-match -openings format=epd $kind" "$p" "$reason" "$MATCH" -engine cmd="$GIZUM" -engine cmd="$GIZUM" \
        -each depth=1 -openings file="$p" format=epd -games 2
    refused "gizum-match -openings format=pgn $kind" "$p" "$reason" "$MATCH" -engine cmd="$GIZUM" -engine cmd="$GIZUM" \
        -each depth=1 -openings file="$p" format=pgn -games 2
    refused "gizum-match -config $kind" "$p" "$reason" "$MATCH" -config file="$p"
    said "UCI BookFile $kind" "$p" "$reason" "setoption name BookFile value $p" "setoption name OwnBook value true" quit
    said "UCI genfens book $kind" "$p" "$reason" "genfens 1 seed 1 book $p" quit
done
# A Polyglot book by its name (.bin) that is a FIFO: the book reader's refusal.
refused "openings --book fifo.bin" "$tmp/fifo.bin" "not a regular file (a FIFO)" "$GIZUM" openings --book "$tmp/fifo.bin" --count 1
said "UCI genfens book fifo.bin" "$tmp/fifo.bin" "not a regular file (a FIFO)" "genfens 1 seed 1 book $tmp/fifo.bin" quit

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
