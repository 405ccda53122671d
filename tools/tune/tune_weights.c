#include "tune_weights.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eval.h"
#include "files.h"

/* ------------------------------------------------------------ reading */

typedef struct {
    const char *p;
    int line;
} Cursor;

/* Skips blanks and comments, counting lines. */
static void skip_space(Cursor *c) {
    for (;;) {
        if (*c->p == '\n') c->line++, c->p++;
        else if (isspace((unsigned char)*c->p)) c->p++;
        else if (c->p[0] == '/' && c->p[1] == '*') {
            const char *end = strstr(c->p + 2, "*/");
            for (const char *q = c->p; q < (end ? end : c->p + strlen(c->p)); q++) c->line += *q == '\n';
            c->p = end ? end + 2 : c->p + strlen(c->p);
        } else if (c->p[0] == '/' && c->p[1] == '/') {
            while (*c->p && *c->p != '\n') c->p++;
        } else return;
    }
}

static bool expect(Cursor *c, const char *token) {
    skip_space(c);
    size_t n = strlen(token);
    if (strncmp(c->p, token, n) != 0) return false;
    c->p += n;
    return true;
}

static bool read_int(Cursor *c, int *value) {
    skip_space(c);
    char *end;
    errno = 0;
    long v = strtol(c->p, &end, 10);
    if (end == c->p || errno || v < -32767 || v > 32767) return false;
    c->p = end;
    *value = (int)v;
    return true;
}

static bool read_name(Cursor *c, char *out, size_t len) {
    skip_space(c);
    size_t n = 0;
    while ((isalnum((unsigned char)c->p[n]) || c->p[n] == '_') && n + 1 < len) n++;
    if (n == 0) return false;
    memcpy(out, c->p, n);
    out[n] = '\0';
    c->p += n;
    return true;
}

bool tune_weights_parse(const char *text, Score *weights, char *err, size_t errlen) {
    Cursor c = {.p = text, .line = 1};
    const char *table = strstr(text, "EvalWeights[PARAM_NB]");
    if (!table) {
        snprintf(err, errlen, "no 'EvalWeights[PARAM_NB]' table");
        return false;
    }
    for (const char *q = text; q < table; q++) c.line += *q == '\n';
    c.p = table + strlen("EvalWeights[PARAM_NB]");
    if (!expect(&c, "=") || !expect(&c, "{")) {
        snprintf(err, errlen, "line %d: expected '= {' after EvalWeights[PARAM_NB]", c.line);
        return false;
    }
    for (int t = 0; t < TERM_NB; t++) {
        const EvalTermInfo *info = &EvalTerms[t];
        char name[64];
        if (!expect(&c, "[") || !read_name(&c, name, sizeof name) || !expect(&c, "]") || !expect(&c, "=")) {
            snprintf(err, errlen, "line %d: expected '[%s] ='", c.line, info->name);
            return false;
        }
        if (strcmp(name, info->name) != 0) {
            snprintf(err, errlen, "line %d: expected term %s, found %s", c.line, info->name, name);
            return false;
        }
        for (int i = 0; i < info->count; i++) {
            int mg, eg;
            if (!expect(&c, "S") || !expect(&c, "(") || !read_int(&c, &mg) || !expect(&c, ",")
                || !read_int(&c, &eg) || !expect(&c, ")") || !expect(&c, ",")) {
                snprintf(err, errlen, "line %d: %s entry %d of %d: expected 'S(mg, eg),'", c.line, info->name,
                         i + 1, info->count);
                return false;
            }
            weights[info->first + i] = S(mg, eg);
        }
    }
    if (!expect(&c, "}") || !expect(&c, ";")) {
        snprintf(err, errlen, "line %d: expected '};' after the last term", c.line);
        return false;
    }
    skip_space(&c);
    if (*c.p) {
        snprintf(err, errlen, "line %d: unexpected text after the table", c.line);
        return false;
    }
    return true;
}

bool tune_weights_read(const char *path, Score *weights, char *err, size_t errlen) {
    FILE *f = file_open_read(path, NULL, err, errlen);
    if (!f) return false;
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    char buf[4096];
    size_t n;
    bool nul = false;
    while (mem && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        nul |= memchr(buf, '\0', n) != NULL;
        fwrite(buf, 1, n, mem);
    }
    bool readError = ferror(f);
    fclose(f);
    if (mem) fclose(mem);
    if (!mem || !text || readError || nul) {
        snprintf(err, errlen, "%s: %s", path, !mem || !text ? "out of memory" : readError ? "read error" : "NUL byte in file");
        free(text);
        return false;
    }
    char reason[256];
    bool ok = tune_weights_parse(text, weights, reason, sizeof reason);
    if (!ok) snprintf(err, errlen, "%s: %s", path, reason);
    free(text);
    return ok;
}

/* ------------------------------------------------------------ writing */

void tune_weights_print(FILE *out, const Score *weights) {
    fprintf(out, "/*\n"
                 " * Gizum's evaluation weights: (middlegame, endgame) pairs in centipawns,\n"
                 " * laid out by EVAL_TERMS in evalweights.h. Data only: this whole file is\n"
                 " * what gizum-tune writes (tools/tune/tune_weights.c), so a tune can\n"
                 " * regenerate it.\n"
                 " */\n"
                 "#include \"evalweights.h\"\n\n");
    eval_write_table(out, weights);
}

bool tune_weights_write(const char *path, const Score *weights, char *err, size_t errlen) {
    FileWriter w;
    if (!file_write_begin(&w, path, err, errlen)) return false;
    tune_weights_print(w.f, weights);
    return file_write_commit(&w, err, errlen);
}

/* ------------------------------------------------------------ selecting */

bool tune_weights_select(const char *spec, bool *mask, char *err, size_t errlen) {
    char name[64];
    size_t n = strcspn(spec, "[.");
    if (n == 0 || n >= sizeof name) {
        snprintf(err, errlen, "'%s': expected NAME, NAME[i], NAME.mg or NAME[i].eg", spec);
        return false;
    }
    memcpy(name, spec, n);
    name[n] = '\0';
    const EvalTermInfo *info = NULL;
    for (int t = 0; t < TERM_NB; t++)
        if (strcmp(EvalTerms[t].name, name) == 0) info = &EvalTerms[t];
    if (!info) {
        snprintf(err, errlen, "'%s': no term %s (see EVAL_TERMS in src/eval/evalweights.h)", spec, name);
        return false;
    }
    const char *p = spec + n;
    int first = info->first, last = info->first + info->count - 1;
    if (*p == '[') {
        char *end;
        long i = strtol(p + 1, &end, 10);
        if (end == p + 1 || *end != ']' || i < 0 || i >= info->count) {
            snprintf(err, errlen, "'%s': index must be 0..%d", spec, info->count - 1);
            return false;
        }
        first = last = info->first + (int)i;
        p = end + 1;
    }
    bool mg = true, eg = true;
    if (!strcmp(p, ".mg")) eg = false;
    else if (!strcmp(p, ".eg")) mg = false;
    else if (*p) {
        snprintf(err, errlen, "'%s': unexpected '%s' (only .mg or .eg may follow)", spec, p);
        return false;
    }
    for (int q = first; q <= last; q++) {
        if (mg) mask[2 * q] = true;
        if (eg) mask[2 * q + 1] = true;
    }
    return true;
}
