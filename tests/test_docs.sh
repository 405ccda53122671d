#!/bin/sh
# The documentation's links hold: every relative link in README.md and the
# Markdown files under docs/ and tools/ names a file that exists, and every
# #anchor names a heading of its file (GitHub's anchors: the heading in lower
# case, punctuation dropped, blanks turned into hyphens, -1, -2 ... after
# repeats). Links to the web are not followed. One check per link.
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

passed=0; failed=0
for doc in README.md docs/*.md tools/*/README.md; do
    [ -e "$doc" ] || continue
    dir=$(dirname "$doc")
    for target in $(links "$doc"); do
        case "$target" in http://*|https://*|mailto:*) continue ;; esac
        path=${target%%#*}
        anchor=; case "$target" in *'#'*) anchor=${target#*#} ;; esac
        file=$doc; [ -n "$path" ] && file=$dir/$path
        if [ ! -e "$file" ]; then
            echo "FAIL: $doc links to $target: no file $file"; failed=$((failed + 1))
        elif [ -n "$anchor" ] && ! anchors "$file" | grep -qx -- "$anchor"; then
            echo "FAIL: $doc links to $target: $file has no heading with anchor #$anchor"; failed=$((failed + 1))
        else
            passed=$((passed + 1))
        fi
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
