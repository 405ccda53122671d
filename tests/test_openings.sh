#!/bin/sh
# books/openings.epd: every line a valid, distinct position; and the
# `openings` command that makes it: balanced, distinct, reproducible.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }

epd=books/openings.epd
lines=$(wc -l < "$epd")
[ "$lines" -ge 200 ]; check $? "openings.epd has only $lines positions"
[ "$(sort -u "$epd" | wc -l)" -eq "$lines" ]; check $? "openings.epd has duplicate positions"
bad=0
while read -r fen; do
    "$GIZUM" perft 1 "$fen 0 1" >/dev/null 2>&1 || { bad=$((bad + 1)); echo "invalid: $fen"; }
done < "$epd"
[ "$bad" -eq 0 ]; check $? "$bad invalid positions in openings.epd"

tmp=$(mktemp -d)
"$GIZUM" openings --count 6 --depth 5 --seed 7 > "$tmp/a" 2>"$tmp/err"; check $? "openings command failed: $(cat "$tmp/err")"
"$GIZUM" openings --count 6 --depth 5 --seed 7 > "$tmp/b" 2>/dev/null
[ "$(wc -l < "$tmp/a")" -eq 6 ]; check $? "openings --count 6 gave $(wc -l < "$tmp/a") lines"
cmp -s "$tmp/a" "$tmp/b"; check $? "openings is not reproducible for a fixed seed"
[ "$(sort -u "$tmp/a" | wc -l)" -eq 6 ]; check $? "openings printed a position twice"
"$GIZUM" openings --count 3 --margin x > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "bad or incomplete option '--margin'" "$tmp/err"; check $? "bad option not reported"
"$GIZUM" openings --book /nonexistent.bin > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "nonexistent" "$tmp/err"; check $? "missing book not reported"
rm -rf "$tmp"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
