/*
 * The win/draw/loss model: the chances, per mille, that the side to move
 * wins, draws or loses when the search says v centipawns, given the
 * material on the board. Stockfish's form of model, fitted to Gizum's own
 * self-play games (`gizum-tune --fit-wdl`, docs/evaluation.md, "Win/draw/loss model"):
 *
 *   W = 1000 / (1 + exp((a(m) - v) / b(m)))      L = the same for -v
 *   D = 1000 - W - L
 *
 * a(m) is the value at which the win chance is one half, b(m) how quickly
 * the chances change with v; both are cubic polynomials of
 *   m = clamp(material, WDL_MATERIAL_MIN, WDL_MATERIAL_MAX) / WDL_MATERIAL_ANCHOR
 * with material = pawns + 3 * (knights + bishops) + 5 * rooks + 9 * queens
 * of both sides (78 at the start). The coefficients are data (wdlmodel.c),
 * rewritten by the fitter.
 */
#ifndef GIZUM_WDL_H
#define GIZUM_WDL_H

#include "position.h"
#include "types.h"

enum { WDL_MATERIAL_MIN = 17, WDL_MATERIAL_MAX = 78, WDL_MATERIAL_ANCHOR = 58, WDL_DEGREE = 3 };

/* a(m) = a[0] + a[1] m + a[2] m^2 + a[3] m^3, likewise b; in centipawns. */
typedef struct {
    double a[WDL_DEGREE + 1];
    double b[WDL_DEGREE + 1];
} WdlCoefficients;

/* Per mille, win + draw + loss = 1000. */
typedef struct {
    int win, draw, loss;
} Wdl;

/* Gizum's fitted model (wdlmodel.c). */
extern const WdlCoefficients WdlModel;

/* The material measure above, of both sides. */
int wdl_material(const Position *pos);

/* a(m) and b(m) for a material count, kept at least 1 cp so that the draw chance is never negative. */
void wdl_params(const WdlCoefficients *c, int material, double *a, double *b);

/* The model's win and loss chances (0..1) for a value in cp; the draw chance is 1 - win - loss > 0. */
void wdl_chances(const WdlCoefficients *c, double v, int material, double *win, double *loss);

/*
 * The model's W/D/L for a search value (side to move's view): each chance
 * rounded to per mille, the draw what is left. Mate and tablebase scores
 * are certain: 1000 0 0 or 0 0 1000.
 */
Wdl wdl_from_value_with(const WdlCoefficients *c, Value v, int material);
static inline Wdl wdl_from_value(Value v, int material) { return wdl_from_value_with(&WdlModel, v, material); }


#endif
