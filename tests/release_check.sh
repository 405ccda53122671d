#!/bin/sh
# The release as a player gets it: tools/release.sh (make release) refuses a
# dirty tree and a version that is not src/base/version.h's, then builds every
# binary into OUT (default build/ci-release); each archive holds its
# binaries, the book, the man page and the documents; SHA256SUMS verifies;
# the Linux binaries are static, the Windows ones need system DLLs only;
# every x86-64 binary this CPU can run gives the bench signature; and a
# binary started on an older CPU (emulated by qemu-x86_64) says in one line
# what it lacks and exits instead of dying on an unknown instruction.
# RELEASE_TWICE=1 builds everything a second time, in a fresh clone in
# another folder, and compares the bytes (reproducibility; a few minutes).
#
# Run once by .ci/run, which then tests the released Windows and AArch64
# engines with tests/cross_windows.sh and tests/cross_arm.sh. A tree with
# uncommitted changes cannot be released: that is a loud SKIP, and a failure
# when CI=true. Environment: GIZUM (the native engine, default ./gizum).
set -u
cd "$(dirname "$0")/.."
NAME=release_check.sh
NATIVE=${GIZUM:-./gizum}
OUT=${1:-build/ci-release}
case "$OUT" in /*) ;; *) OUT=$(pwd)/$OUT ;; esac
. tests/cross_common.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gizum-release.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
version=$(sed -n 's/^#define ENGINE_VERSION "\(.*\)"$/\1/p' src/base/version.h)
prefix=gizum-$version

# Refusals first, in a throw-away clone (nothing is built): a wrong version, then a dirty tree.
head=$(git rev-parse HEAD)
if git clone -q . "$TMP/clone" 2> "$TMP/clone.err" && git -C "$TMP/clone" checkout -q "$head" 2>> "$TMP/clone.err"; then
    (cd "$TMP/clone" && sh tools/release.sh 0.0.1 "$TMP/none") > "$TMP/refuse" 2>&1
    [ $? -ne 0 ] && grep -q "src/base/version.h says $version" "$TMP/refuse"
    check $? "release.sh VERSION=0.0.1 was not refused: $(tail -n 3 "$TMP/refuse")"
    touch "$TMP/clone/stray.c"
    (cd "$TMP/clone" && sh tools/release.sh "$version" "$TMP/none") > "$TMP/refuse" 2>&1
    [ $? -ne 0 ] && grep -q "stray.c" "$TMP/refuse" && grep -q "uncommitted or untracked" "$TMP/refuse" && [ ! -e "$TMP/none" ]
    check $? "release.sh in a dirty tree was not refused: $(tail -n 3 "$TMP/refuse")"
else
    check 1 "git clone of the repository failed: $(cat "$TMP/clone.err")"
fi

if [ -n "$(git status --porcelain)" ]; then
    missing "the tree has uncommitted changes (git status --porcelain)" "the release build and its checks"
    finish
fi
start=$(now_ms)
sh tools/release.sh "$version" "$OUT" > "$TMP/release" 2>&1
status=$?
cat "$TMP/release"
check $status "tools/release.sh $version failed"
[ $status -eq 0 ] || finish
echo "$NAME: release built in $(( $(now_ms) - start )) ms"

linux=$prefix-linux-x86-64 windows=$prefix-windows-x86-64 arm=$prefix-linux-aarch64
docs="gizum.bin gizum.6 README.md LICENSE CHANGELOG.md $(git ls-files 'docs/*.md' | tr '\n' ' ')"
expect_files() { # expect_files ARCHIVE-LISTING PACKAGE BINARY...
    _list=$1 _package=$2
    shift 2
    for _f in "$@" $docs; do
        grep -qx "$_package/$_f" "$_list" || { echo "$NAME: $_package/$_f missing from the archive"; return 1; }
    done
}
tar -tzf "$OUT/$linux.tar.gz" > "$TMP/linux.list"
expect_files "$TMP/linux.list" "$linux" "$linux" "$linux-bmi2" "$linux-generic"; check $? "$linux.tar.gz contents"
tar -tzf "$OUT/$arm.tar.gz" > "$TMP/arm.list"
expect_files "$TMP/arm.list" "$arm" "$arm"; check $? "$arm.tar.gz contents"
if command -v unzip >/dev/null 2>&1; then
    unzip -Z1 "$OUT/$windows.zip" > "$TMP/windows.list"
else
    python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$OUT/$windows.zip" > "$TMP/windows.list"
fi
expect_files "$TMP/windows.list" "$windows" "$windows.exe" "$windows-bmi2.exe"; check $? "$windows.zip contents"
[ -s "$OUT/$prefix-source.tar.gz" ]; check $? "no source archive"
(cd "$OUT" && sha256sum -c --quiet SHA256SUMS); check $? "SHA256SUMS does not verify"
[ "$(wc -l < "$OUT/SHA256SUMS")" -eq 10 ]; check $? "SHA256SUMS should list 4 archives and 6 binaries: $(cat "$OUT/SHA256SUMS")"

# Static: nothing to find on the player's system.
if command -v file >/dev/null 2>&1; then
    for b in "$linux/$linux" "$linux/$linux-bmi2" "$linux/$linux-generic" "$arm/$arm"; do
        file -L "$OUT/$b" | grep -q 'statically linked'; check $? "$b is not statically linked: $(file -L "$OUT/$b")"
    done
fi
if command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1; then
    for b in "$windows/$windows.exe" "$windows/$windows-bmi2.exe"; do
        dlls=$(x86_64-w64-mingw32-objdump -p "$OUT/$b" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr '\n' ' ')
        ! echo "$dlls" | grep -qiv -E '^((KERNEL32|msvcrt|ADVAPI32)\.dll ?)+$'; check $? "$b imports $dlls"
    done
fi

# Every Linux x86-64 binary this CPU runs: the bench signature, and the book found beside it.
for b in "$linux" "$linux-bmi2" "$linux-generic"; do
    if "$OUT/$linux/$b" --version > /dev/null 2>&1; then
        NAME="release $b"; bench_check "$OUT/$linux/$b"; NAME=release_check.sh
        (cd "$TMP" && printf 'uci\nquit\n' | "$OUT/$linux/$b") | grep -q "^option name BookFile type string default .*/$linux/gizum.bin$"
        check $? "$b does not find gizum.bin beside itself"
    else
        echo "SKIP $NAME: this CPU cannot run $b: $("$OUT/$linux/$b" --version 2>&1 | head -n 1)"
    fi
done

# An older CPU, emulated: the build for a newer one says what is missing, in one line, and exits 1.
if command -v qemu-x86_64 >/dev/null 2>&1; then
    cpu_says() { # cpu_says QEMU-CPU BINARY INSTRUCTION-SET
        qemu-x86_64 -cpu "$1" "$OUT/$linux/$2" bench > "$TMP/cpu.out" 2> "$TMP/cpu.err"
        _status=$?
        echo "$NAME: $2 on a $1: exit $_status: $(cat "$TMP/cpu.err")"
        [ $_status -eq 1 ] && [ "$(wc -l < "$TMP/cpu.err")" -eq 1 ] && grep -q "needs a CPU with $3" "$TMP/cpu.err" && [ ! -s "$TMP/cpu.out" ]
        check $? "$2 on an emulated $1 did not refuse in one line (exit $_status)"
    }
    cpu_says Westmere "$linux-bmi2" "AVX"      # Westmere: POPCNT and SSE4.2, no AVX, AVX2, BMI2
    cpu_says Conroe "$linux" "POPCNT\|SSE4.2" # Core 2: neither
    qemu-x86_64 -cpu Conroe "$OUT/$linux/$linux-generic" perft 4 > "$TMP/cpu.out" 2>&1
    grep -q '^Nodes searched: 197281$' "$TMP/cpu.out"; check $? "$linux-generic does not run on a Core 2: $(tail -n 2 "$TMP/cpu.out")"
else
    missing "qemu-x86_64 not installed (Debian: qemu-user)" "the CPU check on emulated older CPUs"
fi

if [ "${RELEASE_TWICE:-0}" = 1 ]; then
    # Elsewhere: another folder, a fresh checkout of the same commit.
    git clone -q . "$TMP/again-src" && git -C "$TMP/again-src" checkout -q "$head" \
        && (cd "$TMP/again-src" && sh tools/release.sh "$version" "$TMP/again") > "$TMP/again.log" 2>&1
    check $? "the second release build failed: $(tail -n 5 "$TMP/again.log")"
    (cd "$OUT" && find . -type f | sort | xargs sha256sum) > "$TMP/first.sums"
    (cd "$TMP/again" && find . -type f | sort | xargs sha256sum) > "$TMP/second.sums"
    diff "$TMP/first.sums" "$TMP/second.sums"; check $? "two release builds differ (above)"
    echo "$NAME: two builds of $prefix: $(wc -l < "$TMP/first.sums") files, $(cmp -s "$TMP/first.sums" "$TMP/second.sums" && echo identical || echo DIFFERENT)"
fi
finish
