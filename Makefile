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

.PHONY: all test clean sanitize tsan debug

all: $(EXE)

$(EXE): $(OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(BUILD)/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBOBJ) $(wildcard tests/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -Isrc -o $@ $< $(LIBOBJ) $(LDFLAGS)

$(BUILD):
	mkdir -p $(BUILD)/tests

# Builds everything, then runs every test program; the last line is the total.
test: $(EXE) $(TESTBIN) $(TESTAUXBIN)
	@GIZUM=./$(EXE) TESTBIN=$(BUILD)/tests sh tests/run_all.sh

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer.
sanitize:
	$(MAKE) test EXE=gizum-asan BUILD_SUFFIX=-asan OPT="-O1 -g -fno-omit-frame-pointer" \
		EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" \
		EXTRA_LDFLAGS="-fsanitize=address,undefined"

debug:
	$(MAKE) EXE=gizum-debug BUILD_SUFFIX=-debug OPT="-O1 -g" CFLAGS='$(STD) $(WARN) -O1 -g -pthread $(ARCHFLAGS)'

clean:
	rm -rf build gizum gizum-asan gizum-debug gizum-tsan
