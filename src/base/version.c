#include "version.h"

/* Set by the Makefile for this file only; the defaults serve other builds (fuzzing). */
#ifndef GIZUM_ARCH
#define GIZUM_ARCH "unknown"
#endif
#ifndef GIZUM_GIT
#define GIZUM_GIT ""
#endif
#ifndef GIZUM_DATADIR
#define GIZUM_DATADIR "/usr/local/share/gizum"
#endif

const char *version_compiler(void) {
#define VERSION_TEXT(x) #x
#define VERSION_NUMBER(x) VERSION_TEXT(x)
#if defined(__clang__)
    return "clang " VERSION_NUMBER(__clang_major__) "." VERSION_NUMBER(__clang_minor__) "." VERSION_NUMBER(__clang_patchlevel__);
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown compiler";
#endif
}

const char *version_arch(void) { return GIZUM_ARCH; }

const char *version_git(void) { return GIZUM_GIT; }

const char *version_data_dir(void) { return GIZUM_DATADIR; }

void version_print(FILE *out) {
    fprintf(out, "%s %s\n", ENGINE_NAME, ENGINE_VERSION);
    fprintf(out, "build: %s, ARCH %s", version_compiler(), version_arch());
    if (version_git()[0]) fprintf(out, ", git %s", version_git());
    fprintf(out, "\n");
    fprintf(out, "Copyright (C) 2026 %s. Licence: %s <https://www.gnu.org/licenses/gpl-3.0.html>.\n"
                 "This is free software: you are free to change and redistribute it.\n"
                 "There is NO WARRANTY, to the extent permitted by law.\n", ENGINE_AUTHOR, ENGINE_LICENCE);
}
