#!/bin/sh
# Syzygy probe speed: builds bench/tb_speed.c against the engine archive and
# runs it on the shared tables.
#
#   bench/tb_speed.sh [POSITIONS] [PASSES]      (default 100000 positions, 5 warm passes)
#
# SYZYGY_PATH overrides the tables (default ../shared/syzygy). "Cold" is the
# first probe in this process (mmap, header parse, first page faults); the
# files may still be in the operating system's page cache, which this script
# does not drop (the machine is shared): a true cold start from disk is slower.
set -eu
cd "$(dirname "$0")/.."
tables=${SYZYGY_PATH:-../shared/syzygy}
make -s -j2 >/dev/null
build=build/native-gcc
mkdir -p "$build/bench"
gcc -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -O3 -march=native -DNDEBUG -Isrc \
    -o "$build/bench/tb_speed" bench/tb_speed.c "$build/libengine.a" "$build/libboard.a" -pthread -lm
"$build/bench/tb_speed" "$tables" "${1:-100000}" "${2:-5}"
