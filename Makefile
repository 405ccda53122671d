# Gizum — build with `make`, test with `make test`.
#
#   make [EXE=gizum] [CC=gcc|clang] [ARCH=native|x86-64-bmi2|x86-64|generic|armv8]
#        [TARGET=windows]
#
# ARCH=native tunes for this CPU (PEXT sliders when it has BMI2), x86-64 is a
# portable build for any x86-64-v2 CPU (magic bitboards), x86-64-bmi2 adds
# PEXT, and generic uses no CPU-specific flags at all. ARCH=armv8 is 64-bit
# ARM (AArch64), cross-compiled with aarch64-linux-gnu-gcc unless CC says
# otherwise. TARGET=windows (or CC=x86_64-w64-mingw32-gcc) builds gizum.exe
# with MinGW-w64, statically linked, for ARCH=x86-64 unless ARCH says
# otherwise. All builds search and count identically; only the speed differs.
# `make release VERSION=x.y.z` builds the published binaries (docs/release.md).

EXE      = gizum
CC       = gcc
ARCH     = native

# The version lives in src/base/version.h alone; the release names read it here.
VERSION := $(shell sed -n 's/^\#define ENGINE_VERSION "\(.*\)"$$/\1/p' src/base/version.h)

ifneq ($(findstring mingw,$(CC)),)
  TARGET = windows
endif
ifeq ($(TARGET),windows)
  ifeq ($(origin CC),file)
    CC = x86_64-w64-mingw32-gcc
  endif
  ifeq ($(origin ARCH),file)
    ARCH = x86-64
  endif
  ifeq ($(origin EXE),file)
    EXE = gizum.exe
  endif
else ifeq ($(ARCH),armv8)
  ifeq ($(origin CC),file)
    ifeq ($(filter aarch64 arm64,$(shell uname -m)),)
      CC = aarch64-linux-gnu-gcc
    endif
  endif
endif
# Cross toolchains bring their own archiver (aarch64-linux-gnu-gcc: aarch64-linux-gnu-ar).
ifneq ($(filter %-gcc,$(CC)),)
  AR = $(CC:%-gcc=%-ar)
endif
# What the compiler builds for: x86_64-linux-gnu, aarch64-linux-gnu, x86_64-w64-mingw32, arm64-apple-darwin...
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)

WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
STD      = -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
OPT      = -O3 -fno-plt
CFLAGS   = $(STD) $(WARN) $(OPT) -DNDEBUG -pthread $(ARCHFLAGS) $(EXTRA_CFLAGS)
LDFLAGS  = -pthread -lm $(EXTRA_LDFLAGS)

ifeq ($(ARCH),native)
  # -march=native is for x86-64; elsewhere the compiler's default CPU is the native one.
  ifneq ($(filter x86_64-% amd64-%,$(MACHINE)),)
    ARCHFLAGS = -march=native
  endif
else ifeq ($(ARCH),x86-64-bmi2)
  ARCHFLAGS = -march=haswell
else ifeq ($(ARCH),x86-64)
  ARCHFLAGS = -march=x86-64-v2
else ifeq ($(ARCH),generic)
  ARCHFLAGS = -DGIZUM_NO_PEXT
else ifeq ($(ARCH),armv8)
  # Every AArch64 CPU: popcount and bit scans are single NEON/base instructions already.
  ARCHFLAGS = -march=armv8-a
else
  $(error Unknown ARCH '$(ARCH)': use native, x86-64-bmi2, x86-64, generic or armv8)
endif

# Windows: the C library's printf made C99 (%zu, %lld), PE files without a
# time stamp (reproducible), an 8 MB main stack like Linux's, and a static
# link (winpthreads and libgcc inside the .exe) so it runs on a bare Windows.
ifneq ($(findstring mingw,$(MACHINE)),)
  STD     += -D__USE_MINGW_ANSI_STDIO=1
  OPT      = -O3
  LDFLAGS += -static -Wl,--no-insert-timestamp -Wl,--stack,8388608
endif
# macOS: its headers hide MAP_ANONYMOUS and sysconf's memory queries under _POSIX_C_SOURCE.
ifneq ($(findstring darwin,$(MACHINE)),)
  STD     += -D_DARWIN_C_SOURCE
  OPT      = -O3
endif

# make SPSA=1: every search parameter (src/search/searchparams.h) becomes a UCI
# spin option, for SPSA tuning (OpenBench, gizum-match -spsa); a build of its
# own, ./gizum-spsa. (`make tune` is another thing: the Texel tuner gizum-tune.)
ifeq ($(SPSA),1)
  EXE := gizum-spsa
  EXTRA_CFLAGS += -DGIZUM_SPSA
  BUILD_SUFFIX := $(BUILD_SUFFIX)-spsa
endif
ifeq ($(TUNE),1)
  $(error TUNE=1 is now SPSA=1 (the SPSA build ./gizum-spsa); `make tune` builds the Texel tuner gizum-tune)
endif

# make STATS=1: ./gizum-stats counts what the search does (bench --stats,
# and `info string stats` after each search in UCI debug mode).
ifeq ($(STATS),1)
  EXE := gizum-stats
  EXTRA_CFLAGS += -DGIZUM_STATS
  BUILD_SUFFIX := $(BUILD_SUFFIX)-stats
endif

# Objects go to a directory per configuration so builds never mix flags;
# -MMD -MP writes each object's exact header dependencies beside it.
BUILD    = build/$(ARCH)-$(CC)$(BUILD_SUFFIX)
DEPFLAGS = -MMD -MP

# src/ is ./gizum; its layers are its folders, bottom up: base, board, eval
# and tablebase, search, then protocol and offline (the offline tools of
# ./gizum: datagen, epd, book making, openings, genfens), beside each other;
# the program, src/*.c, sits on top (README: "Source map"; tests/test_layers.sh
# holds every #include to it). tools/ holds the programs of their own. The
# board and what it stands on are libboard.a: programs that use only the
# board (gizum-match, the board tests) link it alone, so a call into a higher
# layer is a link error there.
LAYERS     = base board eval tablebase search protocol offline
BOARD_SRC  = $(wildcard src/base/*.c src/board/*.c)
ENGINE_SRC = $(wildcard src/eval/*.c src/tablebase/*.c src/search/*.c src/protocol/*.c)
OFFLINE_SRC = $(wildcard src/offline/*.c)
PROGRAM_SRC = $(wildcard src/*.c)
BOARD_OBJ  = $(BOARD_SRC:%.c=$(BUILD)/%.o)
ENGINE_OBJ = $(ENGINE_SRC:%.c=$(BUILD)/%.o)
OFFLINE_OBJ = $(OFFLINE_SRC:%.c=$(BUILD)/%.o)
PROGRAM_OBJ = $(PROGRAM_SRC:%.c=$(BUILD)/%.o)
BOARD_LIB  = $(BUILD)/libboard.a
ENGINE_LIB = $(BUILD)/libengine.a
OFFLINE_LIB = $(BUILD)/liboffline.a
ENGINE_LIBS = $(OFFLINE_LIB) $(ENGINE_LIB) $(BOARD_LIB)
# Every layer's folder is on the include path, so an #include names the file
# alone and a file can change layers without touching its users.
INCLUDES   = $(addprefix -Isrc/,$(LAYERS)) -Isrc -Itools/match -Itools/tune

# The match runner gizum-match (tools/match/), a program of its own on the
# board layer. MATCHEXE is independent of EXE: OpenBench builds the engine
# as EXE=Name-<sha>, and the runner's name must never collide with it.
MATCHEXE = gizum-match
MATCHSRC = $(wildcard tools/match/*.c)
MATCHOBJ = $(MATCHSRC:%.c=$(BUILD)/%.o)
MATCHLIBOBJ = $(filter-out $(BUILD)/tools/match/match_main.o,$(MATCHOBJ))

# The Texel tuner gizum-tune (tools/tune/), built only by `make tune`: a
# program of its own on the engine archives, never part of ./gizum.
# test_tuner links its modules (everything but main).
TUNEEXE = gizum-tune
TUNESRC = $(wildcard tools/tune/*.c)
TUNEOBJ = $(TUNESRC:%.c=$(BUILD)/%.o)
TUNELIBOBJ = $(filter-out $(BUILD)/tools/tune/tune_main.o,$(TUNEOBJ))

# Test programs: tests/test_*.c plus helpers (the fake engine). The board
# tests link the board layer alone; test_match links the runner's modules.
TESTSRC  = $(wildcard tests/test_*.c)
TESTAUX  = $(filter-out $(TESTSRC),$(wildcard tests/*.c))
TESTBIN  = $(TESTSRC:tests/%.c=$(BUILD)/tests/%) $(TESTAUX:tests/%.c=$(BUILD)/tests/%)
BOARD_TESTS = test_attacks test_numparse test_fen test_movegen test_movegen_oracle test_perft test_san test_zobrist fake_engine
BOARD_TESTBIN  = $(addprefix $(BUILD)/tests/,$(BOARD_TESTS))
ENGINE_TESTBIN = $(filter-out $(BOARD_TESTBIN) $(BUILD)/tests/test_match $(BUILD)/tests/test_tuner,$(TESTBIN))

.PHONY: all test clean sanitize tsan debug magics match install uninstall tune

all: $(EXE)

# Installation (Debian packaging sets PREFIX=/usr, DESTDIR, and may move
# BINDIR to /usr/games). The book goes to DATADIR, which is compiled into
# version.o so that BookFile finds it there after `make install`.
PREFIX   = /usr/local
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/gizum
MANDIR   = $(PREFIX)/share/man
INSTALL  = install

# What `gizum --version` reports. version.o depends on a stamp file that is
# rewritten only when these facts change (a commit, another PREFIX), so an
# unchanged tree rebuilds nothing.
GIT_REV     := $(shell git describe --always --dirty --abbrev=12 2>/dev/null)
BUILD_INFO   = $(ARCH)|$(CC)|$(GIT_REV)|$(DATADIR)
BUILD_STAMP  = $(BUILD)/build-info
ifeq ($(filter clean,$(MAKECMDGOALS)),)
  $(shell mkdir -p $(BUILD) && (echo '$(BUILD_INFO)' | cmp -s - $(BUILD_STAMP) 2>/dev/null || echo '$(BUILD_INFO)' > $(BUILD_STAMP)))
endif
$(BUILD)/src/base/version.o: $(BUILD_STAMP)
$(BUILD)/src/base/version.o: VERSION_DEFS = -DGIZUM_ARCH='"$(ARCH)"' -DGIZUM_GIT='"$(GIT_REV)"' -DGIZUM_DATADIR='"$(DATADIR)"'

$(EXE): $(PROGRAM_OBJ) $(ENGINE_LIBS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(VERSION_DEFS) $(DEPFLAGS) $(INCLUDES) -c -o $@ $<

# The archives also depend on the Makefile: a file moved between the layers
# must leave the archive it left.
$(BOARD_LIB): $(BOARD_OBJ) Makefile
	rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)

$(ENGINE_LIB): $(ENGINE_OBJ) Makefile
	rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)

$(OFFLINE_LIB): $(OFFLINE_OBJ) Makefile
	rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)

match: $(MATCHEXE)

$(MATCHEXE): $(MATCHOBJ) $(BOARD_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

tune: $(TUNEEXE)

$(TUNEEXE): $(TUNEOBJ) $(ENGINE_LIBS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(BOARD_TESTBIN): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(BOARD_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(ENGINE_TESTBIN): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(ENGINE_LIBS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(BUILD)/tests/test_match: $(BUILD)/tests/test_match.o $(MATCHLIBOBJ) $(BOARD_LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(BUILD)/tests/test_tuner: $(BUILD)/tests/test_tuner.o $(TUNELIBOBJ) $(ENGINE_LIBS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

# Measurement programs of measure/ (measure/tb_speed.sh builds and runs this one).
$(BUILD)/measure/tb_speed: $(BUILD)/measure/tb_speed.o $(ENGINE_LIBS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

# The build folder of these settings, for scripts that run what make built there.
.PHONY: print-build
print-build:
	@echo $(BUILD)

-include $(shell find build -name '*.d' 2>/dev/null)

# Builds everything, then runs every test program; the last line is the
# total. `make test T=fen` runs only the tests whose name contains "fen";
# TEST_JOBS (default: the number of cores) tests run at a time.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: $(EXE) $(MATCHEXE) $(TESTBIN)
	@GIZUM=./$(EXE) MATCH=./$(MATCHEXE) TESTBIN=$(BUILD)/tests ONLY='$(T)' SKIP='$(SKIP_TESTS)' JOBS='$(TEST_JOBS)' \
		sh tests/run_all.sh

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer.
sanitize:
	$(MAKE) test EXE=gizum-asan MATCHEXE=gizum-match-asan BUILD_SUFFIX=-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
		EXTRA_LDFLAGS="-fsanitize=address,undefined"

# The test suite under ThreadSanitizer (the search runs on several threads),
# less the board-only tests: they link no thread code, so TSan has nothing to see.
tsan:
	$(MAKE) test EXE=gizum-tsan MATCHEXE=gizum-match-tsan BUILD_SUFFIX=-tsan OPT="-O1 -g -fno-omit-frame-pointer" \
		SKIP_TESTS="$(BOARD_TESTS)" \
		EXTRA_CFLAGS="-fsanitize=thread" EXTRA_LDFLAGS="-fsanitize=thread"

debug:
	$(MAKE) EXE=gizum-debug BUILD_SUFFIX=-debug OPT="-O1 -g" CFLAGS='$(STD) $(WARN) -O1 -g -pthread $(ARCHFLAGS)'

# Gizum's own opening book, rebuilt from the opening lines in books/*.pgn
# (the same PGN always gives the same bytes; tests/test_book.sh checks it).
BOOKPGN  = $(sort $(wildcard books/*.pgn))
.PHONY: book
book: $(EXE)
	./$(EXE) book make --pgn $(BOOKPGN) --out books/gizum.bin --min-games 1 --strict

# Balanced match openings: book walks of 6-8 plies that a depth-10 search
# scores within 50 cp (deterministic: one thread, fixed seed).
.PHONY: openings
openings: $(EXE)
	./$(EXE) openings --book books/gizum.bin --count 300 --min-plies 6 --max-plies 8 --depth 10 --margin 50 --seed 1 > books/openings.epd

# Regenerates the committed magic multipliers (src/board/magics.c) with our own search.
# Writes a temporary file first: a failing generator leaves src/board/magics.c intact.
magics:
	@mkdir -p $(BUILD)
	$(CC) $(STD) -O2 -o $(BUILD)/magic_gen tools/magic_gen.c src/board/bitboard.c
	$(BUILD)/magic_gen > $(BUILD)/magics.c.tmp && mv $(BUILD)/magics.c.tmp src/board/magics.c

# libFuzzer targets (fuzz/fuzz_*.c), built with clang into build/fuzz/ and
# linked with engine objects instrumented the same way (asserts kept on).
# The match runner's and the tuner's modules (not their main) are an
# archive, so a target takes only the members it calls: fuzz_matchreply
# defines every proc_* function itself (its engines are its input, not
# processes), so match_process.o is never taken for it. fuzz/run.sh
# [SECONDS] builds and runs every target.
FUZZCC     = clang
FUZZDIR    = build/fuzz
FUZZSAN    = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZCFLAGS = $(STD) $(WARN) -O1 -g -fno-omit-frame-pointer -pthread $(ARCHFLAGS)
FUZZSRC    = $(wildcard fuzz/fuzz_*.c)
FUZZBIN    = $(FUZZSRC:fuzz/%.c=$(FUZZDIR)/%)
FUZZOBJ    = $(patsubst %.c,$(FUZZDIR)/%.o,$(BOARD_SRC) $(ENGINE_SRC) $(OFFLINE_SRC) src/shell.c)
FUZZTOOLOBJ = $(patsubst %.c,$(FUZZDIR)/%.o,$(filter-out tools/match/match_main.c,$(MATCHSRC)) \
                $(filter-out tools/tune/tune_main.c,$(TUNESRC)))
FUZZTOOLLIB = $(FUZZDIR)/libtools.a

.PHONY: fuzz check-valgrind
.SECONDARY: $(FUZZOBJ) $(FUZZTOOLOBJ)
fuzz: $(FUZZBIN)

$(FUZZTOOLLIB): $(FUZZTOOLOBJ) Makefile
	rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)

$(FUZZBIN): $(FUZZDIR)/%: fuzz/%.c fuzz/fuzz_common.h fuzz/fuzz_memfile.h $(FUZZOBJ) $(FUZZTOOLLIB)
	$(FUZZCC) $(FUZZCFLAGS) $(FUZZSAN) -fsanitize=fuzzer $(INCLUDES) -o $@ $< $(FUZZOBJ) $(FUZZTOOLLIB) -pthread -lm

$(FUZZDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZCFLAGS) $(FUZZSAN) $(DEPFLAGS) -fsanitize=fuzzer-no-link $(INCLUDES) -c -o $@ $<

# A short bench, a one-shot search and a scripted UCI session (searches,
# option changes, bad input, stop, quit) under valgrind memcheck
# (tests/check_valgrind.sh: each command waits for the engine's answer to
# the one before, and the answers are checked): any error or
# definite/indirect leak fails. Valgrind cannot run AVX-512 code, hence its
# own build for a Haswell-level CPU, with debug information.
VALGRIND      = valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect --quiet
VALGRIND_ARCH = x86-64-bmi2
VALGRIND_EXE  = gizum-valgrind
check-valgrind:
	$(MAKE) EXE=$(VALGRIND_EXE) ARCH=$(VALGRIND_ARCH) BUILD_SUFFIX=-valgrind OPT="-O1 -g -fno-omit-frame-pointer"
	sh tests/check_valgrind.sh $(VALGRIND) ./$(VALGRIND_EXE)

# Installs the engine, the match runner, the book and the man page;
# `make uninstall` with the same PREFIX/DESTDIR removes exactly those files.
install: $(EXE) $(MATCHEXE)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)/man6
	$(INSTALL) -m 755 $(EXE) $(DESTDIR)$(BINDIR)/gizum
	$(INSTALL) -m 755 $(MATCHEXE) $(DESTDIR)$(BINDIR)/gizum-match
	$(INSTALL) -m 644 books/gizum.bin $(DESTDIR)$(DATADIR)/gizum.bin
	sed 's|/usr/local/share/gizum|$(DATADIR)|g' gizum.6 > $(DESTDIR)$(MANDIR)/man6/gizum.6
	chmod 644 $(DESTDIR)$(MANDIR)/man6/gizum.6

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gizum $(DESTDIR)$(BINDIR)/gizum-match
	rm -f $(DESTDIR)$(DATADIR)/gizum.bin $(DESTDIR)$(MANDIR)/man6/gizum.6
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null

# The published binaries (Linux x86-64 x86-64/bmi2/generic, Linux AArch64, Windows x86-64
# x86-64/bmi2), archives and SHA256SUMS in dist/, reproducibly, from a clean tree only:
# make release VERSION=x.y.z, where x.y.z must be src/base/version.h's (docs/release.md).
.PHONY: release dist
release dist:
	sh tools/release.sh $(VERSION) dist

clean:
	rm -rf build dist gizum gizum.exe gizum-asan gizum-debug gizum-tsan gizum-match gizum-match-asan gizum-match-tsan gizum-valgrind gizum-tune gizum-spsa gizum-stats
