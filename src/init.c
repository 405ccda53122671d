#include "init.h"

#include "attacks.h"
#include "bitboard.h"
#include "eval.h"
#include "position.h"
#include "search.h"

void gizum_init(void) {
    bitboard_init();
    attacks_init();
    position_init();
    eval_init();
    search_init();
}
