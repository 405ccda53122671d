/*
 * Magic multipliers for slider attack lookups, found by Gizum's own search
 * (tools/magic_gen.c) and committed as data. Regenerate with `make magics`.
 */
#ifndef GIZUM_MAGICS_H
#define GIZUM_MAGICS_H

#include "types.h"

extern const Bitboard RookMagicNumbers[SQUARE_NB];
extern const Bitboard BishopMagicNumbers[SQUARE_NB];

#endif
