#!/bin/sh
# Polyglot interoperability of `gizum book`: books made by Debian's polyglot
# (make-book) and by Gizum from the same PGN hold the same entries, each tool
# reads the other's books, books/gizum.bin is reproducible from its PGN, and
# the book commands reject bad input with a message.
# Needs GIZUM (the engine binary); polyglot is looked up at POLYGLOT,
# /usr/games/polyglot or on PATH. A missing polyglot is a failure (CI installs it).
set -u
: "${GIZUM:?GIZUM must name the gizum binary}"
passed=0; failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL test_book.sh: $*" >&2; }
check() { # check DESCRIPTION COMMAND...
    desc=$1; shift
    if "$@"; then ok; else fail "$desc"; fi
}
# One check over the cases of a loop: offender names a failing case, cases_done counts the loop once.
offenders=0
offender() { offenders=$((offenders + 1)); echo "FAIL test_book.sh: $*" >&2; }
cases_done() { # cases_done DESCRIPTION
    if [ "$offenders" -eq 0 ]; then ok; else fail "$1: $offenders cases failed"; fi
    offenders=0
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gizum-book-sh.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

POLYGLOT=${POLYGLOT:-}
if [ -z "$POLYGLOT" ]; then
    if [ -x /usr/games/polyglot ]; then POLYGLOT=/usr/games/polyglot
    else POLYGLOT=$(command -v polyglot 2>/dev/null || true); fi
fi

# Hand-written games covering castling on both wings, promotions (also
# under-promotion and capture), en passant keys and captures, comments,
# variations, NAGs, escape lines and every kind of result.
cat > "$tmp/interop.pgn" <<'EOF'
[Event "promotion to a queen"]
[Result "1-0"]

1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Bd7 5. bxa8=Q (5. bxa8=N) Qc7 1-0

[Event "under-promotion"]
[Result "1/2-1/2"]

1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Bd7 5. bxa8=N Qc8 1/2-1/2

[Event "en passant and short castling"]
[Result "1/2-1/2"]

1. e4 d5 2. e5 f5 3. exf6 e6 4. fxg7 Bxg7 5. Nf3 Ne7 6. Bc4 O-O 7. O-O Nbc6 1/2-1/2

[Event "long castling"]
[Result "1-0"]

1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 6. e3 e6 1-0

[Event "the specification's en passant game"]
[Result "*"]

1. a4 b5 2. h4 b4 3. c4 bxc3 4. Ra3 *

[Event "annotations"]
[Result "1-0"]

1. e4 $1 e5 {a comment} 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 3. Bb5 a6 ; to the end of the line
% an escape line
4. Ba4 Nf6 5. O-O Be7 1-0

EOF
# Many short games: 1.e4 reaches 16384 games, so both tools must halve its
# position's statistics the same way; repeated moves pass --min-games 3.
awk 'BEGIN {
    split("e5 c5 e6 c6 d5", reply, " ");
    second["e5"] = "Nf3 Nc3 Bc4"; second["c5"] = "Nf3 Nc3 c3"; second["e6"] = "d4 d3 Nf3";
    second["c6"] = "d4 Nc3 Nf3"; second["d5"] = "exd5 Nc3 e5";
    split("1-0 0-1 1/2-1/2 *", result, " ");
    for (i = 0; i < 20000; i++) {
        r = reply[i % 5 + 1]; split(second[r], w, " ");
        res = result[int(i / 15) % 4 + 1];
        printf "[Result \"%s\"]\n\n1. e4 %s 2. %s %s\n\n", res, r, w[int(i / 5) % 3 + 1], res;
    }
}' >> "$tmp/interop.pgn"

# Sorted "key move weight learn" lines of a book, as read by Gizum.
entries() { "$GIZUM" book dump "$1" | sort; }

# Makes a book with both tools (extra polyglot and gizum options) and compares the entries (a case of one check).
compare_make() { # NAME "polyglot options" "gizum options"
    name=$1
    # shellcheck disable=SC2086
    "$POLYGLOT" make-book -pgn "$tmp/interop.pgn" -bin "$tmp/$name-pg.bin" $2 > "$tmp/$name-pg.log" 2>&1
    # shellcheck disable=SC2086
    "$GIZUM" book make --pgn "$tmp/interop.pgn" --out "$tmp/$name-gz.bin" $3 > "$tmp/$name-gz.log" 2>&1
    entries "$tmp/$name-pg.bin" > "$tmp/$name-pg.txt"
    entries "$tmp/$name-gz.bin" > "$tmp/$name-gz.txt"
    if ! { [ -s "$tmp/$name-pg.txt" ] && cmp -s "$tmp/$name-pg.txt" "$tmp/$name-gz.txt"; }; then
        offender "$name: polyglot and gizum books differ ($(wc -l < "$tmp/$name-pg.txt") vs $(wc -l < "$tmp/$name-gz.txt") entries)"
        diff "$tmp/$name-pg.txt" "$tmp/$name-gz.txt" | head -n 10 >&2
    fi
}

# Gizum's probe output for a position, without the line naming the book file;
# moves of equal weight may come in either order, so the lines are sorted.
probe() { # BOOK [FEN | startpos] [moves ...]
    "$GIZUM" book probe "$@" | grep -v '^book:' | sort
}

if [ -z "$POLYGLOT" ] || [ ! -x "$POLYGLOT" ]; then
    fail "polyglot is not installed (apt-get install polyglot): the interoperability tests cannot run"
else
    compare_make default "" ""
    compare_make min1 "-min-game 1" "--min-games 1"
    compare_make white "-min-game 1 -only-white" "--min-games 1 --only-white"
    compare_make black "-min-game 1 -only-black" "--min-games 1 --only-black"
    compare_make maxply "-min-game 1 -max-ply 3" "--min-games 1 --max-ply 3"
    cases_done "polyglot and gizum make the same book, with every option"
    check "1.e4 was halved at 16384 games (weight below 16384)" \
        awk '$1 == "463b96181691fc9c" && $2 == "e2e4" { found = 1; ok = $3 > 0 && $3 < 16384 } END { exit !(found && ok) }' \
        "$tmp/min1-gz.txt"
    check "same games, same bytes: gizum's book is polyglot's byte for byte (tie order of a stable sort)" \
        cmp -s "$tmp/min1-pg.bin" "$tmp/min1-gz.bin"

    # Gizum reads polyglot's book exactly as its own: castling, promotions, en passant.
    for pos in "startpos" \
        "startpos moves e2e4 d7d5 e4e5 f7f5" \
        "startpos moves e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 f8g7 g1f3 g8e7 f1c4" \
        "startpos moves e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 f8g7 g1f3 g8e7 f1c4 e8h8" \
        "startpos moves d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7" \
        "startpos moves e2e4 d7d5 e4d5 c7c6 d5c6 g8f6 c6b7 c8d7" \
        "startpos moves a2a4 b7b5 h2h4 b5b4 c2c4"; do
        # shellcheck disable=SC2086
        probe "$tmp/min1-pg.bin" $pos > "$tmp/probe-pg.txt" 2>&1
        # shellcheck disable=SC2086
        probe "$tmp/min1-gz.bin" $pos > "$tmp/probe-gz.txt" 2>&1
        if ! { cmp -s "$tmp/probe-pg.txt" "$tmp/probe-gz.txt" && ! grep -q 'out of book' "$tmp/probe-pg.txt"; }; then
            offender "probe differs or is empty at '$pos'"; cat "$tmp/probe-pg.txt" "$tmp/probe-gz.txt" >&2
        fi
    done
    cases_done "gizum probes polyglot's book as its own"
    probe "$tmp/min1-pg.bin" startpos moves e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 f8g7 g1f3 g8e7 f1c4 > "$tmp/p.txt"
    check "black O-O read from polyglot's e8h8" grep -q '^e8g8 *O-O ' "$tmp/p.txt"
    probe "$tmp/min1-pg.bin" startpos moves e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 f6g7 f8g7 g1f3 g8e7 f1c4 e8h8 > "$tmp/p.txt"
    check "white O-O read from polyglot's e1h1" grep -q '^e1g1 *O-O ' "$tmp/p.txt"
    probe "$tmp/min1-pg.bin" startpos moves e2e4 d7d5 e4e5 f7f5 > "$tmp/p.txt"
    check "en passant key (f6) and capture exf6 as in polyglot" grep -q '^e5f6 *exf6 ' "$tmp/p.txt"
    probe "$tmp/min1-pg.bin" startpos moves d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 > "$tmp/p.txt"
    check "white O-O-O read from polyglot's e1a1" grep -q '^e1c1 *O-O-O ' "$tmp/p.txt"
    probe "$tmp/min1-pg.bin" startpos moves e2e4 d7d5 e4d5 c7c6 d5c6 g8f6 c6b7 c8d7 > "$tmp/p.txt"
    check "promotions read from polyglot's book" grep -q '^b7a8q *bxa8=Q ' "$tmp/p.txt"
    check "under-promotion read from polyglot's book" grep -q '^b7a8n *bxa8=N ' "$tmp/p.txt"
    probe "$tmp/min1-pg.bin" startpos moves a2a4 b7b5 h2h4 b5b4 c2c4 > "$tmp/p.txt"
    check "en passant position keyed and decoded like polyglot" grep -q '^b4c3 *bxc3 ' "$tmp/p.txt"

    # Polyglot reads Gizum's books as its own.
    for side in white black; do
        "$POLYGLOT" dump-book -bin "$tmp/min1-pg.bin" -color $side -out "$tmp/dump-pg-$side.txt" > /dev/null 2>&1
        "$POLYGLOT" dump-book -bin "$tmp/min1-gz.bin" -color $side -out "$tmp/dump-gz-$side.txt" > /dev/null 2>&1
        # Lines of equal weight may be listed in either order: compare them unnumbered and sorted.
        grep -v '^Dump of' "$tmp/dump-pg-$side.txt" | sed 's/^[0-9]*: //' | sort > "$tmp/a.txt"
        grep -v '^Dump of' "$tmp/dump-gz-$side.txt" | sed 's/^[0-9]*: //' | sort > "$tmp/b.txt"
        if ! { [ -s "$tmp/a.txt" ] && cmp -s "$tmp/a.txt" "$tmp/b.txt"; }; then
            offender "polyglot dump-book of the two books differs for $side"; diff "$tmp/a.txt" "$tmp/b.txt" | head >&2
        fi
    done
    cases_done "polyglot dumps gizum's book as its own, for both sides"

    # Gizum's own book: polyglot makes the same entries from the same lines.
    "$POLYGLOT" make-book -pgn books/gizum-lines.pgn -bin "$tmp/own-pg.bin" -min-game 1 > /dev/null 2>&1
    entries "$tmp/own-pg.bin" > "$tmp/own-pg.txt"
    entries books/gizum.bin > "$tmp/own-gz.txt"
    check "polyglot builds books/gizum.bin's entries from books/gizum-lines.pgn" \
        cmp -s "$tmp/own-pg.txt" "$tmp/own-gz.txt"
fi

# `make book` is reproducible: the committed book is exactly what the PGN gives.
"$GIZUM" book make --pgn books/gizum-lines.pgn --out "$tmp/own.bin" --min-games 1 --strict > /dev/null
check "books/gizum.bin is rebuilt byte for byte from books/gizum-lines.pgn (run make book)" \
    cmp -s "$tmp/own.bin" books/gizum.bin

# Bad input: a message and a failing status, never a crash (one check over all the cases).
expect_error() { # DESCRIPTION EXPECTED-STATUS WORDS COMMAND...
    desc=$1; want=$2; words=$3; shift 3
    "$@" > "$tmp/out.txt" 2> "$tmp/err.txt"; got=$?
    if ! { [ "$got" -eq "$want" ] && grep -q -- "$words" "$tmp/err.txt"; }; then
        offender "$desc: status $got (want $want), stderr: $(head -c 300 "$tmp/err.txt")"
    fi
}
printf 'abcdefghijklmnopq' > "$tmp/truncated.bin"
head -c 4096 /dev/urandom > "$tmp/garbage.bin" 2>/dev/null || dd if=/dev/urandom of="$tmp/garbage.bin" bs=4096 count=1 2>/dev/null
: > "$tmp/empty.bin"
expect_error "probe of a missing book" 1 "cannot open" "$GIZUM" book probe "$tmp/none.bin"
expect_error "probe of a truncated book" 1 "multiple of 16" "$GIZUM" book probe "$tmp/truncated.bin"
expect_error "probe of an empty book" 1 "empty" "$GIZUM" book probe "$tmp/empty.bin"
expect_error "dump of a garbage book" 1 "not a valid Polyglot book" "$GIZUM" book dump "$tmp/garbage.bin"
expect_error "probe with a bad FEN" 2 "FEN" "$GIZUM" book probe books/gizum.bin "8/8/8/8 w - - 0 1"
expect_error "probe with an illegal move" 2 "illegal move" "$GIZUM" book probe books/gizum.bin startpos moves e2e5
expect_error "make without --out" 2 "no --out" "$GIZUM" book make --pgn "$tmp/interop.pgn"
expect_error "make with a bad --min-games" 2 "min-games" "$GIZUM" book make --pgn "$tmp/interop.pgn" --out "$tmp/x.bin" --min-games zero
expect_error "make from a missing PGN" 1 "cannot open" "$GIZUM" book make --pgn "$tmp/none.pgn" --out "$tmp/x.bin"
expect_error "unknown book command" 2 "usage" "$GIZUM" book frobnicate
printf '1. e4 e5 2. Ke3 *\n1. d4 d5 *\n1. c4 *\n1. c4 *\n' > "$tmp/bad.pgn"
expect_error "make skips an illegal game and says so" 0 "skipped: .*bad.pgn:1: game 1: illegal or ambiguous move 'Ke3'" \
    "$GIZUM" book make --pgn "$tmp/bad.pgn" --out "$tmp/bad.bin" --min-games 1
check "the other games made the book" grep -q '^4 games read, 1 skipped' "$tmp/out.txt"
expect_error "make --strict refuses a bad game" 1 "Ke3" \
    "$GIZUM" book make --pgn "$tmp/bad.pgn" --out "$tmp/strict.bin" --strict
cases_done "bad input to the book commands: the status and message each expects"
check "book dump lists every entry" test "$("$GIZUM" book dump books/gizum.bin | wc -l)" -eq $(($(wc -c < books/gizum.bin) / 16))

# A book whose moves are well-formed but illegal in their position (issue #38): skipped as
# before, and now counted and named once with the first one (key and move): on stderr for the
# tools, in an info string in UCI mode. Start-position entries e2e5 and a1a8, weight 1 each.
entry() { # KEY MOVE (hex): one entry, printf escapes
    for i in 1 3 5 7 9 11 13 15; do printf '\\%03o' "0x$(echo "$1" | cut -c$i-$((i + 1)))"; done
    printf '\\%03o\\%03o\\000\\001\\000\\000\\000\\000' "0x$(echo "$2" | cut -c1-2)" "0x$(echo "$2" | cut -c3-4)"
}
# shellcheck disable=SC2059
printf "$(entry 463b96181691fc9c 0324; entry 463b96181691fc9c 0038)" > "$tmp/illegal.bin"
named_once() { # FILE: one line naming both entries, the key and the first move
    [ "$(grep -c "2 entries skipped" "$1")" -eq 1 ] && grep "2 entries skipped" "$1" | grep -q "463b96181691fc9c.*e2e5"
}
"$GIZUM" openings --book "$tmp/illegal.bin" --count 1 --depth 1 > "$tmp/out.txt" 2> "$tmp/err.txt"
if named_once "$tmp/err.txt"; then ok; else fail "openings names the illegal entries once: $(cat "$tmp/err.txt")"; fi
"$GIZUM" "setoption name BookFile value $tmp/illegal.bin" "setoption name OwnBook value true" "go depth 1" \
    "go depth 1" > "$tmp/out.txt" 2>&1
if named_once "$tmp/out.txt" && grep "2 entries skipped" "$tmp/out.txt" | grep -q '^info string'; then ok
else fail "UCI names the illegal book entries once in an info string: $(cat "$tmp/out.txt")"; fi
"$GIZUM" "genfens 1 seed 1 book $tmp/illegal.bin" quit > "$tmp/out.txt" 2>&1
if named_once "$tmp/out.txt"; then ok; else fail "genfens names the illegal book entries: $(cat "$tmp/out.txt")"; fi
"$GIZUM" datagen --book "$tmp/illegal.bin" --out "$tmp/data.txt" --positions 1 --nodes 50 > "$tmp/out.txt" 2> "$tmp/err.txt"
if named_once "$tmp/err.txt"; then ok; else fail "datagen names the illegal book entries: $(cat "$tmp/err.txt")"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
