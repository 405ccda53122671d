#!/bin/sh
# Runs every test program in $TESTBIN (and tests/test_*.sh scripts), sums
# their "N passed, M failed" lines and ends with the total. ONLY=word runs
# just the tests whose name contains word (make test T=word); SKIP="a b"
# leaves out the tests named a and b. JOBS=N runs N tests at a time (make
# test TEST_JOBS=N; each test prints its result line when it ends, and the
# total comes last). Lines starting with "SKIP" (a check that could not run)
# are always shown.
set -u
: "${TESTBIN:?}" "${GIZUM:?}"
export GIZUM TESTBIN

# Worker: runs one test, prints its block, leaves "passed failed" in
# $2/<name>.result for the total (a failing exit status counts as a failure).
if [ "${1:-}" = --one ]; then
    results=$2 t=$3
    case "$t" in *.sh) cmd="sh $t" ;; *) cmd="$t" ;; esac
    name=$(basename "$t")
    start=$(date +%s)
    # A hung test must fail, not stall the suite.
    out=$(timeout "${TEST_TIMEOUT:-900}" $cmd 2>&1); rc=$?
    [ "$rc" -eq 124 ] && out="$out
$name: timed out after ${TEST_TIMEOUT:-900} s"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        report=$(printf '%s\n' "$out" | tail -n 20; echo "$name: no result line (exit $rc)")
        echo "0 1" > "$results/$name.result"
    else
        p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
        report=
        if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
            report=$(printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, ' | tail -n 40)
            [ "$f" -eq 0 ] && f=1
        fi
        # Skipped checks are said aloud even when the test passes.
        skipped=$(printf '%s\n' "$out" | grep '^SKIP' | sed "s/^/$name: /")
        report=$(printf '%s\n%s\n%s' "$report" "$skipped" "$name: $line ($(( $(date +%s) - start ))s)" | sed '/^$/d')
        echo "$p $f" > "$results/$name.result"
    fi
    # One write per test, so that blocks of tests running side by side do not interleave.
    printf '%s\n' "$report" > "$results/$name.report"
    cat "$results/$name.report"
    exit 0
fi

# The slowest tests (under the sanitizers) start first, so that with several
# jobs no long test is left running alone at the end.
SLOW_FIRST="test_limits test_alphabeta test_perft test_progress.sh test_tb_games.sh test_datagen test_install.sh"
tests=
for slow in $SLOW_FIRST; do
    for t in "$TESTBIN/$slow" "tests/$slow"; do [ -e "$t" ] && tests="$tests $t"; done
done
for t in "$TESTBIN"/test_* tests/test_*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t")
    case "$name" in *.o|*.d) continue ;; esac
    case " $SLOW_FIRST " in *" $name "*) continue ;; esac
    tests="$tests $t"
done
selected=
for t in $tests; do
    name=$(basename "$t")
    case "$name" in *"${ONLY:-}"*) ;; *) continue ;; esac
    case " ${SKIP:-} " in *" $name "*) continue ;; esac
    selected="$selected $t"
done

results=$(mktemp -d "${TMPDIR:-/tmp}/gizum-tests.XXXXXX") || exit 1
trap 'rm -rf "$results"' EXIT
[ -n "$selected" ] && printf '%s\n' $selected | xargs -P "${JOBS:-1}" -n 1 sh "$0" --one "$results"

passed=0; failed=0
for t in $selected; do
    read -r p f < "$results/$(basename "$t").result" || { p=0 f=1; echo "$(basename "$t"): no result"; }
    passed=$((passed + p)); failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
