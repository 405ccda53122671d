#!/bin/sh
# gizum.6 cannot drift from the program: it names every shell command
# (from --help) and every UCI option (from `uci`) with the option's type,
# range and default; README.md names them too; its title and CHANGELOG.md
# name the engine's version (src/base/version.h); and groff renders the page
# without a warning, showing every command and option (text a stray roff
# request would swallow is missing from the rendering, not from the source).
# Without groff the two rendering checks are a printed SKIP, and a failure
# when CI=true.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
man=gizum.6

# The version, kept in src/base/version.h alone, in the title line and in the changelog.
version=$("$GIZUM" --version | sed -n '1s/^Gizum //p')
grep -q "^\.TH GIZUM 6 \"[0-9]*\" \"Gizum $version\" " "$man"; check $? "$man title does not name version $version: $(grep '^\.TH' "$man")"
grep -q "^## $version " CHANGELOG.md; check $? "CHANGELOG.md has no '## $version ' section"

# Shell commands: the "  name args" lines of the usage.
"$GIZUM" --help | sed -n 's/^  \([a-z][a-z0-9-]*\).*/\1/p' > "$tmp/commands"
[ "$(wc -l < "$tmp/commands")" -ge 8 ]; check $? "could not read the shell commands from --help"
missing=""; readme_missing=""
while read -r cmd; do
    grep -q "^\.B[RI]* \"*$cmd\( \|\"\|$\)" "$man" || missing="$missing $cmd"
    grep -q "gizum $cmd\|\`$cmd\`\|\./gizum $cmd" README.md || readme_missing="$readme_missing $cmd"
done < "$tmp/commands"
[ -z "$missing" ]; check $? "shell commands without an entry in $man:$missing"
[ -z "$readme_missing" ]; check $? "shell commands not named in README.md:$readme_missing"

# UCI options, with type, range and default for spins and checks.
printf 'uci\nquit\n' | "$GIZUM" | grep '^option name ' > "$tmp/options"
[ "$(wc -l < "$tmp/options")" -ge 10 ]; check $? "could not read the UCI options"
missing=""; wrong=""; readme_missing=""
while read -r line; do
    name=$(echo "$line" | sed 's/^option name \(.*\) type .*/\1/')
    type=$(echo "$line" | sed 's/.* type \([a-z]*\).*/\1/')
    entry=$(awk -v name="$name" 'found { print; exit } $0 == ".B " name { found = 1 }' "$man")
    if [ -z "$entry" ]; then missing="$missing '$name'"; continue; fi
    case "$type" in
        spin)
            def=$(echo "$line" | sed 's/.* default \([-0-9]*\).*/\1/')
            min=$(echo "$line" | sed 's/.* min \([-0-9]*\).*/\1/')
            max=$(echo "$line" | sed 's/.* max \([-0-9]*\).*/\1/')
            expect="spin $min\\\\(en$max, default $def" ;;
        check) expect="check, default $(echo "$line" | sed 's/.* default \([a-z]*\).*/\1/')" ;;
        *) expect="$type" ;;
    esac
    echo "$entry" | grep -q "^$expect" || wrong="$wrong '$name' ($expect: $entry)"
    grep -q "| \`$name\` |" README.md || readme_missing="$readme_missing '$name'"
done < "$tmp/options"
[ -z "$missing" ]; check $? "UCI options without an entry in $man:$missing"
[ -z "$wrong" ]; check $? "UCI option entries that disagree with the engine:$wrong"
[ -z "$readme_missing" ]; check $? "UCI options not in README.md's table:$readme_missing"
# And nothing documented that the engine no longer has.
extra=""
for name in $(awk '/^\.SH UCI OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 } on && /^\.B / { sub(/^\.B /, ""); gsub(/ /, "@"); print }' "$man"); do
    grep -q "^option name $(echo "$name" | tr @ ' ') type" "$tmp/options" || extra="$extra $name"
done
[ -z "$extra" ]; check $? "$man documents options the engine does not have:$extra"

# groff: no warning, and the rendered page shows every command and option.
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$man" 2> "$tmp/warn"
    [ ! -s "$tmp/warn" ]; check $? "groff warns: $(cat "$tmp/warn")"
    groff -man -Tascii -P-cbou "$man" 2>/dev/null | sed 's/  */ /g' > "$tmp/text"
    # Each entry starts a line: its name, then a space, a comma or the end of the line.
    sed 's/^option name \(.*\) type .*/\1/' "$tmp/options" | cat "$tmp/commands" - > "$tmp/names"
    unshown=""
    while read -r name; do grep -q "^ *$name\([ ,]\|$\)" "$tmp/text" || unshown="$unshown '$name'"; done < "$tmp/names"
    [ -z "$unshown" ]; check $? "the rendered $man does not show:$unshown"
elif [ "${CI:-}" = true ]; then
    check 1 "groff is missing, so $man's rendering cannot be checked (CI=true)"
else
    echo "SKIP: $man's groff warnings and rendering: groff is missing"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
