#!/bin/sh
# The full Syzygy oracle run: tests/test_syzygy_oracle.sh (Gizum against
# fathom) with PER_TABLE random positions per table, 1000 by default, i.e.
# about 40,000 positions on the shared tables (a few minutes on 2 cores).
#
#   measure/tb_oracle.sh [PER_TABLE] [SEED]
#
# ARCH=... CC=... in the environment choose the build (default: make's own).
set -eu
cd "$(dirname "$0")/.."
vars="${ARCH:+ARCH=$ARCH} ${CC:+CC=$CC}"
build=$(make -s --no-print-directory print-build $vars)
make -s -j2 $vars "$build/tests/tb_oracle"
TESTBIN=$build/tests TB_ORACLE_PER_TABLE=${1:-1000} TB_ORACLE_SEED=${2:-2} sh tests/test_syzygy_oracle.sh
