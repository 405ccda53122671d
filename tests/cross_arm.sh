#!/bin/sh
# The ARM engine is the same engine: Gizum cross-built for 64-bit ARM
# (make ARCH=armv8, aarch64-linux-gnu-gcc) and run under qemu-user gives
# the native bench signature and the listed perft counts, plays a scripted
# UCI session, and finds and probes Syzygy tables as the native engine does.
#
# Run once by .ci/run (not a test_*.sh of `make test`: the bench alone takes
# half a minute under emulation). Environment:
#   GIZUM        the native engine (default ./gizum, built when missing)
#   ARM_EXE      the AArch64 binary to test (default: build one, build/cross/gizum-armv8)
#   SYZYGY_PATH  Syzygy tables (default ../shared/syzygy beside the repository)
# A missing tool (the cross compiler, qemu-aarch64) is a loud SKIP, and a failure when CI=true.
set -u
cd "$(dirname "$0")/.."
NAME=cross_arm.sh
NATIVE=${GIZUM:-./gizum}
TB_DIR=${SYZYGY_PATH:-$(pwd)/../shared/syzygy}
. tests/cross_common.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gizum-arm.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

engine_program "${ARM_EXE:-}" aarch64-linux-gnu-gcc "gcc-aarch64-linux-gnu libc6-dev-arm64-cross" \
    build/cross/gizum-armv8 ARCH=armv8 CC=aarch64-linux-gnu-gcc
BIN=$PROGRAM
if command -v file >/dev/null 2>&1; then
    file -L "$BIN" | grep -q 'ARM aarch64'; check $? "$BIN is not an AArch64 program: $(file -L "$BIN")"
fi

if ! command -v qemu-aarch64 >/dev/null 2>&1; then
    missing "qemu-aarch64 not installed (Debian: qemu-user)" "running the ARM engine"
    finish
fi
[ -x "$NATIVE" ] || make -s -j2 > /dev/null 2>&1
# -L: the AArch64 C library for a dynamically linked build (release builds are static).
RUN="qemu-aarch64 -L /usr/aarch64-linux-gnu $BIN"
$RUN --version > "$TMP/version" 2>&1
check $? "$RUN --version failed: $(head -n 3 "$TMP/version")"
echo "$NAME: $(head -n 2 "$TMP/version" | tr '\n' ' ')"

# shellcheck disable=SC2086
{
    timed bench_check $RUN
    timed perft_check $RUN
    timed session_check $RUN
}
if [ -r "$TB_DIR/KRPvKR.rtbw" ]; then
    # shellcheck disable=SC2086
    timed tb_check "/no-such-folder:$TB_DIR" $RUN
else
    missing "no Syzygy tables in $TB_DIR (set SYZYGY_PATH)" "the SyzygyPath probe"
fi
finish
