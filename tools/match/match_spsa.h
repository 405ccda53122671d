/*
 * gizum-match: SPSA tuning on one machine (-spsa), as OpenBench and fishtest
 * tune over many. Every iteration is one game pair on one opening: the
 * engine with every parameter at value + flip c_k (flip = +1 or -1, drawn
 * per parameter) plays the engine at value - flip c_k, both colours; the
 * pair's W - L then moves every parameter by r_k c_k (W - L) flip. The gains
 * follow fishtest:
 *   c_k = c_end (N / k)^gamma,  a = r_end c_end^2 (A + N)^alpha,
 *   a_k = a / (A + k)^alpha,    r_k = a_k / c_k^2      (k = 1 + pairs done)
 * so at the last iteration c_k = c_end and r_k = r_end. The parameter file
 * is what `./gizum spsa` prints: name, int|float, value, min, max, c_end, r_end.
 */
#ifndef MATCH_SPSA_H
#define MATCH_SPSA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What the command line says (-spsa ...). */
typedef struct {
    bool enabled;
    char *file;             /* the parameter lines */
    char *state;            /* saved after every pair, resumed from when it exists (default FILE.state) */
    long iterations;        /* game pairs of the whole tune (N) */
    double aRatio;          /* A = aRatio * N (OpenBench's A_ratio) */
    double alpha, gamma;
    uint64_t seed;          /* perturbation directions; a resumed tune keeps its own */
    bool seedGiven;
} SpsaConfig;

#define SPSA_DEFAULT_A_RATIO 0.1
#define SPSA_DEFAULT_ALPHA 0.602
#define SPSA_DEFAULT_GAMMA 0.101
#define SPSA_NAME_MAX 64

typedef struct {
    char name[SPSA_NAME_MAX];   /* the engine's UCI option */
    bool isFloat;
    double start, value, min, max, cEnd, rEnd;
} SpsaParam;

typedef struct {
    SpsaParam *params;
    int count;
    long iterations;            /* N */
    long done;                  /* pairs counted so far (resumed ones included) */
    double A, alpha, gamma;
    uint64_t seed;
    long resumedFrom;           /* pairs already done when this run began */
} SpsaTune;

/* One iteration's perturbation: per parameter the direction, the gains and the two values sent. */
typedef struct {
    long pair;                  /* 0-based over the whole tune */
    long k;                     /* the iteration number the gains were computed for */
    double *flip, *c, *r;
    double *plus, *minus;       /* rounded for int parameters, always inside [min, max] */
} SpsaPoint;

/*
 * Reads the parameter lines ('#' comments and blank lines are skipped); a bad line
 * gives "path:line: reason" in err.
 */
bool spsa_read_params(SpsaTune *t, FILE *in, const char *path, char *err, size_t errlen);
/*
 * Prepares the tune of cfg: its parameters, and the saved state when cfg->state
 * exists (a state of another tune is refused with the reason).
 */
bool spsa_open(SpsaTune *t, const SpsaConfig *cfg, char *err, size_t errlen);
/* Writes the state (settings, pairs done, current values) to a temporary file renamed over path; false with err. */
bool spsa_save(const SpsaTune *t, const char *path, char *err, size_t errlen);
void spsa_free(SpsaTune *t);

/* The gains of parameter p at iteration k (1-based). */
double spsa_c(const SpsaTune *t, const SpsaParam *p, long k);
double spsa_r(const SpsaTune *t, const SpsaParam *p, long k);

/* Draws pair's perturbation around the current values with the gains of iteration 1 + done. */
bool spsa_draw(const SpsaTune *t, long pair, SpsaPoint *point);
void spsa_point_free(SpsaPoint *point);
/* Applies a finished pair: result is the plus engine's wins minus losses (-2 .. 2). */
void spsa_update(SpsaTune *t, const SpsaPoint *point, double result);

/* The value as sent to the engine ("24", or "0.7500" for a float). */
void spsa_format_value(const SpsaParam *p, double value, char *out, size_t len);
/* The table of current values and gains, then the values in OpenBench's "name, value" form. */
void spsa_print(const SpsaTune *t, FILE *out);

#endif
