#!/bin/sh
# Syzygy probe speed: builds measure/tb_speed.c against the engine archives and
# runs it on the shared tables.
#
#   measure/tb_speed.sh [POSITIONS] [PASSES]      (default 100000 positions, 5 warm passes)
#
# ARCH=... CC=... in the environment choose the build (default: make's own),
# e.g. ARCH=x86-64 CC=clang measure/tb_speed.sh.
# SYZYGY_PATH overrides the tables (default ../shared/syzygy). "Cold" is the
# first probe in this process (mmap, header parse, first page faults); the
# files may still be in the operating system's page cache, which this script
# does not drop (the machine is shared): a true cold start from disk is slower.
set -eu
cd "$(dirname "$0")/.."
tables=${SYZYGY_PATH:-../shared/syzygy}
set -- "${1:-100000}" "${2:-5}"
vars="${ARCH:+ARCH=$ARCH} ${CC:+CC=$CC}"
build=$(make -s --no-print-directory print-build $vars)
make -s -j2 $vars "$build/measure/tb_speed"
"$build/measure/tb_speed" "$tables" "$1" "$2"
