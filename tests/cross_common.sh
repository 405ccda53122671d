# Shared by tests/cross_windows.sh and tests/cross_arm.sh (sourced, not run):
# checks that an engine built for another system or CPU, run through an
# emulator (wine, qemu-user), is the same engine as the native one. Its name
# does not start with test_, so tests/run_all.sh (and with it the sanitizer
# runs) leaves these heavy checks alone; .ci/run calls them once.
#
# The caller sets NAME (for messages), NATIVE (the native engine) and TMP (a
# scratch folder), and passes the engine's command line (program and
# arguments, no blanks inside one) to the functions.

passed=0; failed=0
check() { # check EXIT-STATUS MESSAGE
    if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi
}
# A missing tool: a failure under CI (.ci/run installs them all), a loud SKIP otherwise.
missing() { # missing WHAT-IS-MISSING WHAT-CANNOT-RUN
    if [ "${CI:-}" = true ]; then failed=$((failed + 1)); echo "FAIL: $1, so $2 cannot run (CI=true)"
    else echo "SKIP $NAME: $2 ($1)"; fi
}
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
timed() { _t=$(now_ms); "$@"; echo "$NAME: $1 took $(( $(now_ms) - _t )) ms"; }

# engine_program GIVEN COMPILER DEBIAN-PACKAGE FILE MAKE-ARGUMENTS...: sets PROGRAM to GIVEN
# (an absolute path) when set, else builds FILE with make and the arguments; ends the test
# (a SKIP, or a failure when CI=true) when the cross compiler is missing or the build fails.
engine_program() {
    PROGRAM=$1 _cc=$2 _package=$3 _file=$4
    shift 4
    if [ -z "$PROGRAM" ]; then
        if ! command -v "$_cc" >/dev/null 2>&1; then
            missing "$_cc not installed (Debian: $_package)" "the build and its tests"
            finish
        fi
        mkdir -p "$(dirname "$_file")"
        make -s -j2 EXE="$_file" "$@" > "$TMP/build" 2>&1
        check $? "make $* failed: $(tail -n 20 "$TMP/build")"
        PROGRAM=$_file
        [ -f "$PROGRAM" ] || finish
    fi
    case "$PROGRAM" in /*) ;; *) PROGRAM=$(pwd)/$PROGRAM ;; esac
}

# ------------------------------------------------------------ an engine behind a FIFO

# engine_start COMMAND...: the engine reads $TMP/in (a FIFO held open on fd 3), writes $TMP/out.
engine_start() {
    rm -f "$TMP/in" "$TMP/out"
    mkfifo "$TMP/in"
    "$@" < "$TMP/in" > "$TMP/out" 2> "$TMP/err" &
    ENGINE_PID=$!
    exec 3> "$TMP/in"
    MARK=0
}
send() { printf '%s\n' "$@" >&3; }
# Later expectations look only at what comes after this point.
mark() { MARK=$(wc -l < "$TMP/out"); }
since_mark() { tail -n +"$((MARK + 1))" "$TMP/out"; }
# expect ERE SECONDS: waits for a line after the mark that matches; prints it; status 1 on timeout.
expect() {
    _deadline=$(( $(now_ms) + $2 * 1000 ))
    while [ "$(now_ms)" -lt "$_deadline" ]; do
        _line=$(since_mark | grep -E -m1 -- "$1") && { echo "$_line"; return 0; }
        kill -0 "$ENGINE_PID" 2>/dev/null || { since_mark | grep -E -m1 -- "$1"; return; }
        sleep 0.05
    done
    return 1
}
# engine_quit SECONDS: sends quit and waits for the exit; kills the engine if it hangs.
# Returns the engine's exit status (1 after a kill).
engine_quit() {
    send quit
    exec 3>&-
    _deadline=$(( $(now_ms) + $1 * 1000 ))
    while kill -0 "$ENGINE_PID" 2>/dev/null && [ "$(now_ms)" -lt "$_deadline" ]; do sleep 0.05; done
    if kill -0 "$ENGINE_PID" 2>/dev/null; then
        kill "$ENGINE_PID" 2>/dev/null; wait "$ENGINE_PID" 2>/dev/null
        return 1
    fi
    wait "$ENGINE_PID"
}

# ------------------------------------------------------------ the checks

# bench_check COMMAND...: the bench signature (node count) equals the native engine's.
bench_check() {
    _native=$("$NATIVE" bench 2>/dev/null | tail -n 1 | awk '{print $1}')
    _start=$(now_ms)
    _last=$("$@" bench 2>/dev/null | tail -n 1)
    BENCH_LINE=$_last
    echo "$NAME bench: $_last ($(( $(now_ms) - _start )) ms); native: $_native nodes"
    [ -n "$_native" ] && [ "${_last%% *}" = "$_native" ]
    check $? "$NAME bench '${_last%% *}' is not the native bench $_native"
}

# perft_check COMMAND...: every position of the perft suites (standard and Chess960), in one
# UCI session, to the deepest listed depth with at most PERFT_MAX leaves, gives the listed count.
perft_check() {
    : > "$TMP/perft.cmd"; : > "$TMP/perft.want"
    for _suite in perft_classic perft_tricky chess960; do
        echo "setoption name UCI_Chess960 value $([ $_suite = chess960 ] && echo true || echo false)" >> "$TMP/perft.cmd"
        # The deepest ";Dn count" pair within the budget, for each position.
        grep -v '^#' "tests/data/$_suite.epd" | awk -F' ;' -v max="${PERFT_MAX:-200000}" '
            NF > 1 { d = 0; for (i = 2; i <= NF; i++) { split($i, f, " "); if (f[2] + 0 <= max) { d = substr(f[1], 2); c = f[2] } }
                     if (d > 0) { print "position fen " $1 "\ngo perft " d > "/dev/stderr"; print c } }' \
            >> "$TMP/perft.want" 2>> "$TMP/perft.cmd"
    done
    _n=$(wc -l < "$TMP/perft.want")
    engine_start "$@"
    send "$(cat "$TMP/perft.cmd")" isready
    expect '^readyok' 300 > /dev/null
    engine_quit 20
    grep '^Nodes searched: ' "$TMP/out" | awk '{print $3}' > "$TMP/perft.got"
    _bad=$(paste -d' ' "$TMP/perft.want" "$TMP/perft.got" | awk '$1 != $2' | wc -l)
    echo "$NAME perft: $(grep -c . "$TMP/perft.got") of $_n positions counted, $_bad wrong"
    [ "$_n" -ge 50 ] && [ "$_bad" -eq 0 ] && [ "$(wc -l < "$TMP/perft.got")" -eq "$_n" ]
    check $? "$NAME perft: $_bad of $_n positions wrong: $(paste -d' ' "$TMP/perft.want" "$TMP/perft.got" | awk '$1 != $2' | head -n 3)"
}

# session_check COMMAND...: a scripted UCI session as a GUI drives it.
session_check() {
    _version=$("$NATIVE" --version | head -n 1)
    engine_start "$@"
    send uci
    expect '^uciok' 60 > /dev/null; check $? "$NAME uci: no uciok: $(head -c 300 "$TMP/out")"
    grep -q "^id name $_version\$" "$TMP/out"; check $? "$NAME uci: no 'id name $_version'"
    grep -q '^info string Gizum is free software under the GNU GPL' "$TMP/out"; check $? "$NAME uci: no licence line"
    for _opt in Threads Hash Ponder MultiPV SyzygyPath OwnBook BookFile UCI_Chess960; do
        grep -q "^option name $_opt type " "$TMP/out" || { echo "$NAME uci: no option $_opt"; false; }
        check $? "$NAME uci options"
    done
    mark; send isready
    expect '^readyok' 10 > /dev/null; check $? "$NAME isready"

    # Two threads and a bigger table, a fixed depth.
    mark; send "setoption name Hash value 64" "setoption name Threads value 2" isready
    expect '^readyok' 30 > /dev/null; check $? "$NAME Hash 64, Threads 2: no readyok"
    mark; send "position startpos moves e2e4 e7e5" "go depth 12"
    expect '^bestmove [a-h][1-8][a-h][1-8]' 120 > /dev/null; check $? "$NAME Threads 2 go depth 12: no bestmove"
    since_mark | grep -q '^info depth 12 '; check $? "$NAME go depth 12: no depth 12 line"
    mark; send "setoption name Threads value 1" ucinewgame isready
    expect '^readyok' 30 > /dev/null; check $? "$NAME Threads 1: no readyok"

    # go movetime: on time, give or take an emulator's start-up of the search.
    mark; _start=$(now_ms); send "position startpos" "go movetime 1000"
    expect '^bestmove ' 20 > /dev/null; _took=$(( $(now_ms) - _start ))
    [ "$_took" -ge 900 ] && [ "$_took" -le 4000 ]; check $? "$NAME go movetime 1000 took $_took ms"

    # Pondering: no bestmove before ponderhit; then one, on the clock; and stop ends a ponder search.
    mark; send "setoption name Ponder value true" "position startpos moves d2d4" "go ponder wtime 20000 btime 20000 winc 100 binc 100"
    sleep 1
    ! since_mark | grep -q '^bestmove'; check $? "$NAME bestmove while pondering"
    send ponderhit
    expect '^bestmove [a-h][1-8][a-h][1-8]' 30 > /dev/null; check $? "$NAME ponderhit: no bestmove"
    mark; send "position startpos moves d2d4 d7d5" "go ponder wtime 20000 btime 20000"
    sleep 0.5; send stop
    expect '^bestmove ' 10 > /dev/null; check $? "$NAME stop while pondering: no bestmove"
    mark; send "setoption name Ponder value false" "position startpos" "go infinite"
    sleep 0.5
    ! since_mark | grep -q '^bestmove'; check $? "$NAME bestmove during go infinite"
    send stop
    expect '^bestmove ' 10 > /dev/null; check $? "$NAME stop: no bestmove"
    mark; send isready
    expect '^readyok' 10 > /dev/null; check $? "$NAME isready after stop"

    engine_quit 20; _status=$?
    check $_status "$NAME quit: exit status $_status (or no exit within 20 s)"
    # Lines end in "\n" alone, whatever the system's text mode.
    ! grep -q "$(printf '\r')" "$TMP/out"; check $? "$NAME: carriage returns in the output"
    [ ! -s "$TMP/err" ]; check $? "$NAME wrote to stderr: $(head -c 300 "$TMP/err")"
}

# tb_check TABLES-FOR-THE-ENGINE COMMAND...: SyzygyPath finds as many tables as the native engine
# does in TB_DIR, and a tablebase search at a fixed depth (one thread) gives the same lines.
TB_FEN="8/8/4k3/8/8/3KR3/4P3/r7 w - - 0 1"
tb_session() { # tb_session PATH COMMAND...: prints the found line and the last depth line, sans speed
    _path=$1; shift
    engine_start "$@"
    send "setoption name Hash value 16" "setoption name SyzygyPath value $_path" isready
    expect '^readyok' 60 > /dev/null
    send "position fen $TB_FEN" "go depth 14"
    expect '^bestmove ' 120 > /dev/null
    engine_quit 20
    grep '^info string found ' "$TMP/out"
    grep '^info depth 14 ' "$TMP/out" | tail -n 1 | sed 's/ nps [0-9]*//; s/ time [0-9]*//'
    grep '^bestmove ' "$TMP/out"
}
tb_check() {
    _enginePath=$1; shift
    _native=$(tb_session "$TB_DIR" "$NATIVE")
    _other=$(tb_session "$_enginePath" "$@")
    printf '%s\n' "$NAME tablebases ($_enginePath): $(printf '%s\n' "$_other" | head -n 1)"
    printf '%s\n' "$_native" | grep -q '^info string found [1-9]' && [ "$_native" = "$_other" ]
    check $? "$NAME SyzygyPath: '$_other' differs from the native '$_native'"
}
