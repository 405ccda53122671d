/*
 * gizum-match: SPSA tuning on one machine.
 */
#include "match_spsa.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

static const char StateHeader[] = "gizum-match spsa state 1";

/* The fields of one parameter line. */
enum { FIELD_NAME, FIELD_TYPE, FIELD_VALUE, FIELD_MIN, FIELD_MAX, FIELD_C_END, FIELD_R_END, FIELD_COUNT };

/* Strips blanks at both ends of s in place. */
static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* A whole-token finite number. */
static bool parse_number(const char *text, double *out) {
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

/* Checks one split line and fills p; false with the reason in why. */
static bool parse_param(char **field, SpsaParam *p, char *why, size_t len) {
    static const char *const Names[] = {"name", "type", "value", "min", "max", "c_end", "r_end"};
    memset(p, 0, sizeof *p);
    if (!field[FIELD_NAME][0] || strlen(field[FIELD_NAME]) >= SPSA_NAME_MAX) {
        snprintf(why, len, "the name must have 1 to %d characters", SPSA_NAME_MAX - 1);
        return false;
    }
    snprintf(p->name, sizeof p->name, "%s", field[FIELD_NAME]);
    if (strcmp(field[FIELD_TYPE], "int") == 0) p->isFloat = false;
    else if (strcmp(field[FIELD_TYPE], "float") == 0) p->isFloat = true;
    else {
        snprintf(why, len, "type '%s' is neither int nor float", field[FIELD_TYPE]);
        return false;
    }
    double *slot[] = {NULL, NULL, &p->start, &p->min, &p->max, &p->cEnd, &p->rEnd};
    for (int f = FIELD_VALUE; f < FIELD_COUNT; f++)
        if (!parse_number(field[f], slot[f])) {
            snprintf(why, len, "%s '%s' is not a number", Names[f], field[f]);
            return false;
        }
    p->value = p->start;
    if (!(p->min < p->max) || p->start < p->min || p->start > p->max) {
        snprintf(why, len, "needs min < max and the value within them (%g, %g, %g)", p->start, p->min, p->max);
        return false;
    }
    if (!(p->cEnd > 0) || !(p->rEnd > 0)) {
        snprintf(why, len, "c_end and r_end must be positive (%g, %g)", p->cEnd, p->rEnd);
        return false;
    }
    return true;
}

bool spsa_read_params(SpsaTune *t, FILE *in, const char *path, char *err, size_t errlen) {
    char line[1024];
    for (int number = 1; fgets(line, sizeof line, in); number++) {
        if (!strchr(line, '\n') && !feof(in)) {
            snprintf(err, errlen, "%s:%d: line longer than %zu characters", path, number, sizeof line - 2);
            return false;
        }
        char *text = trim(line);
        if (!text[0] || text[0] == '#') continue;
        int n = 1;
        for (const char *c = text; *c; c++) n += *c == ',';
        if (n != FIELD_COUNT) {
            snprintf(err, errlen, "%s:%d: expected 7 fields (name, int|float, value, min, max, c_end, r_end), got %d",
                     path, number, n);
            return false;
        }
        char *field[FIELD_COUNT];
        field[0] = text;
        for (int f = 1; f < FIELD_COUNT; f++) {
            char *comma = strchr(field[f - 1], ',');
            *comma = '\0';
            field[f] = comma + 1;
        }
        for (int f = 0; f < FIELD_COUNT; f++) field[f] = trim(field[f]);
        SpsaParam p;
        char why[256];
        if (!parse_param(field, &p, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: %s", path, number, why);
            return false;
        }
        for (int i = 0; i < t->count; i++)
            if (strcmp(t->params[i].name, p.name) == 0) {
                snprintf(err, errlen, "%s:%d: parameter '%s' is listed twice", path, number, p.name);
                return false;
            }
        SpsaParam *grown = realloc(t->params, (size_t)(t->count + 1) * sizeof *grown);
        if (!grown) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        t->params = grown;
        t->params[t->count++] = p;
    }
    if (t->count == 0) {
        snprintf(err, errlen, "%s: no parameters (lines: name, int|float, value, min, max, c_end, r_end)", path);
        return false;
    }
    return true;
}

static bool same_setting(double a, double b) {
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

/* Reads a saved state into t (whose parameters are already read); false with the reason. */
static bool read_state(SpsaTune *t, FILE *in, const char *path, char *err, size_t errlen) {
    char line[1024];
    if (!fgets(line, sizeof line, in) || strcmp(trim(line), StateHeader) != 0) {
        snprintf(err, errlen, "%s:1: not a gizum-match SPSA state (delete it to start afresh)", path);
        return false;
    }
    long iterations = -1, pairs = -1;
    double A = NAN, alpha = NAN, gamma = NAN;
    unsigned long long seed = 0;
    int values = 0;
    for (int number = 2; fgets(line, sizeof line, in); number++) {
        char *text = trim(line);
        char *space = strrchr(text, ' ');
        double v;
        bool ok = space != NULL;
        if (ok && strncmp(text, "value ", 6) == 0) {
            *space = '\0';
            const char *name = trim(text + 6);
            ok = values < t->count && strcmp(name, t->params[values].name) == 0 && parse_number(space + 1, &v) &&
                 v >= t->params[values].min && v <= t->params[values].max;
            if (!ok) {
                snprintf(err, errlen, "%s:%d: the parameter file's parameter %d is '%s'; this line does not "
                         "match it (a state of another tune: delete it to start afresh)", path, number, values + 1,
                         values < t->count ? t->params[values].name : "(none)");
                return false;
            }
            t->params[values++].value = v;
            continue;
        }
        if (ok) ok = sscanf(text, "iterations %ld", &iterations) == 1 || sscanf(text, "pairs %ld", &pairs) == 1 ||
                     sscanf(text, "A %lf", &A) == 1 || sscanf(text, "alpha %lf", &alpha) == 1 ||
                     sscanf(text, "gamma %lf", &gamma) == 1 || sscanf(text, "seed %llu", &seed) == 1;
        if (!ok) {
            snprintf(err, errlen, "%s:%d: not a state line: '%.60s'", path, number, text);
            return false;
        }
    }
    if (values != t->count || iterations < 0 || pairs < 0 || pairs > iterations || isnan(A) || isnan(alpha) ||
        isnan(gamma)) {
        snprintf(err, errlen, "%s: incomplete SPSA state (delete it to start afresh)", path);
        return false;
    }
    if (iterations != t->iterations || !same_setting(A, t->A) || !same_setting(alpha, t->alpha) ||
        !same_setting(gamma, t->gamma)) {
        snprintf(err, errlen, "%s is the state of another tune (iterations=%ld A=%g alpha=%g gamma=%g; this one: "
                 "iterations=%ld A=%g alpha=%g gamma=%g): delete it to start afresh, or give its settings",
                 path, iterations, A, alpha, gamma, t->iterations, t->A, t->alpha, t->gamma);
        return false;
    }
    t->done = t->resumedFrom = pairs;
    t->seed = seed;
    return true;
}

bool spsa_open(SpsaTune *t, const SpsaConfig *cfg, char *err, size_t errlen) {
    memset(t, 0, sizeof *t);
    t->iterations = cfg->iterations;
    t->A = cfg->aRatio * (double)cfg->iterations;
    t->alpha = cfg->alpha;
    t->gamma = cfg->gamma;
    t->seed = cfg->seed;
    char why[512];
    FILE *in = file_open_read(cfg->file, NULL, why, sizeof why);
    if (!in) {
        snprintf(err, errlen, "-spsa: the parameter file: %s", why);
        return false;
    }
    bool ok = spsa_read_params(t, in, cfg->file, err, errlen);
    fclose(in);
    /* The state is read when there is one (a missing one starts the tune); anything else there is an error. */
    if (ok && (in = file_open_read(cfg->state, NULL, why, sizeof why))) {
        ok = read_state(t, in, cfg->state, err, errlen);
        fclose(in);
    } else if (ok && errno != ENOENT) {
        snprintf(err, errlen, "-spsa: the state file: %s", why);
        ok = false;
    }
    if (!ok) spsa_free(t);
    return ok;
}

bool spsa_save(const SpsaTune *t, const char *path, char *err, size_t errlen) {
    FileWriter w;
    if (!file_write_begin(&w, path, err, errlen)) return false;
    FILE *f = w.f;
    fprintf(f, "%s\niterations %ld\nA %.17g\nalpha %.17g\ngamma %.17g\nseed %llu\npairs %ld\n", StateHeader,
            t->iterations, t->A, t->alpha, t->gamma, (unsigned long long)t->seed, t->done);
    for (int i = 0; i < t->count; i++) fprintf(f, "value %s %.17g\n", t->params[i].name, t->params[i].value);
    return file_write_commit(&w, err, errlen);
}

void spsa_free(SpsaTune *t) {
    free(t->params);
    memset(t, 0, sizeof *t);
}

double spsa_c(const SpsaTune *t, const SpsaParam *p, long k) {
    double c = p->cEnd * pow((double)t->iterations / (double)k, t->gamma);
    /* An integer needs a step of at least half a unit, or both sides round alike. */
    return p->isFloat || c >= 0.5 ? c : 0.5;
}

double spsa_r(const SpsaTune *t, const SpsaParam *p, long k) {
    double a = p->rEnd * p->cEnd * p->cEnd * pow(t->A + (double)t->iterations, t->alpha);
    double c = spsa_c(t, p, k);
    return a / pow(t->A + (double)k, t->alpha) / (c * c);
}

/* splitmix64: the perturbation of a pair depends only on the seed and the pair's number. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double clamp(double v, double lo, double hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

bool spsa_draw(const SpsaTune *t, long pair, SpsaPoint *point) {
    memset(point, 0, sizeof *point);
    size_t n = (size_t)t->count;
    point->flip = malloc(5 * n * sizeof *point->flip);
    if (!point->flip) return false;
    point->c = point->flip + n;
    point->r = point->c + n;
    point->plus = point->r + n;
    point->minus = point->plus + n;
    point->pair = pair;
    point->k = 1 + t->done;
    uint64_t rng = t->seed ^ ((uint64_t)pair * 0xD1B54A32D192ED03ULL);
    for (int i = 0; i < t->count; i++) {
        const SpsaParam *p = &t->params[i];
        point->flip[i] = next_random(&rng) & 1 ? 1 : -1;
        point->c[i] = spsa_c(t, p, point->k);
        point->r[i] = spsa_r(t, p, point->k);
        double plus = p->value + point->flip[i] * point->c[i];
        double minus = p->value - point->flip[i] * point->c[i];
        if (!p->isFloat) { /* one random offset for both sides, so their gap stays 2c on average */
            double u = (double)(next_random(&rng) >> 11) * 0x1.0p-53;
            plus = floor(plus + u);
            minus = floor(minus + u);
        }
        point->plus[i] = clamp(plus, p->min, p->max);
        point->minus[i] = clamp(minus, p->min, p->max);
    }
    return true;
}

void spsa_point_free(SpsaPoint *point) {
    free(point->flip);
    memset(point, 0, sizeof *point);
}

void spsa_update(SpsaTune *t, const SpsaPoint *point, double result) {
    for (int i = 0; i < t->count; i++) {
        SpsaParam *p = &t->params[i];
        p->value = clamp(p->value + point->r[i] * point->c[i] * result * point->flip[i], p->min, p->max);
    }
    t->done++;
}

void spsa_format_value(const SpsaParam *p, double value, char *out, size_t len) {
    if (p->isFloat) snprintf(out, len, "%.4f", value);
    else snprintf(out, len, "%.0f", round(value));
}

void spsa_print(const SpsaTune *t, FILE *out) {
    long k = t->done < t->iterations ? t->done + 1 : t->iterations;
    fprintf(out, "SPSA: %ld of %ld pairs (c and r: the gains of iteration %ld)\n", t->done, t->iterations, k);
    fprintf(out, "  %-28s %10s %10s %10s %10s %9s %8s %10s %8s\n", "Name", "Value", "Start", "Min", "Max", "c",
            "c_end", "r", "r_end");
    for (int i = 0; i < t->count; i++) {
        const SpsaParam *p = &t->params[i];
        fprintf(out, "  %-28.28s %10.4f %10g %10g %10g %9.4f %8g %10.6f %8g\n", p->name, p->value, p->start, p->min,
                p->max, spsa_c(t, p, k), p->cEnd, spsa_r(t, p, k), p->rEnd);
    }
    fprintf(out, "SPSA values (name, value):\n");
    for (int i = 0; i < t->count; i++) {
        char v[64];
        spsa_format_value(&t->params[i], t->params[i].value, v, sizeof v);
        fprintf(out, "%s, %s\n", t->params[i].name, v);
    }
    fflush(out);
}
