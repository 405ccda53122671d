#ifndef GIZUM_INIT_H
#define GIZUM_INIT_H

/*
 * Builds every immutable start-up table of the engine (board layer, then the
 * search's reduction table). Programs that use only the board call
 * board_init() (position.h) instead and link no search code.
 */
void engine_init(void);

#endif
