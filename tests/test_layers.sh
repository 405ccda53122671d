#!/bin/sh
# The layering promise, checked. A module is a .c file with its .h (or a
# header alone); its layer is its folder, and the layers stand, bottom up:
#
#   base        src/base/        utilities below the chess: files, numbers, pages, the platform (OS and CPU), progress, version
#   board       src/board/       the board, its rules and its notations
#   eval        src/eval/        the evaluation and the win/draw/loss model
#   tablebase   src/tablebase/   the Syzygy prober           (beside eval)
#   search      src/search/      the search, its tables, time and threads
#   protocol    src/protocol/    UCI
#   offline     src/offline/     the offline tools of ./gizum (beside protocol)
#   program     src/             the entry point and the one command table
#
#   match       tools/match/     gizum-match: the board alone (beside eval)
#   tune        tools/tune/      gizum-tune: the engine and the offline tools
#   tools       tools/           magic_gen, the generator of src/board/magics.c
#
# Every #include goes to the same module's folder or to a lower layer; two
# layers on one floor stand beside each other and never include each other.
# No include loop anywhere, between modules or within a folder. A file in
# no layer's folder fails. README.md's source map and docs/architecture.md
# name exactly the modules of each folder, in the order of the layers, and
# the functions on architecture.md's path of a `go` are where it says.
#
#   sh tests/test_layers.sh            the checks
#   sh tests/test_layers.sh --list     the map: layer, folder, modules, top down
#   sh tests/test_layers.sh --edges    every include edge between modules
#   sh tests/test_layers.sh --depth    the longest include chain
set -u
cd "$(dirname "$0")/.."

# layer floor folder: the engine and its tools top down, then the programs of their own
# (the order --list prints and the docs follow).
LAYERS='program 7 src/
protocol 6 src/protocol/
offline 6 src/offline/
search 5 src/search/
eval 4 src/eval/
tablebase 4 src/tablebase/
board 2 src/board/
base 1 src/base/
match 4 tools/match/
tune 7 tools/tune/
tools 7 tools/'
# The compiler's include path, in the Makefile's order (INCLUDES).
INCLUDE_PATH="src/base src/board src/eval src/tablebase src/search src/protocol src/offline src tools/match tools/tune"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every source file, and its module: the path without .c/.h.
find src tools -name '*.[ch]' | sort > "$tmp/files"

# folder/name -> module name as the map shows it (name, or name.h for a header alone).
awk '{ m = $0; sub(/\.[ch]$/, "", m); print m }' "$tmp/files" | sort -u > "$tmp/modules"

# Resolves each quoted include as the compiler does: the including file's folder, then the path.
awk -v path="$INCLUDE_PATH" '
    function norm(p) { while (sub(/[^\/]*\/\.\.\//, "", p)) ; return p }
    function module(p) { sub(/\.[ch]$/, "", p); return p }
    { known[$0]; files[++n] = $0 }
    END {
        np = split(path, dirs, " ")
        for (i = 1; i <= n; i++) {
            f = files[i]; dir = f; sub(/\/[^\/]*$/, "", dir)
            while ((getline line < f) > 0) {
                if (line !~ /^#include "/) continue
                inc = line; sub(/^#include "/, "", inc); sub(/".*/, "", inc)
                hit = norm(dir "/" inc)
                for (k = 1; !(hit in known) && k <= np; k++) hit = norm(dirs[k] "/" inc)
                if ((hit in known) && module(f) != module(hit)) print module(f), module(hit)
            }
            close(f)
        }
    }' "$tmp/files" | sort -u > "$tmp/edges"

layer_of() {
    m=$1; dir=${m%/*}/
    echo "$LAYERS" | awk -v d="$dir" '$3 == d { print $1, $2; exit }'
}
shown_module() {
    m=$1
    if [ -e "$m.c" ]; then echo "${m##*/}"; else echo "${m##*/}.h"; fi
}

case "${1:-}" in
--edges)
    cat "$tmp/edges"; exit 0 ;;
--list)
    echo "$LAYERS" | while read -r layer floor dir; do
        mods=$(grep "^${dir}[^/]*\$" "$tmp/modules" | while read -r m; do shown_module "$m"; done | tr '\n' ' ')
        printf '%-10s %-15s %s\n' "$layer" "$dir" "${mods% }"
    done
    exit 0 ;;
esac

# The longest include chain (modules, top first), for --depth and the report.
longest_chain() {
    awk '
        { out[$1] = out[$1] " " $2; node[$1]; node[$2] }
        function depth(v,   n, i, w, d, best) {
            if (v in memo) return memo[v]
            if (v in busy) return 0          # a loop: counted once (the loop check reports it)
            busy[v]; best = 0; next_of[v] = ""
            n = split(out[v], w, " ")
            for (i = 1; i <= n; i++) { d = depth(w[i]); if (d > best) { best = d; next_of[v] = w[i] } }
            delete busy[v]
            return memo[v] = best + 1
        }
        END {
            top = ""; for (v in node) if (depth(v) > depth(top)) top = v
            printf "%d:", depth(top)
            for (v = top; v != ""; v = next_of[v]) printf " %s", v
            print ""
        }' "$tmp/edges"
}
if [ "${1:-}" = "--depth" ]; then longest_chain; exit 0; fi

# Each numbered rule is one check over all the modules, edges or lines it
# covers; a broken rule prints a FAIL line per offender and counts once.
passed=0; failed=0; bad=0
offender() { echo "FAIL: $*"; bad=$((bad + 1)); }
rule() {
    if [ "$bad" -eq 0 ]; then passed=$((passed + 1))
    else echo "FAIL: rule broken $bad times: $*"; failed=$((failed + 1))
    fi
    bad=0
}

# 1. Every module stands in a layer, and no two headers share a name (an include names the file alone).
while read -r m; do
    [ -n "$(layer_of "$m")" ] || offender "$m is in no layer's folder (tests/test_layers.sh)"
done < "$tmp/modules"
[ -s "$tmp/modules" ] || offender "no modules found"
rule "every module stands in a layer"
dups=$(grep '\.h$' "$tmp/files" | sed 's|.*/||' | sort | uniq -d | tr '\n' ' ')
[ -z "$dups" ] || offender "headers with the same name in two folders: $dups"
rule "header names are unique"

# 2. Every edge goes to its own folder or a lower floor.
while read -r from to; do
    set -- $(layer_of "$from"); lf=${1:-?}; ff=${2:-0}
    set -- $(layer_of "$to"); lt=${1:-?}; ft=${2:-0}
    if [ "$lf" = "$lt" ] || [ "$ft" -lt "$ff" ]; then :
    elif [ "$ft" -eq "$ff" ]; then offender "$from ($lf) includes $to ($lt): they stand beside each other"
    else offender "$from ($lf) includes $to ($lt), a higher layer"
    fi
done < "$tmp/edges"
[ -s "$tmp/edges" ] || offender "no include edges found"
rule "every include goes down or stays in its folder"

# 3. No loop: a module that reaches itself through includes.
loops=$(awk '
    { out[$1] = out[$1] " " $2; node[$1] }
    function visit(v,   n, i, w, k, path) {
        state[v] = 1; stack[++top] = v
        n = split(out[v], w, " ")
        for (i = 1; i <= n; i++) {
            if (state[w[i]] == 1) {
                path = w[i]; for (k = top; stack[k] != w[i]; k--) path = stack[k] " -> " path
                print w[i] " -> " path
            } else if (!state[w[i]]) visit(w[i])
        }
        top--; state[v] = 2
    }
    END { for (v in node) if (!state[v]) visit(v) }' "$tmp/edges")
if [ -n "$loops" ]; then
    echo "$loops" | while read -r l; do echo "FAIL: include loop: $l"; done
    bad=$(echo "$loops" | wc -l)
fi
rule "no include loop"

# 4. The maps in the docs name exactly the modules of each folder, top down.
sh "$0" --list | awk '{ printf "%s %s:", $1, $2; for (i = 3; i <= NF; i++) printf " %s", $i; print "" }' > "$tmp/map"
for doc in README.md docs/architecture.md; do
    # The map's rows: | layer | `folder` | `module` `module` ... | what |
    awk -F'|' '/^\| *[a-z]+ *\| *`(src|tools)\/[a-z/]*` *\|/ {
        layer = $2; gsub(/ /, "", layer); folder = $3; gsub(/[ `]/, "", folder)
        mods = $4; gsub(/`/, "", mods); gsub(/  +/, " ", mods); sub(/^ /, "", mods); sub(/ $/, "", mods)
        print layer " " folder ": " mods
    }' "$doc" > "$tmp/docmap"
    if ! cmp -s "$tmp/map" "$tmp/docmap"; then
        offender "$doc's source map differs from the code (< code, > $doc):"; diff "$tmp/map" "$tmp/docmap" | grep '^[<>]'
    fi
done
rule "the source maps of README.md and docs/architecture.md are the code's"

# 5. The path of a `go` in docs/architecture.md names functions where they are defined.
awk '/^## The path of a `go`/ { on = 1 } on && /^```/ { if (block) exit; block = 1; next }
     block && match($0, /(src|tools)\/[a-z_\/]+\.[ch]/) {
        file = substr($0, RSTART, RLENGTH); rest = $0
        while (match(rest, /[a-z_][a-z0-9_]*\(\)/)) { print file, substr(rest, RSTART, RLENGTH - 2); rest = substr(rest, RSTART + RLENGTH) }
     }' docs/architecture.md > "$tmp/path"
[ -s "$tmp/path" ] || offender "docs/architecture.md: no path of a go found"
while read -r file fn; do
    [ -e "$file" ] && grep -Eq "^[A-Za-z].*[ *]$fn\(" "$file" ||
        offender "docs/architecture.md's path of a go: $fn() is not defined in $file"
done < "$tmp/path"
rule "the path of a go names functions where they are defined"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
