#!/bin/sh
# tools/release.sh VERSION [OUTDIR]: the release binaries, archives and
# SHA256SUMS, as `make release VERSION=x.y.z` builds them (docs/release.md).
#
# From a clean tree only: the source is the commit (git archive HEAD),
# unpacked under build/release/, so nothing uncommitted or untracked can
# reach a binary. VERSION must be the version in src/base/version.h (bump it
# there, in gizum.6 and in CHANGELOG.md, and commit first).
#
# Reproducible: the same commit built with the same toolchain (Debian 12:
# gcc 12.2, MinGW-w64 gcc 12, aarch64-linux-gnu-gcc 12.2) gives the same
# bytes. Paths are mapped away (-ffile-prefix-map), PE files carry no time
# stamp, every file of an archive gets the commit's time
# (SOURCE_DATE_EPOCH), tar sorts names and drops owners, gzip drops names
# and times, zip drops extra attributes, and everything runs in UTC.
#
# Needs: git, make, gcc, x86_64-w64-mingw32-gcc (gcc-mingw-w64-x86-64),
# aarch64-linux-gnu-gcc (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross),
# GNU tar, gzip, zip and sha256sum. JOBS=N sets make's -j (default 2).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
die() { echo "release: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: tools/release.sh VERSION [OUTDIR] (or make release VERSION=x.y.z)"
version=$1
out=${2:-dist}
source_version=$(sed -n 's/^#define ENGINE_VERSION "\(.*\)"$/\1/p' src/base/version.h)
echo "$version" | grep -qE '^[0-9]+\.[0-9]+\.[0-9]+$' || die "VERSION '$version' is not MAJOR.MINOR.PATCH"
[ "$version" = "$source_version" ] \
    || die "VERSION=$version, but src/base/version.h says $source_version: change it there (and in gizum.6, CHANGELOG.md), commit, then release"

missing=
for tool in git make gcc x86_64-w64-mingw32-gcc aarch64-linux-gnu-gcc tar gzip zip sha256sum; do
    command -v "$tool" > /dev/null 2>&1 || missing="$missing $tool"
done
[ -z "$missing" ] || die "missing tools:$missing (Debian: make gcc gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross zip)"

dirty=$(git status --porcelain)
if [ -n "$dirty" ]; then
    echo "$dirty" | head -n 20 >&2
    die "the tree has uncommitted or untracked changes (above): a release is built from a commit; commit or stash them"
fi

rev=$(git describe --always --abbrev=12)
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
TZ=UTC
LC_ALL=C
export SOURCE_DATE_EPOCH TZ LC_ALL

# The commit's source, alone.
src=$root/build/release/gizum-$version
rm -rf "$root/build/release"
mkdir -p "$src"
git archive HEAD | tar -x -C "$src"

mkdir -p "$out"
case "$out" in /*) ;; *) out=$root/$out ;; esac
prefix=gizum-$version
rm -rf "$out/$prefix"-* "$out/SHA256SUMS"

# build PACKAGE FILE MAKE-ARGUMENTS...: one binary into $out/PACKAGE/FILE.
build() {
    package=$1 file=$2
    shift 2
    mkdir -p "$out/$package"
    echo "release: $file ($*)"
    # A make of our own: nothing inherited from a `make release` that runs us.
    env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$src" -s -j"${JOBS:-2}" GIT_REV="$rev" BUILD_SUFFIX=-release \
        EXTRA_CFLAGS="-ffile-prefix-map=$src=$prefix" EXE="$out/$package/$file" "$@" > "$root/build/release/log" 2>&1 \
        || { tail -n 30 "$root/build/release/log" >&2; die "building $file failed"; }
}
linux=$prefix-linux-x86-64
build "$linux" "$linux" ARCH=x86-64 EXTRA_LDFLAGS="-static -s"
build "$linux" "$linux-bmi2" ARCH=x86-64-bmi2 EXTRA_LDFLAGS="-static -s"
build "$linux" "$linux-generic" ARCH=generic EXTRA_LDFLAGS="-static -s"
windows=$prefix-windows-x86-64
build "$windows" "$windows.exe" TARGET=windows ARCH=x86-64 EXTRA_LDFLAGS="-s"
build "$windows" "$windows-bmi2.exe" TARGET=windows ARCH=x86-64-bmi2 EXTRA_LDFLAGS="-s"
arm=$prefix-linux-aarch64
build "$arm" "$arm" ARCH=armv8 CC=aarch64-linux-gnu-gcc EXTRA_LDFLAGS="-static -s"

# Beside the binaries: the book (found beside the executable), the man page and the documents
# (README.md and the docs/ pages it links to, docs/release.md among them).
cd "$out"
for package in "$linux" "$windows" "$arm"; do
    cp "$src/books/gizum.bin" "$src/gizum.6" "$src/README.md" "$src/LICENSE" "$src/CHANGELOG.md" "$package/"
    mkdir -p "$package/docs"
    cp "$src"/docs/*.md "$package/docs/"
    find "$package" -type f -exec chmod 644 {} +
    find "$package" -type f -name "$prefix-*" -exec chmod 755 {} +
    find "$package" -type d -exec chmod 755 {} +
    find "$package" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
done

for package in "$linux" "$arm"; do
    tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner --format=gnu \
        -cf - "$package" | gzip -9n > "$package.tar.gz"
done
find "$windows" -type f | sort | zip -X -D -q -9 "$windows.zip" -@
(cd "$root" && git archive --format=tar --prefix="$prefix/" HEAD) | gzip -9n > "$prefix-source.tar.gz"

{
    ls "$prefix"-*.tar.gz "$prefix"-*.zip
    find "$linux" "$windows" "$arm" -type f -name "$prefix-*"
} | sort | xargs sha256sum > SHA256SUMS

echo "release: $out (commit $rev, SOURCE_DATE_EPOCH $SOURCE_DATE_EPOCH)"
find "$linux" "$windows" "$arm" -type f -name "$prefix-*" | sort | xargs ls -l | awk '{printf "  %10d  %s\n", $5, $NF}'
ls -l "$prefix"-*.tar.gz "$prefix"-*.zip | awk '{printf "  %10d  %s\n", $5, $NF}'
