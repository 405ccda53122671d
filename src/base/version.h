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
#define ENGINE_VERSION "0.1"
#define ENGINE_AUTHOR "the Gizum developers"

/* "gcc 12.2.0", "clang 14.0.6", ... */
const char *version_compiler(void);
/* The make ARCH (native, x86-64-bmi2, x86-64, generic), "unknown" outside the Makefile. */
const char *version_arch(void);
/* The git revision of the source ("" when not built from a git checkout). */
const char *version_git(void);
/* Where `make install` puts the book: $(PREFIX)/share/gizum by default. */
const char *version_data_dir(void);

/* "Gizum 0.1" then the build line, as `gizum --version` prints them. */
void version_print(FILE *out);

#endif
