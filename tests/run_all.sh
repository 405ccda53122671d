#!/bin/sh
# Runs every test program in $TESTBIN (and tests/test_*.sh scripts), sums
# their "N passed, M failed" lines and ends with the total. ONLY=word runs
# just the tests whose name contains word (make test T=word); SKIP="a b"
# leaves out the tests named a and b. Lines starting with "SKIP" (a check that
# could not run) are always shown.
set -u
: "${TESTBIN:?}" "${GIZUM:?}"
export GIZUM TESTBIN
passed=0; failed=0; status=0
for t in "$TESTBIN"/test_* tests/test_*.sh; do
    [ -e "$t" ] || continue
    case "$t" in *.sh) cmd="sh $t" ;; *) cmd="$t" ;; esac
    name=$(basename "$t")
    case "$name" in *.o|*.d) continue ;; esac
    case "$name" in *"${ONLY:-}"*) ;; *) continue ;; esac
    case " ${SKIP:-} " in *" $name "*) continue ;; esac
    start=$(date +%s)
    # A hung test must fail, not stall the suite.
    out=$(timeout "${TEST_TIMEOUT:-900}" $cmd 2>&1); rc=$?
    [ "$rc" -eq 124 ] && out="$out
$name: timed out after ${TEST_TIMEOUT:-900} s"
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        printf '%s\n' "$out" | tail -n 20
        echo "$name: no result line (exit $rc)"
        failed=$((failed + 1)); status=1; continue
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
        printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, ' | tail -n 40
        status=1
        [ "$f" -eq 0 ] && failed=$((failed + 1))
    fi
    # Skipped checks are said aloud even when the test passes.
    printf '%s\n' "$out" | grep '^SKIP' | sed "s/^/$name: /"
    echo "$name: $line ($(( $(date +%s) - start ))s)"
done
echo "$passed passed, $failed failed"
exit $status
