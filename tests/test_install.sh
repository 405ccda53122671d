#!/bin/sh
# make install / uninstall: PREFIX and DESTDIR honoured, the engine, the
# match runner, the book and the man page in place, the installed engine's
# BookFile default pointing at the installed book from any working
# directory, and the in-tree engine still finding books/gizum.bin.
# Builds its own copy (build/*-installtest, -O1) so the tree's binaries are
# never relinked with another PREFIX.
: "${GIZUM:?}"
passed=0; failed=0
check() { if [ "$1" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi; }
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=build/install-test
prefix=$root/$out/prefix
# A make of our own: nothing inherited from a `make test` or `make sanitize` that runs us.
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory EXE=$out/gizum MATCHEXE=$out/gizum-match \
       BUILD_SUFFIX=-installtest OPT=-O1 PREFIX="$prefix" "$@"; }
mkdir -p $out
rm -rf "$prefix"

mk install > "$tmp/log" 2>&1; check $? "make install failed: $(tail -5 "$tmp/log")"
[ -x "$prefix/bin/gizum" ] && [ -x "$prefix/bin/gizum-match" ]; check $? "gizum and gizum-match installed in PREFIX/bin"
cmp -s books/gizum.bin "$prefix/share/gizum/gizum.bin"; check $? "the book installed in PREFIX/share/gizum"
grep -q "$prefix/share/gizum/gizum.bin" "$prefix/share/man/man6/gizum.6"; check $? "man page in man6 with the real data directory"

# The installed engine finds its book from anywhere.
(cd "$tmp" && printf 'uci\nquit\n' | "$prefix/bin/gizum") > "$tmp/uci" 2>&1
grep -q "^option name BookFile type string default $prefix/share/gizum/gizum.bin$" "$tmp/uci"
check $? "installed BookFile default is the installed book: $(grep BookFile "$tmp/uci")"
(cd "$tmp" && printf 'setoption name OwnBook value true\nposition startpos\ngo depth 2\nquit\n' | "$prefix/bin/gizum") > "$tmp/book" 2>&1
grep -q "^info string book $prefix/share/gizum/gizum.bin: [0-9]* entries" "$tmp/book" && grep -q '^info string book move ' "$tmp/book"
check $? "installed engine plays from the installed book: $(head -3 "$tmp/book")"
"$prefix/bin/gizum" --version | grep -q '^build: .*ARCH native'; check $? "installed --version"
"$prefix/bin/gizum-match" -help | grep -q '^usage: gizum-match'; check $? "installed gizum-match runs"

# From the source tree, the book beside the executable is still found.
case "$GIZUM" in /*) tree=$GIZUM ;; *) tree=$root/${GIZUM#./} ;; esac
(cd "$tmp" && printf 'uci\nquit\n' | "$tree") | grep -q "^option name BookFile type string default $root/books/gizum.bin$"
check $? "the in-tree engine finds books/gizum.bin beside itself"

# DESTDIR stages the same layout under another root; uninstall removes it again.
mk install DESTDIR="$tmp/stage" > "$tmp/log" 2>&1; check $? "make install DESTDIR failed: $(tail -5 "$tmp/log")"
# (Every file: the loop's status alone would be the last file's.)
absent=""
for f in bin/gizum bin/gizum-match share/gizum/gizum.bin share/man/man6/gizum.6; do
    [ -f "$tmp/stage$prefix/$f" ] || absent="$absent $f"
done
[ -z "$absent" ]; check $? "DESTDIR holds the whole installation; missing:$absent"
mk uninstall DESTDIR="$tmp/stage" > "$tmp/log" 2>&1
[ -z "$(find "$tmp/stage" -type f)" ]; check $? "make uninstall DESTDIR removes every file: $(find "$tmp/stage" -type f)"
[ -x "$prefix/bin/gizum" ]; check $? "uninstalling under DESTDIR leaves the real installation alone"
mk uninstall > "$tmp/log" 2>&1
[ ! -e "$prefix/bin/gizum" ] && [ ! -e "$prefix/bin/gizum-match" ] && [ ! -e "$prefix/share/gizum" ] && [ ! -e "$prefix/share/man/man6/gizum.6" ]
check $? "make uninstall removes the installation"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
