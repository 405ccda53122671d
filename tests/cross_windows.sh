#!/bin/sh
# The Windows engine is the same engine: gizum.exe, cross-built with
# MinGW-w64 (make TARGET=windows) and run under wine, gives the native bench
# signature and the listed perft counts, plays a scripted UCI session (uci,
# options, go depth with Threads 2, go movetime, ponder with ponderhit and
# stop, go infinite and stop, quit; lines ending in "\n"), finds and probes
# Syzygy tables through a Windows SyzygyPath (drive letters, ';' between
# folders) exactly as the native engine does, and plays a short match
# against the native engine through gizum-match.
#
# Run once by .ci/run (not a test_*.sh of `make test`: wine is slow to start
# and the sanitizer runs have nothing to add). Environment:
#   GIZUM        the native engine (default ./gizum, built when missing)
#   WINDOWS_EXE  the .exe to test (default: build one, build/cross/gizum.exe)
#   MATCH        gizum-match (default ./gizum-match, built when missing)
#   SYZYGY_PATH  Syzygy tables (default ../shared/syzygy beside the repository)
# A missing tool (MinGW-w64, wine) is a loud SKIP, and a failure when CI=true.
set -u
cd "$(dirname "$0")/.."
NAME=cross_windows.sh
NATIVE=${GIZUM:-./gizum}
MATCH=${MATCH:-./gizum-match}
TB_DIR=${SYZYGY_PATH:-$(pwd)/../shared/syzygy}
. tests/cross_common.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gizum-windows.XXXXXX") || exit 1
WINE_STARTED=
cleanup() {
    [ -n "$WINE_STARTED" ] && wineserver -k 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

engine_program "${WINDOWS_EXE:-}" x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64 build/cross/gizum.exe TARGET=windows
EXE=$PROGRAM

# A bare Windows has no MinGW or winpthread DLLs: the .exe must need system DLLs only.
if command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1; then
    dlls=$(x86_64-w64-mingw32-objdump -p "$EXE" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr '\n' ' ')
    echo "$NAME: $EXE imports $dlls"
    ! echo "$dlls" | grep -qiv -E '^((KERNEL32|msvcrt|ADVAPI32)\.dll ?)+$'
    check $? "$EXE imports DLLs a bare Windows lacks: $dlls"
fi

if ! command -v wine >/dev/null 2>&1; then
    missing "wine not installed" "running gizum.exe"
    finish
fi
[ -x "$NATIVE" ] || make -s -j2 > /dev/null 2>&1
[ -x "$MATCH" ] || make -s -j2 match > /dev/null 2>&1

# A prefix of our own, made once (the first start takes seconds), without the
# Mono and Gecko installers; one wineserver for the whole run, stopped at the end.
export WINEPREFIX=${WINEPREFIX:-${TMPDIR:-/tmp}/gizum-wine-$(id -u)} WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
start=$(now_ms)
mkdir -p "$WINEPREFIX" && wineserver -p && WINE_STARTED=1
wine "$EXE" --version > "$TMP/version" 2> /dev/null
check $? "wine $EXE --version failed"
echo "$NAME: $(head -n 2 "$TMP/version" | tr '\n' ' ')(wine ready in $(( $(now_ms) - start )) ms)"

timed bench_check wine "$EXE"
timed perft_check wine "$EXE"
timed session_check wine "$EXE"

# The book beside the .exe (as in the release archive) is the default BookFile, and plays.
if [ -f "$(dirname "$EXE")/gizum.bin" ]; then
    engine_start wine "$EXE"
    send uci "setoption name OwnBook value true" "position startpos" "go depth 2"
    expect '^bestmove ' 60 > /dev/null
    engine_quit 20
    grep -q '^option name BookFile type string default .*[\\/]gizum\.bin$' "$TMP/out" && grep -q '^info string book move ' "$TMP/out"
    check $? "the book beside $EXE is not found: $(grep -E 'BookFile|info string book' "$TMP/out")"
    printf '%s\n' "$NAME: $(grep '^option name BookFile' "$TMP/out")"
fi

if [ -r "$TB_DIR/KRPvKR.rtbw" ]; then
    # The Windows spelling of the folder (Z:\...), after a missing one: ';' separates them.
    timed tb_check "C:\\no-such-folder;$(winepath -w "$TB_DIR" 2>/dev/null)" wine "$EXE"
else
    missing "no Syzygy tables in $TB_DIR (set SYZYGY_PATH)" "the SyzygyPath probe"
fi

# Four games at a fast clock against the native engine: no illegal move, no time loss, no crash.
# Slack for a loaded machine (CI shares two cores): each engine keeps 200 ms of Move Overhead and
# a flag falls 500 ms late, since a descheduled process (either engine, under wine or not) can
# lose more than the default 10 ms; this checks the engines, not the machine's scheduling.
if [ -x "$MATCH" ]; then
    start=$(now_ms)
    "$MATCH" -engine cmd=wine args="$EXE" name=Windows -engine cmd="$NATIVE" name=Linux -timemargin 500 \
        -each tc=2+0.05 option.Hash=16 "option.Move Overhead=200" -games 4 -inittimeout 60 -openings file=books/openings.epd \
        -draw movenumber=40 movecount=8 score=10 -resign movecount=4 score=800 -ratinginterval 0 \
        -pgnout "$TMP/games.pgn" > "$TMP/match" 2>&1
    check $? "gizum-match failed: $(tail -n 5 "$TMP/match")"
    grep '^Finished game\|^Score of' "$TMP/match"
    [ "$(grep -c '^Finished game' "$TMP/match")" -eq 4 ]; check $? "the match did not finish 4 games"
    ! grep '^Finished game' "$TMP/match" | grep -qiE 'time|illegal|disconnect|crash|stall|forfeit'
    check $? "a game ended by a fault"
    echo "$NAME match: $(( $(now_ms) - start )) ms"
else
    missing "$MATCH not built" "the match against the native engine"
fi
finish
