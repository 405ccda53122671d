/*
 * The win/draw/loss model (wdl.h). The coefficients are in wdlmodel.c.
 */
#include "wdl.h"

#include <math.h>

int wdl_material(const Position *pos) {
    return popcount(pos_pieces_pt(pos, PAWN)) + 3 * popcount(pos_pieces_pt(pos, KNIGHT))
         + 3 * popcount(pos_pieces_pt(pos, BISHOP)) + 5 * popcount(pos_pieces_pt(pos, ROOK))
         + 9 * popcount(pos_pieces_pt(pos, QUEEN));
}

/* Horner's rule over the coefficients, constant term first. */
static double polynomial(const double *coeff, double m) {
    double sum = 0;
    for (int k = WDL_DEGREE; k >= 0; k--) sum = sum * m + coeff[k];
    return sum;
}

void wdl_params(const WdlCoefficients *c, int material, double *a, double *b) {
    /* Positions with more than the start's material (promotions) or fewer
     * than a few pawns are rare: the model is fitted and used within this range. */
    int clamped = material < WDL_MATERIAL_MIN ? WDL_MATERIAL_MIN : material > WDL_MATERIAL_MAX ? WDL_MATERIAL_MAX : material;
    double m = (double)clamped / WDL_MATERIAL_ANCHOR;
    *a = fmax(polynomial(c->a, m), 1.0);
    *b = fmax(polynomial(c->b, m), 1.0);
}

void wdl_chances(const WdlCoefficients *c, double v, int material, double *win, double *loss) {
    double a, b;
    wdl_params(c, material, &a, &b);
    *win = 1.0 / (1.0 + exp((a - v) / b));
    *loss = 1.0 / (1.0 + exp((a + v) / b));
}

/* Rounded to the nearest per mille. Since a > 0, win + loss < 1, so the two rounded never exceed 1000. */
static int per_mille(double chance) {
    return (int)floor(chance * 1000.0 + 0.5);
}

Wdl wdl_from_value_with(const WdlCoefficients *c, Value v, int material) {
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return (Wdl){1000, 0, 0};
    if (v <= -VALUE_TB_WIN_IN_MAX_PLY) return (Wdl){0, 0, 1000};
    double win, loss;
    wdl_chances(c, v, material, &win, &loss);
    Wdl r = {per_mille(win), 0, per_mille(loss)};
    r.draw = 1000 - r.win - r.loss;
    return r;
}
