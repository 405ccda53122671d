#!/bin/sh
# The documentation's links hold: every relative link in README.md and the
# Markdown files under docs/ and tools/ names a file that exists, and every
# #anchor names a heading of its file (GitHub's anchors: the heading in lower
# case, punctuation dropped, blanks turned into hyphens, -1, -2 ... after
# repeats). Links to the web are not followed. Two checks, each over every
# link: the files exist, the anchors are headings (a FAIL line per bad link).
set -u
cd "$(dirname "$0")/.."

# Prints "anchor" for every heading of a Markdown file, outside code blocks.
anchors() {
    LC_ALL=C awk '
        /^```/ { code = !code; next }
        code || !/^#+ / { next }
        {
            h = $0; sub(/^#+ +/, "", h); sub(/ +$/, "", h)
            h = tolower(h); gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
            a = h; if (seen[h]++) a = h "-" (seen[h] - 1)
            print a
        }' "$1"
}

# Prints "target" for every Markdown link of a file, outside code blocks and inline code.
links() {
    awk '
        /^```/ { code = !code; next }
        code { next }
        {
            line = $0; gsub(/`[^`]*`/, "", line)
            while (match(line, /\]\([^) ]+\)/)) {
                print substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$1"
}

links=0; anchored=0; noFile=0; noAnchor=0
for doc in README.md docs/*.md tools/*/README.md; do
    [ -e "$doc" ] || continue
    dir=$(dirname "$doc")
    for target in $(links "$doc"); do
        case "$target" in http://*|https://*|mailto:*) continue ;; esac
        path=${target%%#*}
        anchor=; case "$target" in *'#'*) anchor=${target#*#} ;; esac
        file=$doc; [ -n "$path" ] && file=$dir/$path
        links=$((links + 1))
        if [ ! -e "$file" ]; then
            echo "FAIL: $doc links to $target: no file $file"; noFile=$((noFile + 1))
        elif [ -n "$anchor" ]; then
            anchored=$((anchored + 1))
            anchors "$file" | grep -qx -- "$anchor" ||
                { echo "FAIL: $doc links to $target: $file has no heading with anchor #$anchor"; noAnchor=$((noAnchor + 1)); }
        fi
    done
done
passed=0; failed=0
if [ "$links" -gt 0 ] && [ "$noFile" -eq 0 ]; then passed=$((passed + 1))
else failed=$((failed + 1)); echo "FAIL: $noFile of $links relative links name no file"; fi
if [ "$anchored" -gt 0 ] && [ "$noAnchor" -eq 0 ]; then passed=$((passed + 1))
else failed=$((failed + 1)); echo "FAIL: $noAnchor of $anchored anchors name no heading"; fi
echo "$links relative links, $anchored with an anchor"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
