#!/bin/sh
# The shell face: help and version, unknown commands (usage on stderr, exit
# 2), and UCI commands run from the shell both ways (`./gizum go depth 3`
# and `./gizum "go depth 3"`), while UCI mode keeps answering unknown
# commands with an info string.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
# One check over the cases of a loop: case_of names each failing case, cases_done counts the loop once.
failing=0
case_of() { if [ "$1" != 0 ]; then failing=$((failing + 1)); echo "FAIL: $2"; fi; }
cases_done() { check "$failing" "$1: $failing cases failed"; failing=0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for flag in --help -h help; do
    "$GIZUM" $flag > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^usage: gizum' "$tmp/out"
    case_of $? "'gizum $flag' prints the usage on stdout with status 0 (status $rc)"
done
cases_done "--help, -h and help print the usage"
# Every shell command is listed with its arguments, and UCI mode is pointed to.
for cmd in bench perft eval d epd book openings help version; do
    grep -q "^  $cmd\( \|$\)" "$tmp/out"; case_of $? "usage lists the shell command '$cmd'"
done
cases_done "the usage lists every shell command"
grep -q "perft DEPTH \[FEN\]" "$tmp/out" && grep -q "epd FILE \[--movetime MS" "$tmp/out"
check $? "usage shows each command's arguments"
grep -q "UCI mode" "$tmp/out"; check $? "usage points to UCI mode"

# Each command's own usage: `gizum COMMAND --help` (or -h) prints it on stdout with status 0,
# and runs nothing (a help word is not a depth, a FEN or a file name).
for cmd in bench perft eval d epd book openings datagen spsa; do
    for flag in --help -h; do
        "$GIZUM" $cmd $flag > "$tmp/out" 2> "$tmp/err"; rc=$?
        [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && head -1 "$tmp/out" | grep -q "^usage: gizum $cmd\( \|$\)"
        case_of $? "'gizum $cmd $flag' prints its usage on stdout with status 0 (status $rc): $(head -c 200 "$tmp/err")"
    done
done
cases_done "gizum COMMAND --help prints the command's usage"

"$GIZUM" --version > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^Gizum [0-9]' "$tmp/out" && grep -q '^build: \(gcc\|clang\) .*, ARCH [a-z0-9-]*' "$tmp/out"
check $? "--version gives name, version, compiler and ARCH: $(cat "$tmp/out")"
if git rev-parse HEAD >/dev/null 2>&1; then
    # git describe's revision: a hash, or a tag with the commits since it (v1.0.0-3-g1da83ea4c2b1), maybe -dirty.
    grep -Eq ', git ([0-9a-f]{7,}|v[0-9][0-9.]*(-[0-9]+-g[0-9a-f]{7,})?)(-dirty)?$' "$tmp/out"
    check $? "--version names the git revision when built from git: $(grep '^build' "$tmp/out")"
fi
"$GIZUM" -v > "$tmp/v" 2>&1 && cmp -s "$tmp/out" "$tmp/v"; check $? "-v is --version"

for bad in --bogus frobnicate "frob nicate" ""; do
    "$GIZUM" "$bad" > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "unknown command '$bad'" "$tmp/err" && grep -q '^usage: gizum' "$tmp/err"
    case_of $? "unknown shell command '$bad': usage on stderr, nothing on stdout, status 2 (status $rc)"
done
cases_done "unknown shell commands are usage errors"

# UCI commands from the shell, as separate words and as one argument.
"$GIZUM" go depth 3 > "$tmp/a" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^bestmove ' "$tmp/a"; check $? "./gizum go depth 3 searches (status $rc)"
"$GIZUM" "go depth 3" > "$tmp/b" 2>&1
grep -q '^bestmove ' "$tmp/b"; check $? "./gizum \"go depth 3\" searches"
"$GIZUM" uci > "$tmp/out" 2>&1
grep -q '^uciok' "$tmp/out"; check $? "./gizum uci answers uciok"
# position from the shell: set (d shows it), or refused as a usage error (issue #38): the reason
# on stderr, status 2, and nothing after it run, since it would act on a position not asked for.
"$GIZUM" "position startpos moves e2e4" d > "$tmp/out" 2>&1; rc=$?
[ $rc -eq 0 ] && ! grep -q '^info string' "$tmp/out" &&
    grep -qx 'Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' "$tmp/out"
check $? "./gizum \"position startpos moves e2e4\" d shows the position after 1.e4 (status $rc): $(grep -e '^Fen' -e '^info' "$tmp/out")"
for args in "position fen 8/8/8/8/8/8/8/8 w - - 0 1" "position fen" "position frobnicate" \
            "position startpos moves e2e5"; do
    # shellcheck disable=SC2086
    timeout 20 "$GIZUM" $args > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q '^gizum: position rejected: ' "$tmp/err"
    case_of $? "./gizum $args: the reason on stderr, nothing on stdout, status 2 (status $rc): $(cat "$tmp/out" "$tmp/err")"
done
cases_done "a rejected position from the shell is a usage error"
timeout 20 "$GIZUM" "position startpos moves e2e5" "go depth 3" d quit > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "^gizum: position rejected: move 1 'e2e5'" "$tmp/err"
check $? "./gizum \"position startpos moves e2e5\" \"go depth 3\" d quit: status 2, nothing run after it (status $rc): $(head -3 "$tmp/out" "$tmp/err")"
"$GIZUM" isready | grep -q '^readyok'; check $? "./gizum isready answers readyok"
"$GIZUM" go perft 2 | grep -q '^Nodes searched: 400'; check $? "./gizum go perft 2 counts 400"

# A one-shot search always ends (issue #38): a go with no bound searches the default depth (12),
# 0 for depth, nodes or movetime is the least search, and a limit that cannot be read is a
# usage error (status 2, the reason on stderr, nothing searched).
timeout 20 "$GIZUM" go > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q '^bestmove ' "$tmp/out" && grep -q '^info depth 12 ' "$tmp/out" && ! grep -q '^info depth 13 ' "$tmp/out"
check $? "./gizum go searches to the default depth 12 and ends (status $rc)"
for args in "go nodes 0" "go movetime 0" "go depth 0" "go mate 3" "go searchmoves e2e4 d2d4"; do
    # shellcheck disable=SC2086
    timeout 20 "$GIZUM" $args > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 0 ] && grep -q '^bestmove ' "$tmp/out"; case_of $? "./gizum $args ends with a bestmove (status $rc)"
done
cases_done "one-shot searches with a bound end with a bestmove"
for args in "go depth x" "go nodes -5" "go movetime abc" "go wtime x" "go fast"; do
    # shellcheck disable=SC2086
    timeout 20 "$GIZUM" $args > "$tmp/out" 2> "$tmp/err"; rc=$?
    [ $rc -eq 2 ] && ! grep -q '^bestmove' "$tmp/out" && grep -q "go: " "$tmp/err" && grep -q "usage: gizum go" "$tmp/err"
    case_of $? "./gizum $args: usage error, status 2, nothing searched (status $rc): $(cat "$tmp/err")"
done
cases_done "one-shot searches with an unreadable limit are usage errors"
timeout 20 "$GIZUM" "go depth x" quit > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && ! grep -q '^bestmove' "$tmp/out"; check $? "./gizum \"go depth x\" quit: status 2 (status $rc)"

# UCI mode is unchanged: an unknown command gets an info string, and the engine goes on.
printf 'frobnicate\n--help\nisready\nquit\n' | "$GIZUM" > "$tmp/out" 2>&1
grep -q "^info string unknown command 'frobnicate'" "$tmp/out" && grep -q "^info string unknown command '--help'" "$tmp/out" \
    && grep -q '^readyok' "$tmp/out"
check $? "UCI mode answers unknown commands with info string and stays ready"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
