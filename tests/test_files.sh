#!/bin/sh
# Every file a user names (issue #38), through src/base/files.c.
# Read: a folder is named as one ("cannot open PATH: is a directory"), a
# FIFO is refused without being opened (reading one waits for a writer
# forever), and the command fails with a non-zero status instead of
# reporting an empty result ("0 games converted", "no usable record"); in
# UCI mode (BookFile, genfens) the same reason comes as an info string.
# Written: what is not a regular file (a folder, a FIFO, a device) is never
# replaced nor written into ("cannot write PATH: reason", non-zero status);
# a symbolic link is followed and its target written, the link kept; whole
# files (a book) are written beside the target and renamed over it (a new
# inode, no temporary file left); appending writers (datagen) still append.
# One check for the readers and one for the writers, each over every
# command and kind of file (a FAIL line per case that breaks it); a hang
# (20 s) is a failure.
# gizum-tune's inputs, --out and --wdl-out are checked in test_tuner.c.
# Needs GIZUM; MATCH overrides the match runner (default: beside GIZUM).
set -u
: "${GIZUM:?}"
MATCH=${MATCH:-$(dirname "$GIZUM")/gizum-match${GIZUM##*/gizum}}
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
# A case of a check over many: case_of names a failing case, cases_done counts them all once.
failing=0; cases=0
case_of() { cases=$((cases + 1)); if [ "$1" != 0 ]; then failing=$((failing + 1)); echo "FAIL: $2"; fi; }
cases_done() { check "$failing" "$1: $failing of $cases cases failed"; failing=0; cases=0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/folder"
mkfifo "$tmp/fifo" "$tmp/fifo.bin"

# refused WHAT PATH REASON COMMAND...: a non-zero status (not a timeout), "PATH: REASON" on stderr,
# and PATH still of the kind it was.
refused() {
    what=$1 path=$2 reason=$3; shift 3
    before=$(ls -ld "$path" | cut -c1)
    timeout 20 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null; rc=$?
    [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -qF -- "$path: $reason" "$tmp/err" \
        && [ "$(ls -ld "$path" | cut -c1)" = "$before" ]
    case_of $? "$what: status $rc (124: hung), stderr: $(head -c 300 "$tmp/err")"
}

# said WHAT PATH REASON COMMANDS...: UCI mode answers with an info string naming the path and reason.
said() {
    what=$1 path=$2 reason=$3; shift 3
    printf '%s\n' "$@" | timeout 20 "$GIZUM" > "$tmp/out" 2>&1; rc=$?
    [ "$rc" -ne 124 ] && grep -F -- "$path: $reason" "$tmp/out" | grep -q '^info string'
    case_of $? "$what: status $rc (124: hung), output: $(head -c 300 "$tmp/out")"
}

# ---------------------------------------------------------------- files read
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
cases_done "every reader refuses a folder and a FIFO"

# ---------------------------------------------------------------- files written
cat > "$tmp/games.pgn" <<'PGN'
[Event "a"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0

[Event "b"]
[Result "0-1"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 0-1
PGN

# A device of the test's own (a null device) when the system lets us make one. /dev/null itself
# only when not root: root could rename a file over it if the refusal broke (it did once).
if mknod "$tmp/null" c 1 3 2> /dev/null; then device=$tmp/null
elif [ "$(id -u)" != 0 ]; then device=/dev/null
else device=; echo "SKIP: no device to write to (mknod failed)"; fi

for kind in folder fifo device; do
    case $kind in
        folder) p=$tmp/folder reason="is a directory" ;;
        fifo) p=$tmp/fifo reason="not a regular file (a FIFO)" ;;
        device) p=$device reason="not a regular file (a device)"; [ -n "$p" ] || continue ;;
    esac
    refused "book make --out $kind" "$p" "$reason" "$GIZUM" book make --pgn "$tmp/games.pgn" --out "$p" --min-games 1
    refused "datagen --pgn --out $kind" "$p" "$reason" "$GIZUM" datagen --pgn "$tmp/games.pgn" --out "$p"
    refused "datagen self-play --out $kind" "$p" "$reason" "$GIZUM" datagen --out "$p" --games 1 --nodes 50
    refused "gizum-match -pgnout $kind" "$p" "$reason" "$MATCH" -engine cmd="$GIZUM" -engine cmd="$GIZUM" \
        -each depth=1 -games 2 -maxmoves 4 -pgnout "$p"
    refused "gizum-match -epdout $kind" "$p" "$reason" "$MATCH" -engine cmd="$GIZUM" -engine cmd="$GIZUM" \
        -each depth=1 -games 2 -maxmoves 4 -epdout "$p"
    refused "gizum-match -log $kind" "$p" "$reason" "$MATCH" -engine cmd="$GIZUM" -engine cmd="$GIZUM" \
        -each depth=1 -games 2 -maxmoves 4 -log "$p"
done
cases_done "every writer refuses a folder, a FIFO and a device"

# A book written through a symbolic link: the target replaced (new inode), the link kept, nothing left over.
printf 'old' > "$tmp/real.bin"
ln -s real.bin "$tmp/link.bin"
inode=$(ls -i "$tmp/real.bin" | cut -d' ' -f1)
"$GIZUM" book make --pgn "$tmp/games.pgn" --out "$tmp/link.bin" --min-games 1 > /dev/null 2>&1
[ -L "$tmp/link.bin" ] && [ "$(wc -c < "$tmp/real.bin")" -gt 3 ] && [ "$(wc -c < "$tmp/real.bin")" -eq $(( $(wc -c < "$tmp/real.bin") / 16 * 16 )) ]
check $? "book make through a link: the link kept and its target written: $(ls -l "$tmp")"
[ "$(ls -i "$tmp/real.bin" | cut -d' ' -f1)" != "$inode" ] && [ -z "$(ls "$tmp" | grep -i tmp)" ]
check $? "book make replaces the target by a rename and leaves no temporary file: $(ls "$tmp")"

# datagen --pgn appends across runs, through a link too.
ln -s data.txt "$tmp/data-link.txt"
"$GIZUM" datagen --pgn "$tmp/games.pgn" --out "$tmp/data-link.txt" 2> /dev/null
n1=$(wc -l < "$tmp/data.txt")
"$GIZUM" datagen --pgn "$tmp/games.pgn" --out "$tmp/data-link.txt" 2> /dev/null
[ -L "$tmp/data-link.txt" ] && [ "$n1" -gt 0 ] && [ "$(wc -l < "$tmp/data.txt")" -eq $((2 * n1)) ]
check $? "datagen --pgn appends through a link: $n1 then $(wc -l < "$tmp/data.txt") lines"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
