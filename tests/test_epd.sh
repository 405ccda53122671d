#!/bin/sh
# ./gizum epd FILE: per-position lines, the solved and points totals, bad
# records reported as file:line and skipped, and bad arguments refused.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/suite.epd" <<'EPD'
2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";
# a comment line, then a blank one

8/8/8/8 w - - bm e4; id "broken";
R7/P4k2/8/8/8/8/r7/6K1 w - - bm Rh8; id "WAC.018";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Qh5; id "illegal";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am g4 f3; id "avoid";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - id "points"; c0 "Rd8+=10, Kf1=1";
EPD
"$GIZUM" epd "$tmp/suite.epd" --depth 14 > "$tmp/out" 2> "$tmp/err"; rc=$?
check $rc "epd exits 0 (status $rc)"
grep -q "^$tmp/suite.epd:4: bad position" "$tmp/err" && grep -q "^$tmp/suite.epd:6: bm: 'Qh5' is not a legal move" "$tmp/err"
check $? "bad records reported as file:line: reason: $(cat "$tmp/err")"
# The four usable records, each with its numbered result line (the summary line is not one of them).
results=$(grep -cE '^ +[0-9]+/4 .*(solved|FAILED)' "$tmp/out")
[ "$results" -eq 4 ]; check $? "one result line per usable record: $results for 4"
grep -q '^   1/4 WAC.001 .*bm Qg6 .*played Qg6 .*+M[0-9] .*solved' "$tmp/out"; check $? "WAC.001 solved with mate in 2"
grep -q 'WAC.018 .*played Rh8 .*solved' "$tmp/out"; check $? "WAC.018 (skewer) solved"
grep -q 'avoid .*am g4 f3 .*solved' "$tmp/out"; check $? "am record solved"
grep -q 'points .*played Rd8# .*solved  points 10/10' "$tmp/out"; check $? "point record scored"
grep -q '^solved 4/4 (100.0 %) in [0-9.]* s, [0-9]* nodes, 2 bad records skipped$' "$tmp/out"; check $? "solved line"
grep -q '^points 10/10 (100.0 %)$' "$tmp/out"; check $? "points line"
# The same suite twice at a fixed depth gives the same moves (fresh state per position).
"$GIZUM" epd "$tmp/suite.epd" --depth 14 2>/dev/null | grep played | sed 's/ [0-9.]* s / /' > "$tmp/a"
grep played "$tmp/out" | sed 's/ [0-9.]* s / /' > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b"; check $? "fixed-depth runs are reproducible"
"$GIZUM" epd "$tmp/suite.epd" --nodes 5000 --threads 2 --hash 8 > "$tmp/out" 2>/dev/null
grep -q '2 threads, 8 MB hash' "$tmp/out" && grep -q '^solved [0-9]*/4' "$tmp/out"; check $? "--nodes, --threads, --hash"
"$GIZUM" epd "$tmp/suite.epd" --movetime 50 > "$tmp/out" 2>/dev/null
grep -q '50 ms per position' "$tmp/out"; check $? "--movetime"

# Bad arguments: one check over all of them, naming each that is not refused.
refused=0
for args in "" "$tmp/suite.epd --depth 3 --nodes 5" "$tmp/suite.epd --depth x" "$tmp/suite.epd --frob 1" "/nonexistent.epd"; do
    # shellcheck disable=SC2086
    "$GIZUM" epd $args > "$tmp/out" 2> "$tmp/err"; rc=$?
    if ! { [ $rc -eq 2 ] && [ -s "$tmp/err" ]; }; then
        echo "FAIL: epd $args: not refused with a message and status 2 (status $rc)"; refused=1
    fi
done
check $refused "bad arguments refused with a message and status 2"
printf 'just garbage\n' > "$tmp/garbage.epd"
"$GIZUM" epd "$tmp/garbage.epd" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "garbage.epd:1: " "$tmp/err" && grep -q "no usable record" "$tmp/err"
check $? "a file without usable records: status 2"
# A line with a NUL byte is not text: reported and skipped, not read up to the NUL. A long
# line is one line however its bytes fall (found by fuzz_epd: a NUL inside a line over the
# buffer made its rest a line of its own, and every later line number was off by one).
{ printf '8/8/8/4k3/8/8/4P3/4K3 w - - bm Kd2;\000 junk\n'
  printf 'xxxxxxxxxx\000'; head -c 5000 /dev/zero | tr '\000' y; printf ' 8/8/8/4k3/8/8/4P3/4K3 w - - bm Kd2;\n'
  head -c 5000 /dev/zero | tr '\000' ' '; printf '8/8/8/4k3/8/8/4P3/4K3 w - - bm Kd2; '; head -c 5000 /dev/zero | tr '\000' z
  printf '\n2k5/8/8/8/8/8/8/2K5 b - - bm Kd7;\n'; } > "$tmp/nul.epd"
"$GIZUM" epd "$tmp/nul.epd" --depth 1 > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q '^epd .*: 1 positions' "$tmp/out" && grep -q '^ *1/1 .*bm Kd7' "$tmp/out" \
    && grep -q "nul.epd:1: NUL byte in the line (skipped)" "$tmp/err" && grep -q "nul.epd:2: NUL byte in the line" "$tmp/err" \
    && grep -q "nul.epd:3: record longer than" "$tmp/err" && [ "$(wc -l < "$tmp/err")" -eq 3 ]
check $? "a NUL byte skips its line, a long line stays one line (status $rc): $(cat "$tmp/out" "$tmp/err")"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
