#!/bin/sh
# tests/run_all.sh, the runner behind make test: its total adds up every
# test's result line, a test without one or with a bad exit status fails,
# a hung test is stopped, SKIP and ONLY choose the tests, and JOBS=N really
# runs N tests side by side with the same total as one at a time.
: "${GIZUM:?}"
passed=0; failed=0
# check STATUS MESSAGE [OUTPUT]: a failure prints the message, and the runner's whole output if named.
check() {
    if [ "$1" = 0 ]; then passed=$((passed + 1)); return; fi
    failed=$((failed + 1)); echo "FAIL: $2"
    [ -n "${3:-}" ] && sed 's/^/    | /' "$3"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/bin
mkdir -p "$bin"

fake() { printf '#!/bin/sh\n%s\n' "$2" > "$bin/test_zz_$1"; chmod +x "$bin/test_zz_$1"; }
fake a 'echo detail; echo "3 passed, 1 failed"'
fake b 'echo crashed; exit 2'
fake c 'echo "SKIP no oracle"; echo "2 passed, 0 failed"'
fake d 'echo "1 passed, 0 failed"; exit 1'
fake e 'echo "4 passed, 0 failed"'
# Runs the runner on the fake tests: run NAME [VAR=value ...]; output in $tmp/NAME, status in $tmp/NAME.rc.
run() {
    name=$1; shift
    env GIZUM="$GIZUM" TESTBIN="$bin" ONLY=zz_ "$@" sh tests/run_all.sh > "$tmp/$name" 2>&1
    echo $? > "$tmp/$name.rc"
}

run serial JOBS=1
[ "$(tail -n 1 "$tmp/serial")" = "10 passed, 3 failed" ]; check $? "JOBS=1 total" "$tmp/serial"
[ "$(cat "$tmp/serial.rc")" = 1 ]; check $? "a failing test must fail the run (exit $(cat "$tmp/serial.rc"))"
grep -q '^test_zz_b: no result line (exit 2)' "$tmp/serial"; check $? "a test without a result line is named"
grep -q '^crashed$' "$tmp/serial" && grep -q '^detail$' "$tmp/serial"; check $? "a failing test's output is shown"
grep -q '^test_zz_c: SKIP no oracle' "$tmp/serial"; check $? "SKIP lines of a passing test are shown"
[ "$(grep -c '^test_zz_[a-e]: [0-9]* passed' "$tmp/serial")" = 4 ]; check $? "one result line per test with a result"

run parallel JOBS=3
[ "$(tail -n 1 "$tmp/parallel")" = "10 passed, 3 failed" ]; check $? "JOBS=3 total" "$tmp/parallel"
[ "$(cat "$tmp/parallel.rc")" = 1 ]; check $? "JOBS=3: a failing test must fail the run"

run skipped JOBS=2 SKIP="test_zz_a test_zz_b test_zz_d"
[ "$(tail -n 1 "$tmp/skipped")" = "6 passed, 0 failed" ] && [ "$(cat "$tmp/skipped.rc")" = 0 ]
check $? "SKIP leaves tests out, and a clean run exits 0 (exit $(cat "$tmp/skipped.rc"))" "$tmp/skipped"

run only JOBS=2 ONLY=zz_e
[ "$(tail -n 1 "$tmp/only")" = "4 passed, 0 failed" ]; check $? "ONLY picks one test" "$tmp/only"

rm -f "$bin"/test_zz_*
fake hang 'sleep 30; echo "1 passed, 0 failed"'
run hung JOBS=2 TEST_TIMEOUT=1
grep -q 'test_zz_hang: timed out after 1 s' "$tmp/hung" && [ "$(tail -n 1 "$tmp/hung")" = "0 passed, 1 failed" ]
check $? "a hung test is stopped and fails" "$tmp/hung"

# Two tests that each wait for the other's mark pass only when they run at the same time.
rm -f "$bin"/test_zz_*
for me in x y; do
    other=$([ $me = x ] && echo y || echo x)
    fake $me "touch $tmp/mark-$me; i=0; while [ ! -e $tmp/mark-$other ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
[ -e $tmp/mark-$other ] && echo '1 passed, 0 failed' || echo '0 passed, 1 failed'"
done
run side_by_side JOBS=2
[ "$(tail -n 1 "$tmp/side_by_side")" = "2 passed, 0 failed" ]; check $? "JOBS=2 runs two tests at once" "$tmp/side_by_side"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
