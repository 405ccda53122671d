/*
 * What this build is: the engine's name and version, the compiler, the ARCH
 * it was built for, the git revision it was built from, and the data
 * directory `make install` puts Gizum's book in. The Makefile passes the
 * build facts to version.c alone, so a new revision or PREFIX recompiles one
 * small file.
 */
#ifndef GIZUM_VERSION_H
#define GIZUM_VERSION_H

#include <stdio.h>

#define ENGINE_NAME "Gizum"
#define ENGINE_AUTHOR "the Gizum developers"

/*
 * The version, semantic (MAJOR.MINOR.PATCH), in this one place: `gizum
 * --version`, `id name Gizum 1.0.0`, and the release's file names (the
 * Makefile reads it from here); tests/test_manpage.sh checks that gizum.6
 * and CHANGELOG.md name it.
 */
#define ENGINE_VERSION "1.0.0"

/* Gizum's licence (the full text is LICENSE), as --version and `uci` name it. */
#define ENGINE_LICENCE "GNU GPL version 3 or later"

/* "gcc 12.2.0", "clang 14.0.6", ... */
const char *version_compiler(void);
/* The make ARCH (native, x86-64-bmi2, x86-64, generic), "unknown" outside the Makefile. */
const char *version_arch(void);
/* The git revision of the source ("" when not built from a git checkout). */
const char *version_git(void);
/* Where `make install` puts the book: $(PREFIX)/share/gizum by default. */
const char *version_data_dir(void);

/* "Gizum 1.0.0", the build line and the licence, as `gizum --version` prints them. */
void version_print(FILE *out);

#endif
