# Gizum — build with `make`, test with `make test`.
#
#   make [EXE=gizum] [CC=gcc|clang] [ARCH=native|x86-64-bmi2|x86-64|generic]
#
# ARCH=native tunes for this CPU (PEXT sliders when it has BMI2), x86-64 is a
# portable build for any x86-64-v2 CPU (magic bitboards), x86-64-bmi2 adds
# PEXT, and generic uses no CPU-specific flags at all. All builds search and
# count identically; only the speed differs.

EXE      = gizum
CC       = gcc
ARCH     = native

WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
STD      = -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
OPT      = -O3 -fno-plt
CFLAGS   = $(STD) $(WARN) $(OPT) -DNDEBUG -pthread $(ARCHFLAGS) $(EXTRA_CFLAGS)
LDFLAGS  = -pthread -lm $(EXTRA_LDFLAGS)

ifeq ($(ARCH),native)
  ARCHFLAGS = -march=native
else ifeq ($(ARCH),x86-64-bmi2)
  ARCHFLAGS = -march=haswell
else ifeq ($(ARCH),x86-64)
  ARCHFLAGS = -march=x86-64-v2
else ifeq ($(ARCH),generic)
  ARCHFLAGS = -DGIZUM_NO_PEXT
else
  $(error Unknown ARCH '$(ARCH)': use native, x86-64-bmi2, x86-64 or generic)
endif

# Objects go to a directory per configuration so builds never mix flags.
BUILD    = build/$(ARCH)-$(CC)$(BUILD_SUFFIX)
SRC      = $(wildcard src/*.c)
OBJ      = $(SRC:src/%.c=$(BUILD)/%.o)
LIBOBJ   = $(filter-out $(BUILD)/main.o,$(OBJ))
TESTSRC  = $(wildcard tests/test_*.c)
TESTBIN  = $(TESTSRC:tests/%.c=$(BUILD)/tests/%)
TESTAUX  = $(filter-out $(TESTSRC),$(wildcard tests/*.c))
TESTAUXBIN = $(TESTAUX:tests/%.c=$(BUILD)/tests/%)
# The match runner gizum-match (bench/match/), built on src objects; its
# test program links its modules too. gizum-asan pairs with gizum-match-asan.
MATCHEXE = $(patsubst gizum%,gizum-match%,$(EXE))
MATCHSRC = $(wildcard bench/match/*.c)
MATCHOBJ = $(MATCHSRC:bench/match/%.c=$(BUILD)/match/%.o)
MATCHLIBOBJ = $(filter-out $(BUILD)/match/match_main.o,$(MATCHOBJ))

.PHONY: all test clean sanitize tsan debug magics match

all: $(EXE)

$(EXE): $(OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(BUILD)/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBOBJ) $(wildcard tests/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -Isrc -o $@ $< $(LIBOBJ) $(LDFLAGS)

$(BUILD):
	mkdir -p $(BUILD)/tests

match: $(MATCHEXE)

# Linked through an archive so only the board layers it uses are pulled in.
$(MATCHEXE): $(MATCHOBJ) $(BUILD)/match/libgizum.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(BUILD)/match/libgizum.a: $(LIBOBJ)
	@mkdir -p $(BUILD)/match
	rm -f $@ && ar rcs $@ $^

$(BUILD)/match/%.o: bench/match/%.c $(wildcard bench/match/*.h) $(wildcard src/*.h) | $(BUILD)
	@mkdir -p $(BUILD)/match
	$(CC) $(CFLAGS) -Isrc -c -o $@ $<

$(BUILD)/tests/test_match: tests/test_match.c $(MATCHLIBOBJ) $(BUILD)/match/libgizum.a $(wildcard tests/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -Isrc -Ibench/match -o $@ $< $(MATCHLIBOBJ) $(BUILD)/match/libgizum.a $(LDFLAGS)

# Builds everything, then runs every test program; the last line is the total.
test: $(EXE) $(MATCHEXE) $(TESTBIN) $(TESTAUXBIN)
	@GIZUM=./$(EXE) TESTBIN=$(BUILD)/tests sh tests/run_all.sh

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer.
sanitize:
	$(MAKE) test EXE=gizum-asan BUILD_SUFFIX=-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
		EXTRA_LDFLAGS="-fsanitize=address,undefined"

# The test suite under ThreadSanitizer (the search runs on several threads).
tsan:
	$(MAKE) test EXE=gizum-tsan BUILD_SUFFIX=-tsan OPT="-O1 -g -fno-omit-frame-pointer" \
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

# Regenerates the committed magic multipliers (src/magics.c) with our own search.
magics: | $(BUILD)
	$(CC) $(STD) -O2 -o $(BUILD)/magic_gen tools/magic_gen.c src/bitboard.c
	$(BUILD)/magic_gen > src/magics.c

# libFuzzer targets (fuzz/fuzz_*.c), built with clang into build/fuzz/ and
# linked with engine and match-tool objects instrumented the same way
# (asserts kept on). fuzz/run.sh [SECONDS] builds and runs every target.
FUZZCC     = clang
FUZZDIR    = build/fuzz
FUZZSAN    = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZCFLAGS = $(STD) $(WARN) -O1 -g -fno-omit-frame-pointer -pthread $(ARCHFLAGS)
FUZZSRC    = $(wildcard fuzz/fuzz_*.c)
FUZZBIN    = $(FUZZSRC:fuzz/%.c=$(FUZZDIR)/%)
FUZZOBJ    = $(filter-out $(FUZZDIR)/obj/main.o,$(SRC:src/%.c=$(FUZZDIR)/obj/%.o)) $(FUZZDIR)/match/match_openings.o

.PHONY: fuzz check-valgrind
.SECONDARY: $(FUZZOBJ)
fuzz: $(FUZZBIN)

$(FUZZDIR)/%: fuzz/%.c fuzz/fuzz_common.h $(FUZZOBJ)
	$(FUZZCC) $(FUZZCFLAGS) $(FUZZSAN) -fsanitize=fuzzer -Isrc -Ibench/match -o $@ $< $(FUZZOBJ) -pthread -lm

$(FUZZDIR)/obj/%.o: src/%.c $(wildcard src/*.h)
	@mkdir -p $(FUZZDIR)/obj
	$(FUZZCC) $(FUZZCFLAGS) $(FUZZSAN) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZDIR)/match/%.o: bench/match/%.c $(wildcard bench/match/*.h) $(wildcard src/*.h)
	@mkdir -p $(FUZZDIR)/match
	$(FUZZCC) $(FUZZCFLAGS) $(FUZZSAN) -fsanitize=fuzzer-no-link -Isrc -c -o $@ $<

# A short bench, a one-shot search and a scripted UCI session (searches,
# option changes, bad input, stop, quit) under valgrind memcheck: any error
# or definite/indirect leak fails. Valgrind cannot run AVX-512 code, hence
# its own build for a Haswell-level CPU, with debug information.
VALGRIND      = valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect --quiet
VALGRIND_ARCH = x86-64-bmi2
VALGRIND_EXE  = gizum-valgrind
VALGRIND_FEN  = r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
check-valgrind:
	$(MAKE) EXE=$(VALGRIND_EXE) ARCH=$(VALGRIND_ARCH) BUILD_SUFFIX=-valgrind OPT="-O1 -g -fno-omit-frame-pointer"
	$(VALGRIND) ./$(VALGRIND_EXE) bench 4 >/dev/null
	$(VALGRIND) ./$(VALGRIND_EXE) go depth 5 >/dev/null
	{ printf 'uci\nisready\nsetoption name Hash value 4\nsetoption name Threads value 2\nucinewgame\n'; \
	  printf 'position startpos moves e2e4 e7e5 g1f3 b8c6\ngo depth 5\n'; sleep 4; \
	  printf 'isready\nposition fen $(VALGRIND_FEN) moves e1g1\ngo infinite\n'; sleep 2; \
	  printf 'stop\nfoo bar\nposition fen 8/8/8 w - - 0 1\nsetoption name Hash value -5\ngo wtime x\n'; \
	  printf 'setoption name MultiPV value 3\ngo wtime 3000 btime 3000 winc 50 binc 50\n'; sleep 4; \
	  printf 'setoption name Threads value 1\nsetoption name Clear Hash\nd\neval\ngo perft 2\n'; \
	  printf 'go movetime 500\n'; sleep 2; printf 'quit\n'; } | $(VALGRIND) ./$(VALGRIND_EXE) >/dev/null

clean:
	rm -rf build gizum gizum-asan gizum-debug gizum-tsan gizum-match gizum-match-asan gizum-valgrind
