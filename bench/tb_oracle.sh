#!/bin/sh
# The full Syzygy oracle run: tests/test_syzygy_oracle.sh (Gizum against
# fathom) with PER_TABLE random positions per table, 1000 by default, i.e.
# about 40,000 positions on the shared tables (a few minutes on 2 cores).
#
#   bench/tb_oracle.sh [PER_TABLE] [SEED]
set -eu
cd "$(dirname "$0")/.."
make -s -j2 build/native-gcc/tests/tb_oracle
TESTBIN=build/native-gcc/tests TB_ORACLE_PER_TABLE=${1:-1000} TB_ORACLE_SEED=${2:-2} sh tests/test_syzygy_oracle.sh
