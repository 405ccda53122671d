#!/bin/sh
# The engine under valgrind memcheck (make check-valgrind): a short bench, a
# one-shot search and a scripted UCI session (searches on two threads,
# option changes, bad input, stop, perft, quit). Each command of the session
# is sent once the engine has answered the one before (no fixed sleeps,
# which a slow machine outruns), and the answers are checked: a search ends
# with a bestmove, bad input gets its info string. Valgrind's status (1 on
# any memory error or definite/indirect leak, --error-exitcode=1) is the
# engine's: every run must end with status 0.
#
#   sh tests/check_valgrind.sh VALGRIND-COMMAND... ENGINE
#
# e.g. sh tests/check_valgrind.sh valgrind --error-exitcode=1 --leak-check=full ./gizum-valgrind
set -u
[ $# -ge 1 ] || { echo "usage: sh tests/check_valgrind.sh VALGRIND-COMMAND... ENGINE" >&2; exit 2; }
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gizum-valgrind.XXXXXX") || exit 1
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fen='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
# Valgrind runs the engine 20 to 50 times slower: generous limits, in tenths of a second.
limit=${VALGRIND_WAIT:-3000}

"$@" bench 4 > "$tmp/bench" 2>&1; rc=$?
[ $rc -eq 0 ] && tail -n 1 "$tmp/bench" | grep -Eq '^[0-9]+ nodes [0-9]+ nps$'
check $? "bench 4 (status $rc): $(tail -n 5 "$tmp/bench")"
"$@" go depth 5 > "$tmp/go" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^info depth 5 ' "$tmp/go" && grep -Eq '^bestmove [a-h][1-8][a-h][1-8]' "$tmp/go"
check $? "go depth 5 (status $rc): $(tail -n 5 "$tmp/go")"

# The session: the engine reads a FIFO the script writes to, its answers go to a file.
mkfifo "$tmp/in"
"$@" < "$tmp/in" > "$tmp/out" 2>&1 &
pid=$!
exec 3> "$tmp/in"
send() { for line in "$@"; do printf '%s\n' "$line" >&3; done; }
lines() { grep -c -- "$1" "$tmp/out"; }
# until N PATTERN: waits until N lines of the output match PATTERN; false if the engine died or the limit passed.
until_lines() {
    i=0
    while [ "$(lines "$2")" -lt "$1" ]; do
        kill -0 "$pid" 2>/dev/null && [ $i -lt "$limit" ] || return 1
        sleep 0.1; i=$((i + 1))
    done
}
said() { grep -q -- "$1" "$tmp/out"; }

send uci
until_lines 1 '^uciok'; check $? "uci: no uciok"
send isready "setoption name Hash value 4" "setoption name Threads value 2" ucinewgame \
    "position startpos moves e2e4 e7e5 g1f3 b8c6" "go depth 5"
until_lines 1 '^bestmove'; check $? "go depth 5 on two threads: no bestmove"
# go infinite, stopped once it has searched a few iterations.
depth3=$(lines '^info depth 3 ')
send isready "position fen $fen moves e1g1" "go infinite"
until_lines $((depth3 + 1)) '^info depth 3 ' && send stop && until_lines 2 '^bestmove'
check $? "go infinite, then stop: no bestmove"
# Bad input: each gets its info string; the unbounded go searches depth 1.
send "foo bar" "position fen 8/8/8 w - - 0 1" "setoption name Hash value -5" "go wtime x"
until_lines 3 '^bestmove' && said "^info string unknown command 'foo" && said '^info string position rejected' &&
    said '^info string Hash: value must be an integer' && said "^info string go: 'wtime' needs an integer"
check $? "bad input: the info strings and a bestmove: $(grep '^info string' "$tmp/out" | tr '\n' ' ')"
send "setoption name MultiPV value 3" "go wtime 3000 btime 3000 winc 50 binc 50"
until_lines 4 '^bestmove' && said ' multipv 3 '
check $? "MultiPV 3 on a clock: no bestmove or no third line"
send "setoption name Threads value 1" "setoption name Clear Hash" d eval "go perft 2" "go movetime 500"
until_lines 5 '^bestmove' && said '^Fen: ' && said '^Total' && said '^Nodes searched: [1-9]'
check $? "d, eval, go perft 2 and go movetime 500: missing answers"
send quit
exec 3>&-
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt "$limit" ]; do sleep 0.1; i=$((i + 1)); done
kill -0 "$pid" 2>/dev/null && { echo "FAIL: the engine did not quit"; kill "$pid"; }
wait "$pid"; rc=$?
pid=
check $rc "the session's engine (valgrind) exited with status $rc: $(grep '^==' "$tmp/out" | head -n 20)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
